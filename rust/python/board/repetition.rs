//! Repetitions and the move-count rules as python-chess counts them, for boards the core's
//! own history cannot answer for: a position the core cannot play (`State::unplayable`), or
//! a stack that runs back through attribute assignments or moves the core could not play
//! (`State::before`). python-chess pops its move stack back to the last irreversible move and
//! compares `_transposition_key()`s (placement, turn, clean castling rights, the en-passant
//! square when a legal capture there exists); here the same walk goes back over a copy of the
//! state, each position as the rules library's `Setup` sees it. Boards whose whole history is
//! one core's keep the core's Zobrist count (`CoreBoard::is_repetition`).

use super::setup::setup_of;
use super::State;
use crate::python::moves::SQ64;
use crate::{kind_of, Setup, SetupMove, EMPTY, KING, PAWN, WHITE};

/// A position as python-chess's `_transposition_key()` tells positions apart.
#[derive(PartialEq, Eq, Clone)]
pub(super) struct Key {
    placement: [u8; 64],
    white: bool,
    castling: u64,
    ep: Option<u8>,
}

/// `Key` of `setup` with its clean castling rights `castling`.
fn key_of(setup: &Setup, castling: u64) -> Key {
    Key {
        placement: setup.placement,
        white: setup.white_to_move,
        castling,
        ep: setup.ep.filter(|_| has_legal_ep(setup, castling)),
    }
}

/// python-chess's `has_legal_en_passant()`.
fn has_legal_ep(setup: &Setup, castling: u64) -> bool {
    let mut out = Vec::new();
    setup.moves(castling).legal_ep(u64::MAX, u64::MAX, &mut out);
    !out.is_empty()
}

/// The squares of `setup` holding pieces for which `f(code)` holds.
fn squares(setup: &Setup, f: impl Fn(u8) -> bool) -> u64 {
    setup.placement.iter().enumerate().filter(|&(_, &p)| p != EMPTY && f(p)).fold(0, |m, (s, _)| m | 1 << s)
}

/// python-chess's `is_zeroing(move)` in `setup` (a capture or a pawn move).
fn is_zeroing(setup: &Setup, m: SetupMove) -> bool {
    let touched = 1u64 << m.from ^ 1u64 << m.to;
    let white = setup.white_to_move;
    let pawns = squares(setup, |p| kind_of(p) == PAWN);
    let theirs = squares(setup, |p| (crate::color_of(p) == WHITE) != white);
    touched & (pawns | theirs) != 0
}

/// python-chess's `is_irreversible(move)` in `setup`, with its clean castling rights
/// `castling`: zeroing, taking castling rights away, or a position with a legal en-passant
/// capture.
fn is_irreversible(setup: &Setup, castling: u64, m: SetupMove) -> bool {
    if is_zeroing(setup, m) {
        return true;
    }
    let touched = 1u64 << m.from ^ 1u64 << m.to;
    const RANK_1: u64 = 0xff;
    const RANK_8: u64 = 0xff << 56;
    let king_of = |white: bool| {
        squares(setup, |p| kind_of(p) == KING && (crate::color_of(p) == WHITE) == white) & !setup.promoted
    };
    let reduces = touched & castling != 0
        || castling & RANK_1 != 0 && touched & king_of(true) != 0
        || castling & RANK_8 != 0 && touched & king_of(false) != 0;
    reduces || setup.ep.is_some() && has_legal_ep(setup, castling)
}

impl State {
    /// Whether repetitions and the move-count rules must be answered here rather than by
    /// the core's own history.
    pub(super) fn counts_beyond_core(&self) -> bool {
        self.before.is_some() || self.loose().is_some()
    }

    /// The moves of the whole stack (python-chess's `len(move_stack)`).
    fn stack_len(&self) -> usize {
        let mut n = self.core.ply();
        let mut s = self;
        while let Some(b) = &s.before {
            n += usize::from(s.via.is_some()) + b.core.ply();
            s = b;
        }
        n
    }

