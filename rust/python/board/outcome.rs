//! The methods of `kibitz.Board` about the end of the game, with python-chess's semantics:
//! checkmate and stalemate, insufficient material, the fifty- and seventy-five-move rules,
//! repetitions, draw claims and `outcome()`. The rules themselves live in the rules library
//! (`rust/chess/draw.rs`) and, over the move stack, in `repetition.rs`. A `#[pymethods]` block
//! of its own (PyO3's `multiple-pymethods`), so that each file holds one idea.

use super::*;

#[pymethods]
impl PyBoard {
    /// True when the side to move is checkmated.
    fn is_checkmate(&self) -> PyResult<bool> {
        if let Some(loose) = self.st()?.loose() {
            return Ok(loose.is_checkmate());
        }
        let mut st = self.play()?;
        Ok(st.core.in_check() && st.entry().moves.is_empty())
    }

    /// True when the side to move is stalemated.
    fn is_stalemate(&self) -> PyResult<bool> {
        if let Some(loose) = self.st()?.loose() {
            return Ok(loose.is_stalemate());
        }
        let mut st = self.play()?;
        Ok(!st.core.in_check() && st.entry().moves.is_empty())
    }

    /// True when neither side has mating material.
    fn is_insufficient_material(&self) -> PyResult<bool> {
        Ok(self.has_insufficient_material(ColorArg(true))? && self.has_insufficient_material(ColorArg(false))?)
    }

    /// True when `color` cannot checkmate by any sequence of legal moves.
    fn has_insufficient_material(&self, color: ColorArg) -> PyResult<bool> {
        let color = color.0;
        let st = self.st()?;
        if st.unplayable.is_none() {
            return Ok(st.core.has_insufficient_material(color_arg(color)));
        }
        // python-chess's rule, over the piece sets (any number of pieces).
        let (c, bb) = (color_arg(color), &st.core.bb);
        let kind = |k: u8| bb[crate::make_piece(k, WHITE) as usize] | bb[crate::make_piece(k, BLACK) as usize];
        let (ours, theirs) = (st.core.occ[c], st.core.occ[c ^ 1]);
        if ours & (kind(PAWN) | kind(crate::ROOK) | kind(crate::QUEEN)) != 0 {
            return Ok(false);
        }
        if ours & kind(crate::KNIGHT) != 0 {
            return Ok(ours.count_ones() <= 2 && theirs & !kind(KING) & !kind(crate::QUEEN) == 0);
        }
        if ours & kind(crate::BISHOP) != 0 {
            const DARK: u64 = 0xAA55_AA55_AA55_AA55;
            let bishops = kind(crate::BISHOP);
            let same = bishops & DARK == 0 || bishops & !DARK == 0;
            return Ok(same && kind(PAWN) == 0 && kind(crate::KNIGHT) == 0);
        }
        Ok(true)
    }

    /// True after 75 moves (150 half-moves) without capture or pawn move, not checkmate.
    fn is_seventyfive_moves(&self) -> PyResult<bool> {
        Ok(self.st()?.is_halfmoves(150))
    }

    /// True when the current position has occurred five times.
    fn is_fivefold_repetition(&self) -> PyResult<bool> {
        Ok(self.st()?.is_repetition(5))
    }

    /// True when the current position has occurred at least `count` times (this one
    /// included), counting the move history.
    #[pyo3(signature = (count = None), text_signature = "($self, count=3)")]
    fn is_repetition(&self, count: Option<&Bound<'_, PyInt>>) -> PyResult<bool> {
        // Any int, as python-chess: beyond i64 a count is simply never (or, negative, always)
        // reached.
        let count = match count.map(|c| (c, c.extract::<i64>())) {
            None => 3,
            Some((_, Ok(c))) => c,
            Some((count, Err(_))) => {
                if count.gt(0)? {
                    i64::MAX
                } else {
                    0
                }
            }
        };
        Ok(self.st()?.is_repetition(count.clamp(0, u32::MAX as i64) as usize))
    }

    /// True when the fifty-move rule can be claimed now (100 half-moves, not checkmate).
    fn is_fifty_moves(&self) -> PyResult<bool> {
        Ok(self.st()?.is_halfmoves(100))
    }

