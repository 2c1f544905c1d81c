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
//! The key is unique per move of a position, so an unstable sort gives the one order.

use super::super::moves::SQ64;
use crate::{kind_of, Board as CoreBoard, Move, EMPTY, KING, PAWN};

/// The sort key of `m` (a move of `board`'s side to move) in python-chess's order, 17 bits;
/// `evasion` puts the king's moves first, as python-chess's legal moves do in check.
#[inline]
fn key(board: &CoreBoard, m: Move, evasion: bool) -> u32 {
    let down = |sq: usize| 63 - u32::from(SQ64[sq]);
    // Queen, rook, bishop, knight (kinds 5, 4, 3, 2) as 0..3; 0 without a promotion.
    let promo = if m.is_promotion() { 5 - u32::from(m.promo()) } else { 0 };
    let (group, a, b) = if m.is_castle() {
        (2, down(board.castling_rook(m)), 0)
    } else {
        match kind_of(board.piece_at(m.from())) {
            KING if evasion => (0, down(m.to()), 0),
            PAWN if m.is_en_passant() => (6, down(m.from()), 0),
            PAWN if m.is_double_push() => (5, down(m.to()), 0),
            PAWN if board.piece_at(m.to()) != EMPTY => (3, down(m.from()), down(m.to())),
            PAWN => (4, down(m.to()), 0),
            _ => (1, down(m.from()), down(m.to())),
        }
    };
    group << 14 | a << 8 | b << 2 | promo
}

/// Working space of `sort_legal`, kept between calls so that ordering allocates and clears
/// nothing per position.
pub(super) struct Scratch {
    /// Each move's place in the list by origin * 64 + target (read only where set).
    place: Vec<u8>,
    /// Targets by origin square (all zero between calls).
    targets: [u64; 64],
    order: Vec<u8>,
    keyed: Vec<u64>,
    moves: Vec<Move>,
    index: Vec<u16>,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            place: vec![0; 64 * 64],
            targets: [0; 64],
            order: Vec::new(),
            keyed: Vec::new(),
            moves: Vec::new(),
            index: Vec::new(),
        }
    }
}

/// Puts `moves` (the legal moves of `board`, with their table indexes in `index`, same order)
/// in python-chess's order of legal moves.
pub(super) fn sort_legal(board: &CoreBoard, moves: &mut [Move], index: &mut [u16], scratch: &mut Scratch) {
    let evasion = board.in_check();
    if !by_squares(board, moves, index, evasion, scratch) {
        by_keys(board, moves, index, evasion, &mut scratch.keyed);
    }
}

/// Puts pseudo-legal `moves` (with `index`) in python-chess's order of pseudo-legal moves.
pub(super) fn sort_pseudo_legal(board: &CoreBoard, moves: &mut [Move], index: &mut [u16]) {
    by_keys(board, moves, index, false, &mut Vec::new());
}

/// The general sort: by `key`.
fn by_keys(board: &CoreBoard, moves: &mut [Move], index: &mut [u16], evasion: bool, keyed: &mut Vec<u64>) {
    debug_assert_eq!(moves.len(), index.len());
    // Key (17 bits), table index (16) and move (23) in one u64, sorted by the key.
    keyed.clear();
    keyed.extend(
        moves
            .iter()
            .zip(index.iter())
            .map(|(&m, &i)| u64::from(key(board, m, evasion)) << 40 | u64::from(i) << 24 | u64::from(m.0)),
    );
    keyed.sort_unstable();
    for (&k, (m, i)) in keyed.iter().zip(moves.iter_mut().zip(index.iter_mut())) {
        *m = Move((k & 0xff_ffff) as u32);
        *i = (k >> 24) as u16;
    }
}

/// The same order without comparisons, for lists without promotions (nearly all): the moves
/// are filed by origin and target square and read back with bit scans from h8 down. False
/// (nothing changed) for a list it does not take.
fn by_squares(board: &CoreBoard, moves: &mut [Move], index: &mut [u16], evasion: bool, s: &mut Scratch) -> bool {
    let n = moves.len();
    if n > 255 || moves.iter().any(|m| m.is_promotion()) {
        return false;
    }
    let sq = |cell: usize| usize::from(SQ64[cell]);
    // Origins of the pieces' moves (the king's apart in check) and of pawn captures; the
    // targets of single and double pushes (their origin follows from the side to move).
    let (mut pieces, mut captures, mut singles, mut doubles) = (0u64, 0u64, 0u64, 0u64);
    let mut king: Option<usize> = None;
    // Castling (rook square, place) and en passant (origin, place): two at most each.
    let (mut castles, mut eps) = ([(0usize, 0u8); 2], [(0usize, 0u8); 2]);
    let (mut nc, mut ne) = (0, 0);
    for (p, &m) in moves.iter().enumerate() {
        let p = p as u8;
        if m.is_castle() {
            castles[nc] = (sq(board.castling_rook(m)), p);
            nc += 1;
            continue;
        }
        let (from, to) = (sq(m.from()), sq(m.to()));
        s.place[from * 64 + to] = p;
        let kind = kind_of(board.piece_at(m.from()));
        if kind != PAWN {
            if kind == KING && evasion {
                king = Some(from);
            } else {
                pieces |= 1 << from;
            }
            s.targets[from] |= 1 << to;
        } else if m.is_en_passant() {
            eps[ne] = (from, p);
            ne += 1;
        } else if m.is_double_push() {
            doubles |= 1 << to;
        } else if board.piece_at(m.to()) != EMPTY {
            captures |= 1 << from;
            s.targets[from] |= 1 << to;
        } else {
            singles |= 1 << to;
        }
    }
    s.order.clear();
    let (place, targets, order) = (&s.place, &mut s.targets, &mut s.order);
    let mut from_to = |from: usize, order: &mut Vec<u8>| {
        let mut t = std::mem::take(&mut targets[from]);
        while t != 0 {
            let to = 63 - t.leading_zeros() as usize;
            t ^= 1 << to;
            order.push(place[from * 64 + to]);
        }
    };
    if let Some(k) = king {
        from_to(k, order);
    }
    let down = |mut mask: u64, order: &mut Vec<u8>, each: &mut dyn FnMut(usize, &mut Vec<u8>)| {
        while mask != 0 {
            let x = 63 - mask.leading_zeros() as usize;
            mask ^= 1 << x;
            each(x, order);
        }
    };
    down(pieces, order, &mut from_to);
    if nc == 2 && castles[1].0 > castles[0].0 {
        castles.swap(0, 1);
    }
    order.extend(castles[..nc].iter().map(|c| c.1));
    down(captures, order, &mut from_to);
    // A pawn's push goes 8 squares up for White, down for Black (16 for a double push).
    let white = board.side_to_move() == crate::WHITE;
    for (mask, step) in [(singles, 8), (doubles, 16)] {
        down(mask, order, &mut |to, order| {
            let from = if white { to - step } else { to + step };
            order.push(place[from * 64 + to]);
        });
    }
    if ne == 2 && eps[1].0 > eps[0].0 {
        eps.swap(0, 1);
    }
    order.extend(eps[..ne].iter().map(|e| e.1));
    debug_assert_eq!(order.len(), n);
    s.moves.clear();
    s.moves.extend_from_slice(moves);
    s.index.clear();
    s.index.extend_from_slice(index);
    for (k, &p) in s.order.iter().enumerate() {
        moves[k] = s.moves[usize::from(p)];
        index[k] = s.index[usize::from(p)];
    }
    true
}
