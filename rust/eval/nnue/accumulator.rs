//! The first layer's outputs: one accumulator per perspective, computed from scratch
//! (`Accumulator::refresh`) or derived from the previous ply's by the few weight rows a move
//! adds and removes (`AccumulatorStack::push`), as in
//! <https://www.chessprogramming.org/NNUE#Efficient_Updates>.

use super::features::View;
use super::network::Network;
use super::simd::{self, Lanes};
use crate::chess::board::Board;
use crate::chess::geometry::SQ64;
use crate::chess::types::*;

/// The two perspectives' accumulators of one position (white's half, then black's), with
/// the view each was computed in (the own king's bucket and flip; see `features.rs`) and
/// the number of pieces on the board (which picks the output bucket).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    lanes: Vec<Lanes>,
    views: [View; 2],
    pieces: u8,
}

impl Accumulator {
    /// An all-zero accumulator sized for `net` (to be refreshed before use).
    pub fn new(net: &Network) -> Accumulator {
        // The views of a net without buckets, which never change; a net with buckets sets
        // them at each refresh and push.
        Accumulator {
            lanes: vec![Lanes::default(); 2 * net.blocks()],
            views: [View::plain(WHITE), View::plain(BLACK)],
            pieces: 0,
        }
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
        self.lanes.resize(2 * net.blocks(), Lanes::default());
        self.refresh_half(net, board, WHITE);
        self.refresh_half(net, board, BLACK);
    }

    /// Recomputes one perspective from scratch, in its view of `board`.
    fn refresh_half(&mut self, net: &Network, board: &Board, perspective: Color) {
        let n = net.blocks();
        let view = net.view(board, perspective);
        self.views[perspective & 1] = view;
        self.pieces = (board.occ[0] | board.occ[1]).count_ones() as u8;
        let half = &mut self.lanes[(perspective & 1) * n..(perspective & 1) * n + n];
        half.copy_from_slice(net.biases());
        for piece in (1..=6).chain(9..=14) {
            let mut bits = board.bb[piece as usize];
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                simd::apply(net.simd(), half, [net.row(view.feature64(perspective, piece, s))], []);
            }
        }
    }

    /// Adds and removes pieces, given as (piece code, mailbox cell) pairs: the general
    /// incremental update, for callers that know the changes themselves. With a net with
    /// king buckets, a king that lands where its side's view changes (another bucket or the
    /// other half of the board when mirrored) cannot be added row by row: then nothing is
    /// changed and the answer is false (call `refresh` with the new board).
    pub fn update(&mut self, net: &Network, added: &[(u8, Square)], removed: &[(u8, Square)]) -> bool {
        for &(piece, sq) in added {
            let p = color_of(piece);
            if kind_of(piece) == KING && View::of(net.king_buckets(), p, SQ64[sq] as usize) != self.views[p & 1] {
                return false;
            }
        }
        let n = net.blocks();
        let views = self.views;
        let (white, black) = self.lanes.split_at_mut(n);
        for (half, perspective) in [(white, WHITE), (black, BLACK)] {
            let view = views[perspective & 1];
            for &(piece, sq) in added {
                simd::apply(net.simd(), half, [net.row(view.feature(perspective, piece, sq))], []);
            }
            for &(piece, sq) in removed {
                simd::apply(net.simd(), half, [], [net.row(view.feature(perspective, piece, sq))]);
            }
        }
        self.pieces = (self.pieces as usize + added.len()).saturating_sub(removed.len()) as u8;
        true
    }

    /// The number of pieces on the board of this accumulator.
    pub fn pieces(&self) -> u32 {
        self.pieces as u32
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

impl Network {
    /// The evaluation of the position whose accumulators are `acc`, in centipawns from the
    /// point of view of `side_to_move` (the output layer, `Network::output`, over the side
    /// to move's half and the other). Written here, beside the accumulator it reads, so
    /// that the network's file does not depend on the accumulator's. Panics if `acc` was
    /// built for a different hidden size.
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        self.output(acc.half(side_to_move), acc.half(side_to_move ^ 1), self.output_bucket(acc.pieces as u32))
    }
}

/// Accumulators along the line the search is playing: `push_made` right after each
/// `make_move` / `make_null` (or `push` with the board from before the move), `pop` after
/// each `unmake_move` / `unmake_null`, `current` / `evaluate` when the evaluation is needed.
///
/// Lazy: a push only records which pieces the move adds and removes (a few bytes); the
/// first `current` at a ply writes each missing ply as its parent plus the move's two to
/// four weight rows, in one pass per perspective, from the nearest computed ancestor up.
/// Plies the search leaves without evaluating (cut-offs, table hits) cost no vector work,
/// and plies it evaluates cost one copy-and-update each, as an eager stack would. Entries
/// stay allocated, so pushes never allocate once a depth has been reached.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    /// Each ply's accumulator; its views are set when the ply is pushed, its values when
    /// they are first needed.
    entries: Vec<Accumulator>,
    /// The move into each ply (entry 0's is unused).
    deltas: Vec<Delta>,
    /// Whether each ply's two halves are up to date (the root's always are). A half whose
    /// view a king's move changed (nets with king buckets) is computed from the board when
    /// the move is pushed, the other half later from its parent.
    computed: Vec<[bool; 2]>,
    top: usize,
}