    /// Takes back the last move of the stack as `pop` does (without Python objects): the
    /// move as (from, to, promotion), all 0 for the null move; None for an empty stack.
    fn pop_move(&mut self) -> Option<SetupMove> {
        while self.core.ply() == 0 {
            let b = self.before.take()?;
            let chess960 = self.core.is_chess960();
            let via = self.via.take();
            *self = *b;
            if self.core.is_chess960() != chess960 {
                self.core.chess960 = chess960;
            }
            if let Some((from, to, promotion)) = via {
                return Some(SetupMove { from, to, promotion });
            }
        }
        self.cache.clear();
        let m = self.core.unmake_move()?;
        if m.is_null() {
            return Some(SetupMove { from: 0, to: 0, promotion: 0 });
        }
        let to = if m.is_castle() { self.core.uci_target(m) } else { m.to() };
        Some(SetupMove { from: SQ64[m.from()], to: SQ64[to], promotion: m.promo() })
    }

    /// This position as python-chess compares positions for repetitions.
    fn key(&self) -> Key {
        key_of(&setup_of(self), self.clean_castling_rights())
    }

    /// python-chess's `is_repetition(count)`: the position has occurred `count` times since
    /// the last irreversible move (this one included).
    pub(super) fn py_is_repetition(&self, count: usize) -> bool {
        let target = self.key();
        let mut st = self.copy_with_stack(usize::MAX);
        let mut count = count;
        loop {
            if count <= 1 {
                return true;
            }
            if st.stack_len() < count - 1 {
                return false;
            }
            let Some(m) = st.pop_move() else { return false };
            if is_irreversible(&setup_of(&st), st.clean_castling_rights(), m) {
                return false;
            }
            if st.key() == target {
                count -= 1;
            }
        }
    }

    /// The legal moves here as (from, to, promotion), in any order.
    fn legal_fields(&mut self) -> Vec<SetupMove> {
        if let Some(loose) = self.loose() {
            return loose.list(true);
        }
        self.entry()
            .index
            .iter()
            .map(|&i| {
                let (pair, slot) = (usize::from(i) / 5, i % 5);
                let promotion = if slot == 0 { 0 } else { slot as u8 + 1 };
                SetupMove { from: (pair / 64) as u8, to: (pair % 64) as u8, promotion }
            })
            .collect()
    }

    /// The position after the legal move `m` as python-chess's `push` leaves it (clean
    /// castling rights: those kept, once a move is on the stack).
    fn after(&self, m: SetupMove) -> Option<Setup> {
        let mut before = setup_of(self);
        before.castling = self.clean_castling_rights();
        before.after_move(usize::from(m.from), usize::from(m.to), m.promotion)
    }

    /// python-chess's `can_claim_threefold_repetition()`: the position has occurred three
    /// times since the last irreversible move, or a legal move makes one that has occurred
    /// twice.
    pub(super) fn py_can_claim_threefold(&mut self) -> bool {
        let target = self.key();
        let mut seen = vec![target.clone()];
        let mut st = self.copy_with_stack(usize::MAX);
        while let Some(m) = st.pop_move() {
            if is_irreversible(&setup_of(&st), st.clean_castling_rights(), m) {
                break;
            }
            seen.push(st.key());
        }
        if seen.iter().filter(|k| **k == target).count() >= 3 {
            return true;
        }
        self.legal_fields().into_iter().any(|m| {
            self.after(m).is_some_and(|after| {
                let key = key_of(&after, after.castling);
                seen.iter().filter(|k| **k == key).count() >= 2
            })
        })
    }

    /// python-chess's `_is_halfmoves(n)`: `n` half-moves without a capture or pawn move, and
    /// a legal move left.
    pub(super) fn py_is_halfmoves(&mut self, n: u32) -> bool {
        let setup = setup_of(self);
        setup.halfmove >= n && !self.legal_fields().is_empty()
    }

    /// python-chess's `can_claim_fifty_moves()`: the fifty-move rule holds now, or after a
    /// legal move that is not zeroing.
    pub(super) fn py_can_claim_fifty(&mut self) -> bool {
        if self.py_is_halfmoves(100) {
            return true;
        }
        let setup = setup_of(self);
        if setup.halfmove < 99 {
            return false;
        }
        self.legal_fields().into_iter().filter(|&m| !is_zeroing(&setup, m)).any(|m| {
            self.after(m).is_some_and(|after| after.halfmove >= 100 && after.moves(after.castling).has_legal_move())
        })
    }
}
