//! python-chess's move order. Code written for python-chess often keeps the first of equal
//! moves (a negamax that replaces its best move only on a strictly better score, a move
//! picker, `next(iter(board.legal_moves))`), so the order of `legal_moves` and its relatives
//! is part of the answer. The core generator walks its piece lists; the Python board lists the
//! same moves in the order python-chess yields them:
//!
//! 1. in check, the king's moves, by target square from h8 down to a1;
//! 2. the moves of the other pieces that are not pawns (the king's too when not in check), by
//!    origin square from h8 down, each piece's targets from h8 down;
//! 3. castling, the rook farther up the board first (h-side before a-side);
//! 4. pawn captures, by origin square from h8 down, then target from h8 down, promotions as
//!    queen, rook, bishop, knight;
//! 5. single pawn pushes, by target square from h8 down (promotions as above);
//! 6. double pawn pushes, by target square from h8 down;
//! 7. en-passant captures, by origin square from h8 down.
//!
//! The legal moves are put in this order as they are generated: `Filed` is a sink of the
//! core generator that files each move by its kind into square sets, which are read back
//! from h8 down. The pseudo-legal moves (rarely asked for) are sorted by a key, unique per
//! move of a position, so an unstable sort gives the one order.

use super::super::moves::{core_index, move_index, SQ64};
use crate::{kind_of, Board as CoreBoard, Move, MoveKind, MoveList, MoveSink, EMPTY, KNIGHT, PAWN, QUEEN};

/// The sort key of `m` (a pseudo-legal move of `board`'s side to move) in python-chess's
/// order, 17 bits.
#[inline]
fn key(board: &CoreBoard, m: Move) -> u32 {
    let down = |sq: usize| 63 - u32::from(SQ64[sq]);
    // Queen, rook, bishop, knight (kinds 5, 4, 3, 2) as 0..3; 0 without a promotion.
    let promo = if m.is_promotion() { 5 - u32::from(m.promo()) } else { 0 };
    let (group, a, b) = if m.is_castle() {
        (2, down(board.castling_rook(m)), 0)
    } else {
        match kind_of(board.piece_at(m.from())) {
            PAWN if m.is_en_passant() => (6, down(m.from()), 0),
            PAWN if m.is_double_push() => (5, down(m.to()), 0),
            PAWN if board.piece_at(m.to()) != EMPTY => (3, down(m.from()), down(m.to())),
            PAWN => (4, down(m.to()), 0),
            _ => (1, down(m.from()), down(m.to())),
        }
    };
    group << 14 | a << 8 | b << 2 | promo
}

/// The legal moves of `board` in python-chess's order, with their table indexes, written over
/// `moves` and `index`.
pub(super) fn legal_in_order(board: &CoreBoard, moves: &mut Vec<Move>, index: &mut Vec<u16>) {
    let mut filed = Filed::default();
    board.generate_legal_into(&mut filed);
    filed.read_back(board, moves, index);
}

/// The pseudo-legal moves of `board` in python-chess's order of pseudo-legal moves, with their
/// table indexes, written over `moves` and `index`.
pub(super) fn pseudo_legal_in_order(board: &CoreBoard, moves: &mut Vec<Move>, index: &mut Vec<u16>) {
    let mut ml = MoveList::new();
    board.generate_pseudo_legal(&mut ml);
    // Key (17 bits), table index (16) and move (23) in one u64, sorted by the key.
    let mut keyed: Vec<u64> = ml
        .iter()
        .map(|&m| u64::from(key(board, m)) << 40 | u64::from(core_index(board, m)) << 24 | u64::from(m.0))
        .collect();
    keyed.sort_unstable();
    moves.clear();
    index.clear();
    for k in keyed {
        moves.push(Move((k & 0xff_ffff) as u32));
        index.push((k >> 24) as u16);
    }
}

/// A position's legal moves as the generator hands them over, filed by kind into square
/// sets (squares 0..64, a1 = 0): a move of a piece or a pawn's capture by its origin, with
/// its target in that origin's target set; a pawn's push by its target alone (the origin
/// follows). Castling and en passant, two at most each, are kept as moves.
struct Filed {
    /// The king's targets (castling apart).
    king: u64,
    /// Origins of the other pieces' moves, and of pawn captures.
    pieces: u64,
    captures: u64,
    /// Targets by origin square.
    targets: [u64; 64],
    singles: u64,
    doubles: u64,
    castles: [Move; 2],
    eps: [Move; 2],
    castle_count: usize,
    ep_count: usize,
}

impl Default for Filed {
    fn default() -> Filed {
        Filed {
            king: 0,
            pieces: 0,
            captures: 0,
            targets: [0; 64],
            singles: 0,
            doubles: 0,
            castles: [Move::NULL; 2],
            eps: [Move::NULL; 2],
            castle_count: 0,
            ep_count: 0,
        }
    }
}