/// Initial entries: a search line rarely exceeds this many plies; deeper lines grow the stack.
const INITIAL_PLIES: usize = 128;

impl AccumulatorStack {
    /// A stack whose root is `board` (computed from scratch).
    pub fn new(net: &Network, board: &Board) -> AccumulatorStack {
        let mut stack = AccumulatorStack {
            entries: vec![Accumulator::new(net); INITIAL_PLIES],
            deltas: vec![Delta::NONE; INITIAL_PLIES],
            computed: vec![[false; 2]; INITIAL_PLIES],
            top: 0,
        };
        stack.reset(net, board);
        stack
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
        self.computed[0] = [true; 2];
    }

    /// The accumulator of the current position, brought up to date first if needed.
    /// `net` must be the network the stack was built (or last reset) with.
    #[inline]
    pub fn current(&mut self, net: &Network) -> &Accumulator {
        if self.computed[self.top] != [true; 2] {
            self.materialise(net);
        }
        &self.entries[self.top]
    }

    /// Plies pushed above the root.
    pub fn depth(&self) -> usize {
        self.top
    }

    /// The current position's evaluation for `side_to_move` (see `Network::evaluate`).
    #[inline]
    pub fn evaluate(&mut self, net: &Network, side_to_move: Color) -> i32 {
        let acc = self.current(net);
        net.evaluate(acc, side_to_move)
    }

    /// Computes every ply from the nearest fully computed ancestor up to the top, each half
    /// not yet computed from its parent's.
    fn materialise(&mut self, net: &Network) {
        let mut first = self.top;
        while self.computed[first - 1] != [true; 2] {
            first -= 1;
        }
        for ply in first..=self.top {
            let (done, rest) = self.entries.split_at_mut(ply);
            for perspective in [WHITE, BLACK] {
                if !self.computed[ply][perspective & 1] {
                    apply_delta(net, &done[ply - 1], &mut rest[0], &self.deltas[ply], perspective);
                }
            }
            self.computed[ply] = [true; 2];
        }
    }

    /// Adds the accumulator of the position after `m`. `before` is the board *before* `m`
    /// was made, and `m` must be a legal move of it (or `Move::NULL` for a null move); the
    /// changes are read from it: the moving piece, the captured piece (en passant included),
    /// the promotion piece, and for castling the king's and the rook's two squares each.
    pub fn push(&mut self, net: &Network, before: &Board, m: Move) {
        if m.is_null() {
            self.push_delta(net, &Delta::NONE, || None);
            return;
        }
        let us = before.side_to_move();
        let piece = before.piece_at(m.from());
        let delta = if m.is_castle() {
            Delta::castle(us, m, before.castling_rook(m))
        } else {
            let placed = if m.is_promotion() { make_piece(m.promo(), us) } else { piece };
            let capsq = capture_square(us, m);
            Delta::plain(m, piece, placed, before.piece_at(capsq), capsq)
        };
        self.push_delta(net, &delta, || {
            let mut after = before.clone();
            after.make_move(m);
            Some(after)
        });
    }

    /// Adds the accumulator of `after`, the board just after its last `make_move` or
    /// `make_null`: the changes are read from the move and the undo record that `make_move`
    /// left on top of the board's history, so the search can call it right after making the
    /// move. A board without history (a caller bug) repeats the current accumulator.
    pub fn push_made(&mut self, net: &Network, after: &Board) {
        let Some(undo) = after.history.last() else {
            debug_assert!(false, "push_made on a board without history");
            self.push_delta(net, &Delta::NONE, || None);
            return;
        };
        let m = undo.mv;
        if m.is_null() {
            self.push_delta(net, &Delta::NONE, || None);
            return;
        }
        let us = after.side_to_move() ^ 1;
        let placed = after.piece_at(m.to());
        let delta = if m.is_castle() {
            let kingside = file_of(m.to()) == 6;
            let rook_from = after.castle_rook[2 * us + if kingside { 0 } else { 1 }] as Square;
            Delta::castle(us, m, rook_from)
        } else {
            let piece = if m.is_promotion() { make_piece(PAWN, us) } else { placed };
            Delta::plain(m, piece, placed, undo.captured, capture_square(us, m))
        };
        self.push_delta(net, &delta, || Some(after.clone()));
    }

