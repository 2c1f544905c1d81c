//! The move lists the views read (`board.legal_moves`, `board.pseudo_legal_moves`: their
//! iteration, length, membership and repr): the core's cached list in python-chess's order,
//! or, for a position the core cannot play, python-chess's own moves of it (`loose`).

use super::loose::{index, setup_move, Loose};
use super::*;

/// Which of python-chess's `generate_*` move lists (`PyBoard::generated`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Generated {
    Legal,
    LegalCaptures,
    Pseudo,
    PseudoCaptures,
}

impl PyBoard {
    pub(crate) fn legal_tuple(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let mut st = self.st_attached(py)?;
        if let Some(loose) = st.loose() {
            return Ok(PyTuple::new(py, Loose::interned(py, &loose.list(true)))?.unbind());
        }
        st.tuple(py)
    }

    pub(crate) fn legal_count(&self) -> PyResult<usize> {
        let mut st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(loose.list(true).len());
        }
        Ok(st.entry().moves.len())
    }

    /// Is `m` (any move-like object) legal here? False for objects that are not legal moves,
    /// TypeError for objects that are not moves at all.
    pub(crate) fn is_legal_move(&self, _py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mut st = self.st()?;
        // As python-chess: no move (None) is not legal (`None in board.legal_moves` is False).
        if m.is_none() {
            return Ok(false);
        }
        if let Some(loose) = st.loose() {
            return Ok(match move_fields(m) {
                Ok(fields) => loose.moves().is_legal(setup_move(fields)),
                Err(e) if e.get_type(m.py()).is_subclass_of::<PyTypeError>()? => return Err(e),
                Err(_) => false,
            });
        }
        if st.names_standard_castling(m) {
            return Ok(false);
        }
        // A Move from a square without a piece of the side to move is never legal: answered
        // before `resolve`, whose refusal writes an error message with the position's FEN.
        if let Ok(pm) = m.cast::<PyMove>() {
            let pm = pm.get();
            if pm.drop == 0 && (pm.from, pm.to) != (0, 0) && !st.mover_on(pm.from) {
                return Ok(false);
            }
        }
        match st.resolve(m, false) {
            Ok(_) => Ok(true),
            Err(e) if e.get_type(m.py()).is_subclass_of::<PyTypeError>()? => Err(e),
            Err(_) => Ok(false),
        }
    }

    /// python-chess's `generate_legal_moves`, `generate_legal_captures`,
    /// `generate_pseudo_legal_moves` and `generate_pseudo_legal_captures`: the moves from
    /// `from_mask` to `to_mask`, in python-chess's order. Castling matches `to_mask` on its
    /// rook's square and is never a capture; en passant comes last among the captures, as
    /// in python-chess's chain of the captures and the en-passant generator.
    pub(crate) fn generated<'py>(
        &self,
        py: Python<'py>,
        which: Generated,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyIterator>> {
        let mut st = self.st()?;
        if let Some(loose) = st.loose() {
            let (moves, mut out) = (loose.moves(), Vec::new());
            match which {
                Generated::Legal => moves.legal_moves(from_mask, to_mask, &mut out),
                Generated::LegalCaptures => moves.legal_captures(from_mask, to_mask, &mut out),
                Generated::Pseudo => moves.pseudo_legal_moves(from_mask, to_mask, &mut out),
                Generated::PseudoCaptures => moves.pseudo_legal_captures(from_mask, to_mask, &mut out),
            }
            return PyTuple::new(py, Loose::interned(py, &out))?.try_iter();
        }
        st.playable()?;
        let pairs: Vec<(Move, u16)> = if matches!(which, Generated::Legal | Generated::LegalCaptures) {
            let e = st.entry();
            e.moves.iter().copied().zip(e.index.iter().copied()).collect()
        } else {
            let (mut moves, mut index) = (Vec::new(), Vec::new());
            order::pseudo_legal_in_order(&st.core, &mut moves, &mut index);
            moves.into_iter().zip(index).collect()
        };
        let captures = matches!(which, Generated::LegalCaptures | Generated::PseudoCaptures);
        let them = st.core.side_to_move() ^ 1;
        let core = &st.core;
        let idx: Vec<u16> = pairs
            .into_iter()
            .filter(|&(m, i)| {
                let (from, to) = (i as u64 / 5 / 64, i as u64 / 5 % 64);
                if captures {
                    let target = core.piece_at(m.to());
                    let capture = m.is_en_passant() || (!m.is_castle() && target != EMPTY && color_of(target) == them);
                    capture && from_mask & (1 << from) != 0 && to_mask & (1 << to) != 0
                } else {
                    let target = if m.is_castle() { sq64(core.castling_rook(m)) as u64 } else { to };
                    from_mask & (1 << from) != 0 && to_mask & (1 << target) != 0
                }
            })
            .map(|(_, i)| i)
            .collect();
        PyTuple::new(py, idx.iter().map(|&i| interned(py, i)))?.try_iter()
    }

    /// python-chess's `is_pseudo_legal` of a move (`fields` are its from, to and promotion):
    /// in the pseudo-legal list, or a king's move onto its own rook that is legal castling,
    /// which python-chess reads as castling in standard chess too (its `_from_chess960`).
    pub(crate) fn is_pseudo_legal_move(
        &self,
        py: Python<'_>,
        m: &Bound<'_, PyAny>,
        (from, to, promo): (u8, u8, u8),
    ) -> PyResult<bool> {
        let onto_own_rook = {
            let mut st = self.st()?;
            if let Some(loose) = st.loose() {
                return Ok(loose.moves().is_pseudo_legal(setup_move((from, to, promo))));
            }
            // Quick answers before the pseudo-legal list is generated: a move from a square
            // without a piece of the side to move never is one, a legal move (the position's
            // kept list, as a search's table move usually is) always is.
            if !st.mover_on(from) {
                return Ok(false);
            }
            let index = move_index(from as usize, to as usize, promo);
            if st.entry().index.contains(&index) || st.pseudo_indexes().contains(&index) {
                return Ok(true);
            }
            let at = |s: u8| st.piece_on(s);
            let (king, rook) = (at(from), at(to));
            let own = |p: u8, kind: u8| p != EMPTY && kind_of(p) == kind && color_of(p) == st.core.side_to_move();
            promo == 0 && own(king, KING) && own(rook, crate::ROOK)
        };
        Ok(onto_own_rook && self.is_legal_move(py, m)?)
    }

    /// Table indexes of the pseudo-legal moves.
    pub(crate) fn pseudo_indexes(&self) -> PyResult<Vec<u16>> {
        let st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(loose.list(false).into_iter().map(index).collect());
        }
        Ok(st.pseudo_indexes())
    }

    /// SAN of the legal moves (or UCI of the pseudo-legal ones that are not legal), for reprs.
    pub(crate) fn sans(&self, _py: Python<'_>, pseudo: bool) -> PyResult<Vec<String>> {
        let st = self.st()?;
        if let Some(loose) = st.loose() {
            let moves = loose.moves();
            return Ok(loose
                .list(pseudo)
                .into_iter()
                .map(|m| if moves.is_legal(m) { loose.setup.san(loose.castling, m, false) } else { m.uci() })
                .collect());
        }
        st.playable()?;
        let (mut moves, mut index) = (Vec::new(), Vec::new());
        if pseudo {
            order::pseudo_legal_in_order(&st.core, &mut moves, &mut index);
        } else {
            order::legal_in_order(&st.core, &mut moves, &mut index);
        }
        Ok(moves
            .iter()
            .map(|&m| if st.core.is_legal(m) { st.core.move_to_san(m) } else { st.core.move_to_uci(m) })
            .collect())
    }
}
