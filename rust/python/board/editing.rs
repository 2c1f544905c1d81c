//! The methods of `kibitz.Board` that edit the position as python-chess's do (set and
//! remove pieces, the board FEN, castling rights, clear, mirror and transforms) and
//! `status()`; the rules are the lenient position's (`setup.rs`). A `#[pymethods]` block of
//! its own (PyO3's `multiple-pymethods`).

use super::setup::{piece_code, setup_of, status_flags};
use super::*;

#[pymethods]
impl PyBoard {
    // ---- editing, mirror and status: python-chess's rules, in setup.rs ----

    /// Puts a piece on a square (None empties it), marked as promoted or not; clears the
    /// move stack.
    #[pyo3(signature = (square, piece, promoted = Flag(false)), text_signature = "($self, /, square, piece, promoted=False)")]
    fn set_piece_at(&self, square: SquareIndex, piece: Option<&Bound<'_, PyAny>>, promoted: Flag) -> PyResult<()> {
        let promoted = promoted.0;
        let code = match piece {
            None => EMPTY,
            Some(p) => piece_code(p)?,
        };
        let bit = 1u64 << square.index();
        self.edit(|s| {
            s.placement[square.index()] = code;
            s.promoted = if promoted && code != EMPTY { s.promoted | bit } else { s.promoted & !bit };
        })
    }

    /// Takes the piece off a square and returns it (None if it was empty); clears the move stack.
    fn remove_piece_at(&self, py: Python<'_>, square: SquareIndex) -> PyResult<Option<Py<PyPiece>>> {
        let p = self.st()?.core.piece_at(square.cell());
        self.edit(|s| {
            s.placement[square.index()] = EMPTY;
            s.promoted &= !(1u64 << square.index());
        })?;
        Ok((p != EMPTY).then(|| piece(py, kind_of(p), color_of(p) == WHITE)))
    }

    /// Sets the placement from a `{square: Piece}` mapping; clears the move stack.
    fn set_piece_map(&self, py: Python<'_>, pieces: &Bound<'_, PyAny>) -> PyResult<()> {
        let mapping = py.get_type::<PyDict>().call1((pieces,))?;
        let mut placement = [EMPTY; 64];
        for (square, p) in mapping.cast::<PyDict>()?.iter() {
            placement[square.extract::<SquareIndex>()?.index()] = piece_code(&p)?;
        }
        // python-chess's clears the board first: no piece keeps a promoted mark.
        self.edit(|s| {
            s.placement = placement;
            s.promoted = 0;
        })
    }

    // ---- python-chess's writable attributes: each an edit of the position ----

    /// Sets the side to move (python-chess's `board.turn = ...`; WHITE/BLACK or 1/0). As
    /// with every attribute below, the move stack stays and `pop` goes back past it.
    #[setter]
    fn set_turn(&self, value: ColorArg) -> PyResult<()> {
        self.assign(|s| s.white_to_move = value.0)
    }

    /// Sets the castling rights as a mask of rook squares (python-chess's
    /// `board.castling_rights = ...`); rights without their rook are kept as python-chess
    /// keeps them and give no castling move.
    #[setter]
    fn set_castling_rights(&self, value: Mask) -> PyResult<()> {
        self.assign(|s| s.castling = value.0)
    }

    /// Sets the en-passant square (a square or None), capturable or not, as python-chess.
    #[setter]
    fn set_ep_square(&self, value: Option<SquareIndex>) -> PyResult<()> {
        self.assign(|s| s.ep = value.map(|q| q.index() as u8))
    }

    /// Sets the halfmove clock (the fifty-move count).
    #[setter]
    fn set_halfmove_clock(&self, value: i64) -> PyResult<()> {
        let value = counter("halfmove_clock", value)?;
        self.assign(|s| s.halfmove = value)
    }

    /// Sets the fullmove number.
    #[setter]
    fn set_fullmove_number(&self, value: i64) -> PyResult<()> {
        let value = counter("fullmove_number", value)?;
        self.assign(|s| s.fullmove = value)
    }

    /// Makes the board a Chess960 board or a standard one (how castling is written and read).
    #[setter]
    fn set_chess960(&self, value: Flag) -> PyResult<()> {
        self.assign(|s| s.chess960 = value.0)
    }

    /// No pieces, White to move, no castling rights, no en passant, clocks 0 and 1.
    fn clear(&self) -> PyResult<()> {
        self.edit(|s| *s = crate::Setup::empty(s.chess960))
    }