    /// Records the next ply as the current one plus `delta` (computed when first needed).
    /// With king buckets, a king's move that changes its side's view has that half computed
    /// now, from the board after the move (`after`, asked for only then).
    #[inline]
    fn push_delta(&mut self, net: &Network, delta: &Delta, after: impl FnOnce() -> Option<Board>) {
        self.top += 1;
        if self.top == self.entries.len() {
            self.entries.push(Accumulator::new(net));
            self.deltas.push(Delta::NONE);
            self.computed.push([false; 2]);
        }
        self.deltas[self.top] = *delta;
        self.computed[self.top] = [false; 2];
        if !net.has_buckets() {
            return; // the views never change (`apply_delta` does not read them)
        }
        let views = self.entries[self.top - 1].views;
        self.entries[self.top].views = views;
        if delta.subs > 0 && kind_of(delta.sub[0].0) == KING {
            // The king leaves `sub[0]` and lands on `add[0]` (castling included).
            let (king, to) = delta.add[0];
            let p = color_of(king);
            if View::of(net.king_buckets(), p, SQ64[to] as usize) != views[p & 1] {
                if let Some(board) = after() {
                    self.entries[self.top].refresh_half(net, &board, p);
                    self.computed[self.top][p & 1] = true;
                }
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

/// Writes `perspective`'s half of `child` as the parent's plus `delta`, in one pass, in the
/// child's view (the parent's, unless a king's move changed it, and then this half was
/// computed from the board instead). In Chess960 a castling square may be both an origin
/// and a destination: its row is then added and removed, which cancels exactly.
#[inline]
fn apply_delta(net: &Network, parent: &Accumulator, child: &mut Accumulator, delta: &Delta, perspective: Color) {
    let n = net.blocks();
    let path = net.simd();
    let at = (perspective & 1) * n;
    let src = &parent.lanes[at..at + n];
    let view = if net.has_buckets() { child.views[perspective & 1] } else { View::plain(perspective) };
    child.pieces = parent.pieces + delta.adds - delta.subs;
    let dst = &mut child.lanes[at..at + n];
    let row = |(piece, sq): (u8, Square)| net.row(view.feature(perspective, piece, sq));
    let [a0, a1] = delta.add;
    let [s0, s1] = delta.sub;
    match (delta.adds, delta.subs) {
        (1, 1) => simd::update(path, dst, src, [row(a0)], [row(s0)]),
        (1, 2) => simd::update(path, dst, src, [row(a0)], [row(s0), row(s1)]),
        (2, 2) => simd::update(path, dst, src, [row(a0), row(a1)], [row(s0), row(s1)]),
        _ => dst.copy_from_slice(src),
    }
}

/// The square of the piece a move captures (the passed pawn's for en passant).
#[inline(always)]
fn capture_square(us: Color, m: Move) -> Square {
    if m.is_en_passant() {
        (m.to() as isize - pawn_push(us)) as Square
    } else {
        m.to()
    }
}

/// The pieces a move takes off the board and puts on it, as (piece code, cell) pairs:
/// 1 added and 1 removed for a quiet move, 1 and 2 for a capture, 2 and 2 for castling,
/// none for a null move.
#[derive(Clone, Copy, Debug)]
struct Delta {
    add: [(u8, Square); 2],
    sub: [(u8, Square); 2],
    adds: u8,
    subs: u8,
}

impl Delta {
    const NONE: Delta = Delta { add: [(EMPTY, 0); 2], sub: [(EMPTY, 0); 2], adds: 0, subs: 0 };

    /// Castling of `us` with the rook from `rook_from` (the king's move is `m`).
    #[inline(always)]
    fn castle(us: Color, m: Move, rook_from: Square) -> Delta {
        let (king, rook) = (make_piece(KING, us), make_piece(ROOK, us));
        let to = m.to();
        let rook_to = if file_of(to) == 6 { to - 1 } else { to + 1 };
        Delta { add: [(king, to), (rook, rook_to)], sub: [(king, m.from()), (rook, rook_from)], adds: 2, subs: 2 }
    }

    /// Any other move: `piece` leaves `m.from()`, `placed` (the promotion piece or `piece`)
    /// arrives on `m.to()`, and `captured` (or EMPTY) leaves `capsq`.
    #[inline(always)]
    fn plain(m: Move, piece: u8, placed: u8, captured: u8, capsq: Square) -> Delta {
        Delta {
            add: [(placed, m.to()), (EMPTY, 0)],
            sub: [(piece, m.from()), (captured, capsq)],
            adds: 1,
            subs: if captured == EMPTY { 1 } else { 2 },
        }
    }
}
