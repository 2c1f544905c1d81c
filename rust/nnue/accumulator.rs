//! The first layer's outputs: one accumulator per perspective, computed from scratch
//! (`Accumulator::refresh`) or derived from the previous ply's by the few weight rows a move
//! adds and removes (`AccumulatorStack::push`), as in
//! <https://www.chessprogramming.org/NNUE#Efficient_Updates>.

use super::network::Network;
use super::simd::{self, Lanes};
use super::{feature, feature64};
use crate::board::Board;
use crate::types::*;

/// The two perspectives' accumulators of one position (white's half, then black's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    lanes: Vec<Lanes>,
}

impl Accumulator {
    /// An all-zero accumulator sized for `net` (to be refreshed before use).
    pub fn new(net: &Network) -> Accumulator {
        Accumulator { lanes: vec![Lanes::default(); 2 * net.blocks()] }
    }

    /// The accumulator of `board`, computed from scratch.
    pub fn from_board(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator::new(net);
        acc.refresh(net, board);
        acc
    }

    /// Recomputes both perspectives from scratch: the biases plus the row of every piece on
    /// the board (read from the bitboards).
    pub fn refresh(&mut self, net: &Network, board: &Board) {
        let n = net.blocks();
        self.lanes.resize(2 * n, Lanes::default());
        let (white, black) = self.lanes.split_at_mut(n);
        white.copy_from_slice(net.biases());
        black.copy_from_slice(net.biases());
        for piece in (1..=6).chain(9..=14) {
            let mut bits = board.bb[piece as usize];
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                simd::apply(net.simd(), white, [net.row(feature64(WHITE, piece, s))], []);
                simd::apply(net.simd(), black, [net.row(feature64(BLACK, piece, s))], []);
            }
        }
    }

    /// Adds and removes pieces, given as (piece code, mailbox cell) pairs: the general
    /// incremental update, for callers that know the changes themselves.
    pub fn update(&mut self, net: &Network, added: &[(u8, Square)], removed: &[(u8, Square)]) {
        let n = net.blocks();
        let (white, black) = self.lanes.split_at_mut(n);
        for (half, perspective) in [(white, WHITE), (black, BLACK)] {
            for &(piece, sq) in added {
                simd::apply(net.simd(), half, [net.row(feature(perspective, piece, sq))], []);
            }
            for &(piece, sq) in removed {
                simd::apply(net.simd(), half, [], [net.row(feature(perspective, piece, sq))]);
            }
        }
    }

    /// Neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.lanes.len() / 2 * simd::LANES
    }

    /// The accumulator values of one perspective.
    pub fn values(&self, perspective: Color) -> Vec<i16> {
        self.half(perspective).iter().flat_map(|l| l.0).collect()
    }

    /// The blocks of one perspective.
    #[inline(always)]
    pub(crate) fn half(&self, perspective: Color) -> &[Lanes] {
        let n = self.lanes.len() / 2;
        &self.lanes[(perspective & 1) * n..(perspective & 1) * n + n]
    }
}

/// Accumulators along the line the search is playing: `push` after each `make_move` (given
/// the board from before the move), `pop` after each `unmake_move`. Each ply copies its
/// parent and applies the move's two to four row changes in one pass; entries are kept
/// allocated, so pushes never allocate once a depth has been reached.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    entries: Vec<Accumulator>,
    top: usize,
}

/// Initial entries: a search line rarely exceeds this many plies; deeper lines grow the stack.
const INITIAL_PLIES: usize = 128;

impl AccumulatorStack {
    /// A stack whose root is `board` (computed from scratch).
    pub fn new(net: &Network, board: &Board) -> AccumulatorStack {
        let mut entries = vec![Accumulator::new(net); INITIAL_PLIES];
        entries[0].refresh(net, board);
        AccumulatorStack { entries, top: 0 }
    }

    /// Drops every ply and recomputes the root from `board` (a new position or a new net).
    pub fn reset(&mut self, net: &Network, board: &Board) {
        self.top = 0;
        for e in &mut self.entries {
            if e.lanes.len() != 2 * net.blocks() {
                *e = Accumulator::new(net);
            }
        }
        self.entries[0].refresh(net, board);
    }

    /// The accumulator of the current position.
    #[inline(always)]
    pub fn current(&self) -> &Accumulator {
        &self.entries[self.top]
    }

    /// Plies pushed above the root.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// The current position's evaluation for `side_to_move` (see `Network::evaluate`).
    #[inline]
    pub fn evaluate(&self, net: &Network, side_to_move: Color) -> i32 {
        net.evaluate(self.current(), side_to_move)
    }

    /// Adds the accumulator of the position after `m`. `before` is the board *before* `m`
    /// was made, and `m` must be a legal move of it (or `Move::NULL` for a null move); the
    /// changes are read from it: the moving piece, the captured piece (en passant included),
    /// the promotion piece, and for castling the king's and the rook's two squares each
    /// (in Chess960 a square may be both an origin and a destination: the row is then
    /// added and removed, which cancels exactly).
    pub fn push(&mut self, net: &Network, before: &Board, m: Move) {
        if self.top + 1 == self.entries.len() {
            self.entries.push(Accumulator::new(net));
        }
        let (done, rest) = self.entries.split_at_mut(self.top + 1);
        let parent = &done[self.top];
        let child = &mut rest[0];
        self.top += 1;
        let n = net.blocks();
        let path = net.simd();
        if m.is_null() {
            child.lanes.copy_from_slice(&parent.lanes);
            return;
        }
        let us = before.side_to_move();
        let from = m.from();
        let to = m.to();
        let piece = before.piece_at(from);
        let (src_w, src_b) = parent.lanes.split_at(n);
        let (dst_w, dst_b) = child.lanes.split_at_mut(n);
        let halves = [(dst_w, src_w, WHITE), (dst_b, src_b, BLACK)];
        if m.is_castle() {
            let rook = make_piece(ROOK, us);
            let rook_from = before.castling_rook(m);
            let rook_to = if file_of(to) == 6 { to - 1 } else { to + 1 };
            for (dst, src, p) in halves {
                let adds = [net.row(feature(p, piece, to)), net.row(feature(p, rook, rook_to))];
                let subs = [net.row(feature(p, piece, from)), net.row(feature(p, rook, rook_from))];
                simd::update(path, dst, src, adds, subs);
            }
            return;
        }
        let placed = if m.is_promotion() { make_piece(m.promo(), us) } else { piece };
        let capsq = if m.is_en_passant() { (to as isize - pawn_push(us)) as Square } else { to };
        let captured = before.piece_at(capsq);
        for (dst, src, p) in halves {
            let add = net.row(feature(p, placed, to));
            let sub = net.row(feature(p, piece, from));
            if captured == EMPTY {
                simd::update(path, dst, src, [add], [sub]);
            } else {
                simd::update(path, dst, src, [add], [sub, net.row(feature(p, captured, capsq))]);
            }
        }
    }

    /// Returns to the previous ply's accumulator (after `unmake_move` / `unmake_null`).
    /// At the root it does nothing.
    #[inline(always)]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "AccumulatorStack::pop at the root");
        self.top = self.top.saturating_sub(1);
    }
}