    /// No pieces; turn, castling rights, en passant and clocks stay; no move stack.
    fn clear_board(&self) -> PyResult<()> {
        self.edit(|s| {
            s.placement = [EMPTY; 64];
            s.promoted = 0;
        })
    }

    /// The start placement; turn, castling rights, en passant and clocks stay; no move stack.
    fn reset_board(&self) -> PyResult<()> {
        let start = setup_of(&State::new(CoreBoard::startpos(), None)).placement;
        self.edit(|s| {
            s.placement = start;
            s.promoted = 0;
        })
    }

    /// Sets the placement from a FEN's board part (python-chess's reading: a bad one raises
    /// FenError, a ValueError, with its message, and changes nothing); turn, castling
    /// rights, en passant and clocks stay; no move stack.
    fn set_board_fen(&self, fen: Bound<'_, PyString>) -> PyResult<()> {
        let text = text(&fen, "FEN", fen_text_err)?;
        let (placement, promoted) = crate::parse_board_fen(&text).map_err(fen_text_err)?;
        self.edit(|s| {
            s.placement = placement;
            s.promoted = promoted;
        })
    }

    /// Sets the castling rights from a FEN castling field (`KQkq`, `HAha`, ..., read as
    /// python-chess reads it: rook squares, usable or not); no move stack.
    fn set_castling_fen(&self, castling_fen: Bound<'_, PyString>) -> PyResult<()> {
        let field = text(&castling_fen, "castling field", fen_text_err)?;
        let mask = setup_of(&*self.st()?).castling_mask(&field).map_err(fen_text_err)?;
        self.edit(|s| s.castling = mask)
    }

    /// The usable castling rights as a Chess960 board would have them (python-chess's
    /// `clean_castling_rights` with `chess960` set), for `has_chess960_castling_rights`.
    fn _clean_castling_as_chess960(&self) -> PyResult<u64> {
        let mut setup = setup_of(&*self.st()?);
        setup.chess960 = true;
        Ok(setup.clean_castling())
    }

    /// The usable castling rights, as a mask of rook squares (python-chess's rule).
    fn clean_castling_rights(&self) -> PyResult<u64> {
        Ok(self.st()?.clean_castling_rights())
    }

    /// What is wrong with the position, as python-chess's `Status` flags.
    fn status(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let bits = self.st()?.status_bits();
        status_flags(py, bits)
    }

    /// Whether `status()` is `VALID`.
    fn is_valid(&self) -> PyResult<bool> {
        Ok(self.st()?.status_bits() == 0)
    }

    /// The position seen from the other side: ranks reversed, colours, turn, castling
    /// rights and en passant swapped; no move stack.
    fn mirror(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let setup = setup_of(&*slf.get().st()?);
        PyBoard::new_of(&slf.get_type(), State::from_setup(&setup.mirrored())?, false)
    }

    /// `mirror()` in place (the move stack is cleared).
    fn apply_mirror(&self) -> PyResult<()> {
        self.edit(|s| *s = s.mirrored())
    }

    /// The position with every square mapped by the square-mask function `f` (for example
    /// `flip_horizontal`); castling rights and the en-passant square are mapped too.
    fn transform(slf: &Bound<'_, Self>, f: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let setup = setup_of(&*slf.get().st()?);
        let mapped = setup.transformed::<PyErr>(|m| Ok(f.call1((m,))?.extract::<Mask>()?.0))?;
        PyBoard::new_of(&slf.get_type(), State::from_setup(&mapped)?, false)
    }

    /// `transform(f)` in place (the move stack is cleared).
    fn apply_transform(&self, f: &Bound<'_, PyAny>) -> PyResult<()> {
        // `f` is Python code: it runs before the board is locked for the change.
        let setup = setup_of(&*self.st()?);
        let mapped = setup.transformed::<PyErr>(|m| Ok(f.call1((m,))?.extract::<Mask>()?.0))?;
        *self.st()? = State::from_setup(&mapped)?;
        Ok(())
    }

    /// Makes this board a copy of `other` (position, history and root): the primitive the
    /// Python-level editing methods (`set_fen`, `reset`, `clear_stack`, ...) are built on.
    fn _assign(&self, other: PyRef<'_, PyBoard>) -> PyResult<()> {
        let copy = other.st()?.copy_with_stack(usize::MAX);
        drop(other);
        *self.st()? = copy;
        Ok(())
    }
}

/// A move counter given to a setter: 0 up to 2^32 - 1, else a ValueError naming it.
fn counter(name: &str, value: i64) -> PyResult<u32> {
    u32::try_from(value)
        .map_err(|_| PyValueError::new_err(format!("{name} must be from 0 to {}, got {value}", u32::MAX)))
}
