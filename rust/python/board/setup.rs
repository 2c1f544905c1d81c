//! The bindings' side of the lenient position (`crate::Setup`, the rules library's): a
//! board's state read as a `Setup` and made from one (`setup_of`, `State::from_setup`), what board
//! editing (`set_piece_at`, `set_board_fen`, `mirror()`, the writable attributes) and a
//! pseudo-legal `push` do with them, and `status()`.
//!
//! An edit reads the board's position as python-chess holds it, changes it, and builds a new
//! `State` from it: the core gets a FEN with only the usable rights and en-passant square,
//! the state keeps the rest, as `Board(fen)` does for a lenient FEN. The rules are
//! python-chess's (`clean_castling_rights`, `status`), checked against it by the
//! differential tests.

use super::{PyBoard, State};
use crate::line;
use crate::python::moves::PyPiece;
use crate::{make_piece, piece_of_symbol, sq120, Setup, BLACK, KING, PAWN, WHITE};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;

/// The highest set square of a non-empty mask.
fn msb(mask: u64) -> usize {
    63 - mask.leading_zeros() as usize
}

/// The board's current position as python-chess holds it.
pub(super) fn setup_of(st: &State) -> Setup {
    let mut setup = Setup::empty(st.core.is_chess960());
    for (s, p) in setup.placement.iter_mut().enumerate() {
        *p = st.core.piece_at(sq120(s % 8, s / 8));
    }
    setup.white_to_move = st.core.side_to_move() == WHITE;
    setup.castling = st.raw_castling();
    setup.ep = st.ep_square_at(st.core.ply());
    setup.halfmove = st.core.halfmove_clock();
    setup.fullmove = st.core.fullmove_number();
    setup.promoted = st.promoted_now();
    setup
}

/// python-chess's `Status` flags, as bits (`kibitz.Status` has the same values).
mod flag {
    pub const NO_WHITE_KING: u32 = 1 << 0;
    pub const NO_BLACK_KING: u32 = 1 << 1;
    pub const TOO_MANY_KINGS: u32 = 1 << 2;
    pub const TOO_MANY_WHITE_PAWNS: u32 = 1 << 3;
    pub const TOO_MANY_BLACK_PAWNS: u32 = 1 << 4;
    pub const PAWNS_ON_BACKRANK: u32 = 1 << 5;
    pub const TOO_MANY_WHITE_PIECES: u32 = 1 << 6;
    pub const TOO_MANY_BLACK_PIECES: u32 = 1 << 7;
    pub const BAD_CASTLING_RIGHTS: u32 = 1 << 8;
    pub const INVALID_EP_SQUARE: u32 = 1 << 9;
    pub const OPPOSITE_CHECK: u32 = 1 << 10;
    pub const EMPTY: u32 = 1 << 11;
    pub const TOO_MANY_CHECKERS: u32 = 1 << 15;
    pub const IMPOSSIBLE_CHECK: u32 = 1 << 16;
}

impl State {
    /// python-chess's `clean_castling_rights()`.
    pub(super) fn clean_castling_rights(&self) -> u64 {
        // Moves played before an attribute assignment: python-chess takes the rights as
        // clean whenever its move stack is not empty.
        if self.before.is_some() {
            return self.raw_castling();
        }
        if self.unplayable.is_some() {
            setup_of(self).clean_castling()
        } else {
            self.core.castling_rook_mask()
        }
    }