    /// True when a draw by the fifty-move rule can be claimed now or with the next move.
    fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        Ok(self.st()?.can_claim_fifty())
    }

    /// True when threefold repetition can be claimed now or with the next move.
    fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        Ok(self.st()?.can_claim_threefold())
    }

    /// True when a draw can be claimed (fifty moves or threefold repetition).
    fn can_claim_draw(&self) -> PyResult<bool> {
        Ok(self.can_claim_fifty_moves()? || self.can_claim_threefold_repetition()?)
    }

    /// The Outcome when the game is over (checkmate, insufficient material, stalemate, the
    /// 75-move rule, fivefold repetition; with `claim_draw` also the fifty-move rule and
    /// threefold repetition), else None.
    #[pyo3(signature = (*, claim_draw = Flag(false)), text_signature = "($self, /, *, claim_draw=False)")]
    fn outcome(&self, py: Python<'_>, claim_draw: Flag) -> PyResult<Option<Py<PyAny>>> {
        let claim_draw = claim_draw.0;
        let loose = self.st()?.loose();
        let loose_outcome = match loose {
            None => None,
            Some(loose) => {
                let moves = loose.moves();
                let (check, any) = (moves.checkers() != 0, moves.has_legal_move());
                let setup = &loose.setup;
                Some(if check && !any {
                    Some(("CHECKMATE", Some(!setup.white_to_move)))
                } else if self.is_insufficient_material()? {
                    Some(("INSUFFICIENT_MATERIAL", None))
                } else if !any {
                    Some(("STALEMATE", None))
                } else if setup.halfmove >= 150 {
                    Some(("SEVENTYFIVE_MOVES", None))
                } else if self.is_fivefold_repetition()? {
                    Some(("FIVEFOLD_REPETITION", None))
                } else if claim_draw && self.can_claim_fifty_moves()? {
                    Some(("FIFTY_MOVES", None))
                } else if claim_draw && self.can_claim_threefold_repetition()? {
                    Some(("THREEFOLD_REPETITION", None))
                } else {
                    None
                })
            }
        };
        let (term, winner) = if let Some(found) = loose_outcome {
            match found {
                Some(found) => found,
                None => return Ok(None),
            }
        } else {
            let mut st = self.play()?;
            let no_moves = st.entry().moves.is_empty();
            let core = &st.core;
            let white_to_move = core.side_to_move() == WHITE;
            if no_moves && core.in_check() {
                ("CHECKMATE", Some(!white_to_move))
            } else if core.is_insufficient_material() {
                ("INSUFFICIENT_MATERIAL", None)
            } else if no_moves {
                ("STALEMATE", None)
            } else if core.halfmove_clock() >= 150 {
                ("SEVENTYFIVE_MOVES", None)
            } else if st.is_repetition(5) {
                ("FIVEFOLD_REPETITION", None)
            } else if claim_draw && core.can_claim_fifty_moves() {
                ("FIFTY_MOVES", None)
            } else if claim_draw && st.can_claim_threefold() {
                ("THREEFOLD_REPETITION", None)
            } else {
                return Ok(None);
            }
        };
        let (outcome, termination) = PyBoard::outcome_classes(py)?;
        let t = termination.bind(py).getattr(term)?;
        Ok(Some(outcome.bind(py).call1((t, winner))?.unbind()))
    }

    /// True when the game is over (see `outcome`).
    #[pyo3(signature = (*, claim_draw = Flag(false)), text_signature = "($self, /, *, claim_draw=False)")]
    fn is_game_over(&self, py: Python<'_>, claim_draw: Flag) -> PyResult<bool> {
        Ok(self.outcome(py, claim_draw)?.is_some())
    }

    /// "1-0", "0-1", "1/2-1/2", or "*" while the game goes on (see `outcome`).
    #[pyo3(signature = (*, claim_draw = Flag(false)), text_signature = "($self, /, *, claim_draw=False)")]
    fn result(&self, py: Python<'_>, claim_draw: Flag) -> PyResult<String> {
        match self.outcome(py, claim_draw)? {
            Some(o) => o.bind(py).call_method0("result")?.extract(),
            None => Ok("*".into()),
        }
    }
}
