//! python-chess's view of a position as plain data, and what it is used for: board editing
//! (`set_piece_at`, `remove_piece_at`, `set_piece_map`, `clear`, `clear_board`,
//! `reset_board`), `mirror()` and `status()`.
//!
//! python-chess holds a position as placement, turn, castling rights (rook squares, usable or
//! not), en-passant square (any square) and clocks, and accepts any placement. An edit reads
//! that state from the board (`Setup::read`), changes it, and builds a new `State` from it
//! (`Setup::apply`): the core gets a FEN with only the usable rights and en-passant square,
//! the state keeps the rest, as `Board(fen)` does for a lenient FEN. The rules here are
//! python-chess's (`clean_castling_rights`, `_valid_ep_square`, `status`), checked against it
//! by the differential tests.

use super::{PyBoard, State};
use crate::python::moves::PyPiece;
use crate::{
    color_of, kind_of, make_piece, sq120, Board as CoreBoard, BISHOP, BLACK, EMPTY, KING, KNIGHT, PAWN, QUEEN, ROOK,
    WHITE,
};
use crate::{diag_attacks, ortho_attacks, KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyDict;

const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;
const SYMBOLS: &[u8; 15] = b".PNBRQK..pnbrqk";
const FILES: &[u8; 8] = b"abcdefgh";

/// A piece code from a python-chess piece symbol (`P`..`K` white, `p`..`k` black).
pub(super) fn piece_of_symbol(symbol: &str) -> Option<u8> {
    match symbol.as_bytes() {
        &[c] => SYMBOLS.iter().position(|&s| s == c && s != b'.').map(|i| i as u8),
        _ => None,
    }
}

/// The highest set square of a non-empty mask.
fn msb(mask: u64) -> usize {
    63 - mask.leading_zeros() as usize
}

/// python-chess's position state: what its `Board` stores besides the move stack.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Setup {
    /// Piece codes (or EMPTY) by square, a1 = 0.
    pub(super) placement: [u8; 64],
    pub(super) white_to_move: bool,
    /// python-chess's `castling_rights`: rook squares, usable or not.
    pub(super) castling: u64,
    /// python-chess's `ep_square`: any square, capturable or not.
    pub(super) ep: Option<u8>,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    pub(super) chess960: bool,
}

impl Setup {
    /// The board's current position as python-chess holds it.
    pub(super) fn read(st: &State) -> Setup {
        let mut placement = [EMPTY; 64];
        for (s, p) in placement.iter_mut().enumerate() {
            *p = st.core.piece_at(sq120(s % 8, s / 8));
        }
        Setup {
            placement,
            white_to_move: st.core.side_to_move() == WHITE,
            castling: st.raw_castling(),
            ep: st.ep_square_at(st.core.ply()),
            halfmove: st.core.halfmove_clock(),
            fullmove: st.core.fullmove_number(),
            chess960: st.core.is_chess960(),
        }
    }

    /// The squares holding piece code `p`.
    fn mask(&self, p: u8) -> u64 {
        self.placement.iter().enumerate().filter(|&(_, &q)| q == p).fold(0, |m, (s, _)| m | 1 << s)
    }

    /// The squares holding pieces of colour `c`.
    fn color_mask(&self, c: usize) -> u64 {
        self.placement
            .iter()
            .enumerate()
            .filter(|&(_, &q)| q != EMPTY && color_of(q) == c)
            .fold(0, |m, (s, _)| m | 1 << s)
    }

    /// python-chess's `clean_castling_rights` (of a board without move stack).
    pub(super) fn clean_castling(&self) -> u64 {
        let rooks = self.castling & (self.mask(make_piece(ROOK, WHITE)) | self.mask(make_piece(ROOK, BLACK)));
        let mut white = rooks & RANK_1 & self.color_mask(WHITE);
        let mut black = rooks & RANK_8 & self.color_mask(BLACK);
        let white_kings = self.mask(make_piece(KING, WHITE));
        let black_kings = self.mask(make_piece(KING, BLACK));
        if !self.chess960 {
            white &= 1 | 1 << 7;
            black &= 1 << 56 | 1 << 63;
            if white_kings & 1 << 4 == 0 {
                white = 0;
            }
            if black_kings & 1 << 60 == 0 {
                black = 0;
            }
            return white | black;
        }
        let mut out = 0;
        for (rights, king_mask) in [(white, white_kings & RANK_1), (black, black_kings & RANK_8)] {
            if king_mask == 0 || rights == 0 {
                continue;
            }
            let king = msb(king_mask);
            let (a_side, h_side) = (rights & rights.wrapping_neg(), 1u64 << msb(rights));
            if msb(a_side) < king {
                out |= a_side;
            }
            if msb(h_side) > king {
                out |= h_side;
            }
        }
        out
    }

