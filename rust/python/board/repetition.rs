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
use crate::{Setup, SetupMove, SetupMoves, KING};

/// A position as python-chess's `_transposition_key()` tells positions apart.
#[derive(PartialEq, Eq, Clone)]
pub(super) struct Key {
    placement: [u8; 64],
    white: bool,
    castling: u64,
    ep: Option<u8>,
}

/// `Key` of `setup`, whose moves with its clean castling rights are `moves`.
fn key_of(setup: &Setup, moves: &SetupMoves<'_>) -> Key {
    Key {
        placement: setup.placement,
        white: setup.white_to_move,
        castling: moves.castling(),
        ep: moves.legal_ep_square(),
    }
}

impl State {
    /// Whether the draw rules must walk the stack here rather than ask the core's history.
    fn counts_beyond_core(&self) -> bool {
        self.before.is_some() || self.loose().is_some()
    }

    /// The moves of the whole stack (python-chess's `len(move_stack)`).
    pub(super) fn stack_len(&self) -> usize {
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
        let setup = setup_of(self);
        key_of(&setup, &setup.moves(self.clean_castling_rights()))
    }

    /// For the walk back: this position's key, or None when `played` (the move made from
    /// here) is irreversible, where python-chess's count stops.
    fn key_before(&self, played: SetupMove) -> Option<Key> {
        // A drop or a promotion to a king (a variant board's move): nothing repeats past it.
        if played.promotion > KING {
            return None;
        }
        let setup = setup_of(self);
        let moves = setup.moves(self.clean_castling_rights());
        (!moves.is_irreversible(played)).then(|| key_of(&setup, &moves))
    }

    /// python-chess's `is_repetition(count)`: the position has occurred `count` times since
    /// the last irreversible move (this one included); the core's own count where the whole
    /// history is one core's.
    pub(super) fn is_repetition(&self, count: usize) -> bool {
        if !self.counts_beyond_core() {
            return self.core.is_repetition(count);
        }
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
            let Some(key) = st.key_before(m) else { return false };
            if key == target {
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

    /// python-chess's `can_claim_threefold_repetition()`: the position has occurred three
    /// times since the last irreversible move, or a legal move makes one that has occurred
    /// twice; the core's own count where the whole history is one core's.
    pub(super) fn can_claim_threefold(&mut self) -> bool {
        if !self.counts_beyond_core() {
            return self.core.can_claim_threefold_repetition();
        }
        let target = self.key();
        let mut seen = vec![target.clone()];
        let mut st = self.copy_with_stack(usize::MAX);
        while let Some(key) = st.pop_move().and_then(|m| st.key_before(m)) {
            seen.push(key);
        }
        if seen.iter().filter(|k| **k == target).count() >= 3 {
            return true;
        }
        self.legal_fields().into_iter().any(|m| {
            self.after(m).is_some_and(|after| {
                let key = key_of(&after, &after.moves(after.castling));
                seen.iter().filter(|k| **k == key).count() >= 2
            })
        })
    }

    /// python-chess's `_is_halfmoves(n)`: `n` half-moves without a capture or pawn move, and
    /// a legal move left.
    pub(super) fn is_halfmoves(&self, n: u32) -> bool {
        match self.loose() {
            None => self.core.halfmove_clock() >= n && self.core.has_legal_move(),
            Some(loose) => loose.setup.halfmove >= n && loose.moves().has_legal_move(),
        }
    }

    /// python-chess's `can_claim_fifty_moves()`: the fifty-move rule holds now, or after a
    /// legal move that is not zeroing.
    pub(super) fn can_claim_fifty(&self) -> bool {
        let Some(loose) = self.loose() else { return self.core.can_claim_fifty_moves() };
        let moves = loose.moves();
        if loose.setup.halfmove >= 100 && moves.has_legal_move() {
            return true;
        }
        if loose.setup.halfmove < 99 {
            return false;
        }
        loose.list(true).into_iter().filter(|&m| !moves.is_zeroing(m)).any(|m| {
            self.after(m).is_some_and(|after| after.halfmove >= 100 && after.moves(after.castling).has_legal_move())
        })
    }
}