/// A mailbox cell's square 0..64 (the mask keeps the index provably in range).
#[inline(always)]
fn sq(cell: usize) -> usize {
    usize::from(SQ64[cell]) & 63
}

/// The mailbox cell of square `s` (0..64).
#[inline(always)]
fn cell(s: usize) -> usize {
    21 + (s & 7) + 10 * (s >> 3)
}

/// The highest square of a non-empty set.
#[inline(always)]
fn top(set: u64) -> usize {
    63 - set.leading_zeros() as usize
}

impl MoveSink for Filed {
    #[inline(always)]
    fn add(&mut self, m: Move, kind: MoveKind) {
        let (from, to) = (sq(m.from()), sq(m.to()));
        match kind {
            MoveKind::King => self.king |= 1 << to,
            MoveKind::Piece => {
                self.pieces |= 1 << from;
                self.targets[from] |= 1 << to;
            }
            // A promotion comes four times (one per piece); filing it again changes nothing,
            // and the read-back gives all four.
            MoveKind::PawnCapture => {
                self.captures |= 1 << from;
                self.targets[from] |= 1 << to;
            }
            MoveKind::PawnPush => self.singles |= 1 << to,
            MoveKind::DoublePush => self.doubles |= 1 << to,
            MoveKind::Castle => {
                self.castles[self.castle_count & 1] = m;
                self.castle_count += 1;
            }
            MoveKind::EnPassant => {
                self.eps[self.ep_count & 1] = m;
                self.ep_count += 1;
            }
        }
    }
}

/// Appends the moves from square `from` to each square of `targets`, highest target first; a
/// pawn's move to the last rank as a promotion to each of queen, rook, bishop and knight, in
/// that order (all four are legal when one is).
#[inline(always)]
fn from_to(moves: &mut Vec<Move>, index: &mut Vec<u16>, from: usize, mut targets: u64, pawn: bool) {
    while targets != 0 {
        let to = top(targets);
        targets ^= 1 << to;
        if pawn && !(8..56).contains(&to) {
            for kind in (KNIGHT..=QUEEN).rev() {
                moves.push(Move::promotion(cell(from), cell(to), kind));
                index.push(move_index(from, to, kind));
            }
        } else {
            moves.push(Move::new(cell(from), cell(to)));
            index.push(move_index(from, to, 0));
        }
    }
}

impl Filed {
    /// Writes the filed moves over `moves` and `index` in python-chess's order (the module
    /// comment), leaving the target sets empty.
    fn read_back(mut self, board: &CoreBoard, moves: &mut Vec<Move>, index: &mut Vec<u16>) {
        moves.clear();
        index.clear();
        let us = board.side_to_move();
        if self.king != 0 {
            let king = sq(board.king_square(us));
            if board.in_check() {
                from_to(moves, index, king, self.king, false);
            } else {
                self.pieces |= 1 << king;
                self.targets[king] = self.king;
            }
        }
        let mut origins = self.pieces;
        while origins != 0 {
            let from = top(origins);
            origins ^= 1 << from;
            from_to(moves, index, from, std::mem::take(&mut self.targets[from]), false);
        }
        // The rook farther up the board first.
        let castles = &mut self.castles[..self.castle_count];
        if castles.len() == 2 && board.castling_rook(castles[1]) > board.castling_rook(castles[0]) {
            castles.swap(0, 1);
        }
        for &m in castles.iter() {
            moves.push(m);
            index.push(core_index(board, m));
        }
        let mut origins = self.captures;
        while origins != 0 {
            let from = top(origins);
            origins ^= 1 << from;
            from_to(moves, index, from, std::mem::take(&mut self.targets[from]), true);
        }
        // A push goes 8 squares up for White, down for Black (16 for a double push).
        let white = us == crate::WHITE;
        let mut set = self.singles;
        while set != 0 {
            let to = top(set);
            set ^= 1 << to;
            from_to(moves, index, if white { to - 8 } else { to + 8 }, 1 << to, true);
        }
        let mut set = self.doubles;
        while set != 0 {
            let to = top(set);
            set ^= 1 << to;
            let from = if white { to - 16 } else { to + 16 };
            moves.push(Move::with_flags(cell(from), cell(to), Move::DOUBLE_PUSH));
            index.push(move_index(from, to, 0));
        }
        let eps = &mut self.eps[..self.ep_count];
        if eps.len() == 2 && eps[1].from() > eps[0].from() {
            eps.swap(0, 1);
        }
        for &m in eps.iter() {
            moves.push(m);
            index.push(core_index(board, m));
        }
    }
}