    /// python-chess's `status()`, as the bits of its `Status` flags.
    pub(super) fn status_bits(&self) -> u32 {
        let core = &self.core;
        let both = |k: u8| core.bb[make_piece(k, WHITE) as usize] | core.bb[make_piece(k, BLACK) as usize];
        let (white, black) = (core.occ[WHITE], core.occ[BLACK]);
        let occupied = white | black;
        let (kings, pawns) = (both(KING), both(PAWN));
        let mut errors = 0;
        if occupied == 0 {
            errors |= flag::EMPTY;
        }
        if white & kings == 0 {
            errors |= flag::NO_WHITE_KING;
        }
        if black & kings == 0 {
            errors |= flag::NO_BLACK_KING;
        }
        if kings.count_ones() > 2 {
            errors |= flag::TOO_MANY_KINGS;
        }
        if white.count_ones() > 16 {
            errors |= flag::TOO_MANY_WHITE_PIECES;
        }
        if black.count_ones() > 16 {
            errors |= flag::TOO_MANY_BLACK_PIECES;
        }
        if (white & pawns).count_ones() > 8 {
            errors |= flag::TOO_MANY_WHITE_PAWNS;
        }
        if (black & pawns).count_ones() > 8 {
            errors |= flag::TOO_MANY_BLACK_PAWNS;
        }
        if pawns & (RANK_1 | RANK_8) != 0 {
            errors |= flag::PAWNS_ON_BACKRANK;
        }
        if self.raw_castling() != self.clean_castling_rights() {
            errors |= flag::BAD_CASTLING_RIGHTS;
        }
        let us = core.side_to_move();
        let ep = self.ep_square_at(core.ply());
        let valid_ep = ep.filter(|&e| e != 0).and_then(|e| {
            let e = e as usize;
            let (rank, pawn, origin) =
                if us == WHITE { (5, e.checked_sub(8)?, e + 8) } else { (2, e + 8, e.checked_sub(8)?) };
            let their_pawns = pawns & core.occ[us ^ 1];
            let ok = e / 8 == rank
                && origin < 64
                && their_pawns >> pawn & 1 != 0
                && occupied >> e & 1 == 0
                && occupied >> origin & 1 == 0;
            ok.then_some(e)
        });
        if ep.map(usize::from) != valid_ep {
            errors |= flag::INVALID_EP_SQUARE;
        }
        if let Some(k) = self.king64(us ^ 1) {
            if self.attackers(us, sq120(k % 8, k / 8)) != 0 {
                errors |= flag::OPPOSITE_CHECK;
            }
        }
        let checkers = self.checkers();
        let our_kings = kings & core.occ[us];
        if checkers != 0 {
            let n = checkers.count_ones();
            if n > 2 {
                errors |= flag::TOO_MANY_CHECKERS;
            }
            if let Some(e) = valid_ep {
                let (pushed_to, pushed_from) = (e ^ 8, e ^ 24);
                let before = (occupied & !(1 << pushed_to)) | 1 << pushed_from;
                let mut kings_left = our_kings;
                let mut uncovered = false;
                while kings_left != 0 {
                    let k = msb(kings_left);
                    kings_left &= !(1 << k);
                    if core.attackers_blocked_by(us ^ 1, k, before) != 0 {
                        uncovered = true;
                        break;
                    }
                }
                if n > 1 || (msb(checkers) != pushed_to && uncovered) {
                    errors |= flag::IMPOSSIBLE_CHECK;
                }
            } else if n > 2 || (n == 2 && line(checkers.trailing_zeros() as usize, msb(checkers)) & our_kings != 0) {
                errors |= flag::IMPOSSIBLE_CHECK;
            }
        }
        errors
    }
}

impl PyBoard {
    /// Applies `change` to the board's position as python-chess holds it; the move stack goes.
    /// The board is left as it was when the result cannot be set up.
    pub(super) fn edit(&self, change: impl FnOnce(&mut Setup)) -> PyResult<()> {
        let mut st = self.st()?;
        let mut setup = setup_of(&st);
        change(&mut setup);
        *st = State::from_setup(&setup)?;
        Ok(())
    }

    /// Applies `change` as an attribute assignment does in python-chess (`board.turn = ...`):
    /// the move stack stays, and `pop` goes back past the assignment. An assignment that
    /// gives back the position before an earlier one (a turn flipped and flipped back)
    /// returns to that board, history and repetitions whole.
    pub(super) fn assign(&self, change: impl FnOnce(&mut Setup)) -> PyResult<()> {
        let mut st = self.st()?;
        let mut setup = setup_of(&st);
        change(&mut setup);
        if st.core.ply() == 0 && st.via.is_none() {
            if let Some(b) = &st.before {
                if setup_of(b) == setup {
                    let b = st.before.take().expect("checked above");
                    *st = *b;
                    return Ok(());
                }
            }
        }
        let new = State::from_setup(&setup)?;
        let mut old = std::mem::replace(&mut *st, new);
        // A board whose root came by a move (`via`) keeps it: that move is on the stack.
        st.before = if old.core.ply() > 0 || old.via.is_some() { Some(Box::new(old)) } else { old.before.take() };
        Ok(())
    }
}

/// The piece code of a Piece argument: a kibitz Piece, or anything with python-chess's
/// `symbol()` (a `chess.Piece`).
pub(super) fn piece_code(p: &Bound<'_, PyAny>) -> PyResult<u8> {
    if let Ok(kp) = p.cast::<PyPiece>() {
        return Ok(kp.get().code());
    }
    let symbol: String = p.call_method0("symbol")?.extract()?;
    piece_of_symbol(&symbol).ok_or_else(|| PyValueError::new_err(format!("not a piece symbol: {symbol:?}")))
}

/// `kibitz.Status` for the bits, one object per value (made on first use).
pub(super) fn status_flags(py: Python<'_>, bits: u32) -> PyResult<Py<PyAny>> {
    static MADE: PyOnceLock<Py<PyDict>> = PyOnceLock::new();
    static STATUS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let made = MADE.get_or_init(py, || PyDict::new(py).unbind()).bind(py);
    if let Some(flags) = made.get_item(bits)? {
        return Ok(flags.unbind());
    }
    let status = STATUS.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        Ok(py.import("kibitz._bitboards")?.getattr("Status")?.unbind())
    })?;
    let flags = status.bind(py).call1((bits,))?;
    made.set_item(bits, &flags)?;
    Ok(flags.unbind())
}