    /// python-chess's `_valid_ep_square`: the en-passant square if a pawn can have just
    /// crossed it (whether or not it can be taken). Square 0 counts as none, as there.
    pub(super) fn valid_ep(&self) -> Option<u8> {
        let ep = self.ep.filter(|&e| e != 0)? as usize;
        let (rank, pawn, origin, theirs) = if self.white_to_move {
            (5, ep.checked_sub(8)?, ep + 8, make_piece(PAWN, BLACK))
        } else {
            (2, ep + 8, ep.checked_sub(8)?, make_piece(PAWN, WHITE))
        };
        if ep / 8 != rank || origin >= 64 || self.placement[pawn] != theirs {
            return None;
        }
        if self.placement[ep] != EMPTY || self.placement[origin] != EMPTY {
            return None;
        }
        Some(ep as u8)
    }

    /// The FEN's first field.
    pub(super) fn board_fen(&self) -> String {
        let mut out = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for file in 0..8 {
                let p = self.placement[rank * 8 + file];
                if p == EMPTY {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(SYMBOLS[p as usize] as char);
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The FEN the core reads: only the usable castling rights and en-passant square.
    fn core_fen(&self, clean: u64) -> String {
        let mut castling = String::new();
        if self.chess960 {
            for (rank, upper) in [(RANK_1, true), (RANK_8, false)] {
                let mut m = clean & rank;
                while m != 0 {
                    let s = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let f = FILES[s % 8] as char;
                    castling.push(if upper { f.to_ascii_uppercase() } else { f });
                }
            }
        } else {
            for (c, q) in [('K', 7), ('Q', 0), ('k', 63), ('q', 56)] {
                if clean >> q & 1 != 0 {
                    castling.push(c);
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = self.valid_ep().map_or_else(|| "-".to_string(), |e| square64_name(e as usize));
        let turn = if self.white_to_move { 'w' } else { 'b' };
        format!("{} {turn} {castling} {ep} {} {}", self.board_fen(), self.halfmove, self.fullmove)
    }

    /// The board state for this position (no move stack).
    pub(super) fn apply(&self) -> PyResult<State> {
        let clean = self.clean_castling();
        State::setup(&self.core_fen(clean), self.chess960, self.castling, clean, self.ep)
    }

    /// python-chess's `transform(f)`: every piece mask, the castling rights and the
    /// en-passant square mapped by the square-mask function `f` (a piece mapped onto an
    /// occupied square is dropped, pawns first, as python-chess's `piece_at` reads it).
    pub(super) fn transformed(&self, mut f: impl FnMut(u64) -> PyResult<u64>) -> PyResult<Setup> {
        let mut out = self.clone();
        out.placement = [EMPTY; 64];
        for kind in PAWN..=KING {
            for c in [WHITE, BLACK] {
                let p = make_piece(kind, c);
                let mut m = f(self.mask(p))?;
                while m != 0 {
                    let s = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if out.placement[s] == EMPTY {
                        out.placement[s] = p;
                    }
                }
            }
        }
        out.castling = f(self.castling)?;
        out.ep = match self.ep {
            Some(e) => Some(f(1 << e)?).filter(|&m| m != 0).map(|m| msb(m) as u8),
            None => None,
        };
        Ok(out)
    }

    /// python-chess's `mirror()`: ranks reversed, colours swapped, the other side to move;
    /// castling rights and the en-passant square flipped as they are (not cleaned).
    pub(super) fn mirrored(&self) -> Setup {
        let mut m = self.clone();
        for s in 0..64 {
            let p = self.placement[s ^ 56];
            m.placement[s] = if p == EMPTY { EMPTY } else { make_piece(kind_of(p), color_of(p) ^ 1) };
        }
        m.white_to_move = !self.white_to_move;
        m.castling = self.castling.swap_bytes();
        m.ep = self.ep.map(|e| e ^ 56);
        m
    }
}

/// The name of square `s` (a1 = 0).
fn square64_name(s: usize) -> String {
    format!("{}{}", FILES[s % 8] as char, s / 8 + 1)
}

/// python-chess's `_attackers_mask`: the pieces of colour `c` attacking square `s` (0..64)
/// when the occupied squares (the sliders' blockers) are `occ`.
fn attackers_with(core: &CoreBoard, c: usize, s: usize, occ: u64) -> u64 {
    let both = |k: u8| core.bb[make_piece(k, WHITE) as usize] | core.bb[make_piece(k, BLACK) as usize];
    let queens = both(QUEEN);
    let attackers = KING_ATTACKS[s] & both(KING)
        | KNIGHT_ATTACKS[s] & both(KNIGHT)
        | PAWN_ATTACKS[c ^ 1][s] & both(PAWN)
        | ortho_attacks(s, occ) & (both(ROOK) | queens)
        | diag_attacks(s, occ) & (both(BISHOP) | queens);
    attackers & core.occ[c]
}

/// The full line through two squares (python-chess's `ray`), 0 when they share none.
fn line(a: usize, b: usize) -> u64 {
    let (fa, ra, fb, rb) = ((a % 8) as i32, (a / 8) as i32, (b % 8) as i32, (b / 8) as i32);
    if a == b {
        return 0;
    }
    let (df, dr) = (fb - fa, rb - ra);
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return 0;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut out = 0u64;
    for dir in [1, -1] {
        let (mut f, mut r) = (fa, ra);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            out |= 1 << (r * 8 + f);
            f += dir * sf;
            r += dir * sr;
        }
    }
    out
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
            Setup::read(self).clean_castling()
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
                    if attackers_with(core, us ^ 1, k, before) != 0 {
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

impl Setup {
    /// The position after `from`-`to` (promotion kind `promo`, 0 for none; all zero for the
    /// null move) as python-chess's `push` makes it, for a move that is pseudo-legal but not
    /// legal (it leaves the own king attacked) or a move in a position kibitz cannot play.
    /// Castling is the king onto its own rook, or e1g1 / e1c1 (e8g8 / e8c8) with the king on
    /// e1 (e8) and no rook on the target; the clocks, castling rights and en-passant square
    /// follow python-chess's rules. None when no piece of the side to move is on `from`.
    pub(super) fn after_move(&self, from: usize, mut to: usize, promo: u8) -> Option<Setup> {
        let mut s = self.clone();
        let us = if self.white_to_move { WHITE } else { BLACK };
        let ep = s.ep.take();
        s.halfmove += 1;
        if !self.white_to_move {
            s.fullmove += 1;
        }
        s.white_to_move = !self.white_to_move;
        if from == 0 && to == 0 && promo == 0 {
            return Some(s);
        }
        let piece = self.placement[from];
        if piece == EMPTY || color_of(piece) != us {
            return None;
        }
        let kind = kind_of(piece);
        let home = if us == WHITE { 0 } else { 56 };
        let own_rook = make_piece(ROOK, us);
        // Standard-chess castling written as the king's two-square step.
        if kind == KING && from == home + 4 && (to == home + 6 || to == home + 2) && self.placement[to] != own_rook {
            to = if to == home + 6 { home + 7 } else { home };
        }
        let target = self.placement[to];
        let castling = kind == KING && target != EMPTY && color_of(target) == us;
        if kind == PAWN || (target != EMPTY && !castling) {
            s.halfmove = 0;
        }
        s.castling &= !(1u64 << to) & !(1u64 << from);
        if kind == KING {
            s.castling &= !(if us == WHITE { RANK_1 } else { RANK_8 });
        } else if target != EMPTY && kind_of(target) == KING && color_of(target) != us {
            // python-chess: taking a king on its back rank takes its side's rights.
            if us == WHITE && to / 8 == 7 {
                s.castling &= !RANK_8;
            } else if us == BLACK && to / 8 == 0 {
                s.castling &= !RANK_1;
            }
        }
        s.placement[from] = EMPTY;
        let mut put = piece;
        if kind == PAWN {
            let diff = to as i32 - from as i32;
            if diff == 16 && from / 8 == 1 {
                s.ep = Some(from as u8 + 8);
            } else if diff == -16 && from / 8 == 6 {
                s.ep = Some(from as u8 - 8);
            } else if Some(to as u8) == ep && (diff.abs() == 7 || diff.abs() == 9) && target == EMPTY {
                let taken = if us == WHITE { to - 8 } else { to + 8 };
                s.placement[taken] = EMPTY;
            }
        }
        if promo != 0 {
            put = make_piece(promo, us);
        }
        if castling {
            s.placement[to] = EMPTY;
            let a_side = to % 8 < from % 8;
            let (king_to, rook_to) = if a_side { (home + 2, home + 3) } else { (home + 6, home + 5) };
            s.placement[king_to] = piece;
            s.placement[rook_to] = own_rook;
        } else {
            s.placement[to] = put;
        }
        Some(s)
    }
}

impl PyBoard {
    /// Applies `change` to the board's position as python-chess holds it; the move stack goes.
    /// The board is left as it was when the result cannot be set up.
    pub(super) fn edit(&self, change: impl FnOnce(&mut Setup)) -> PyResult<()> {
        let mut st = self.st()?;
        let mut setup = Setup::read(&st);
        change(&mut setup);
        *st = setup.apply()?;
        Ok(())
    }

    /// Applies `change` as an attribute assignment does in python-chess (`board.turn = ...`):
    /// the move stack stays, and `pop` goes back past the assignment. An assignment that
    /// gives back the position before an earlier one (a turn flipped and flipped back)
    /// returns to that board, history and repetitions whole.
    pub(super) fn assign(&self, change: impl FnOnce(&mut Setup)) -> PyResult<()> {
        let mut st = self.st()?;
        let mut setup = Setup::read(&st);
        change(&mut setup);
        if st.core.ply() == 0 && st.via.is_none() {
            if let Some(b) = &st.before {
                if Setup::read(b) == setup {
                    let b = st.before.take().expect("checked above");
                    *st = *b;
                    return Ok(());
                }
            }
        }
        let new = setup.apply()?;
        let mut old = std::mem::replace(&mut *st, new);
        // A board whose root came by a move (`via`) keeps it: that move is on the stack.
        st.before = if old.core.ply() > 0 || old.via.is_some() { Some(Box::new(old)) } else { old.before.take() };
        Ok(())
    }
}

impl State {
    /// `push` of a move the core cannot play, as python-chess plays it: a pseudo-legal move
    /// that leaves the own king attacked, the null move in check, or a move of one's own
    /// piece in a position kibitz cannot play (python-chess trusts its caller there). The
    /// position after it is set up from python-chess's rules (`Setup::after_move`) and the
    /// board before it kept (`before`, with the move as `via`): `pop` goes back to it. Err
    /// (`refused`, the error the legal push gave) for anything else.
    pub(super) fn push_lenient(&mut self, fields: Option<(u8, u8, u8)>, refused: PyErr) -> PyResult<()> {
        let Some((from, to, promo)) = fields else { return Err(refused) };
        if promo == PAWN || promo == KING {
            return Err(refused);
        }
        let null = from == 0 && to == 0 && promo == 0;
        if self.unplayable.is_none() && !null {
            let index = super::move_index(from as usize, to as usize, promo);
            if !self.pseudo_indexes().contains(&index) {
                return Err(refused);
            }
        }
        let Some(setup) = Setup::read(self).after_move(from as usize, to as usize, promo) else {
            return Err(refused);
        };
        let new = setup.apply()?;
        let old = std::mem::replace(self, new);
        self.before = Some(Box::new(old));
        self.via = Some((from, to, promo));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_is_the_whole_line_through_two_squares() {
        // a1 and c3 lie on the long diagonal a1-h8.
        let diag: u64 = (0..8).fold(0, |m, i| m | 1 << (i * 9));
        assert_eq!(line(0, 18), diag);
        assert_eq!(line(18, 0), diag);
        assert_eq!(line(0, 1), 0xff);
        assert_eq!(line(0, 17), 0); // a1-b3: a knight's step
        assert_eq!(line(5, 5), 0);
    }

    #[test]
    fn symbols_map_to_piece_codes_and_back() {
        for s in ["P", "N", "B", "R", "Q", "K", "p", "n", "b", "r", "q", "k"] {
            let p = piece_of_symbol(s).expect("a piece symbol");
            assert_eq!(SYMBOLS[p as usize] as char, s.chars().next().unwrap());
        }
        assert_eq!(piece_of_symbol("."), None);
        assert_eq!(piece_of_symbol("x"), None);
        assert_eq!(piece_of_symbol("PP"), None);
    }
}
