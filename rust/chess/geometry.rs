//! Board geometry: the tables that map between the 10x12 mailbox and 0..64 squares, the
//! attack sets of leapers and the rays of sliders, computed at compile time, and the
//! mailbox-only attack test for scratch copies of the cells
//! (<https://www.chessprogramming.org/Classical_Approach>). Depends on `types` only, so
//! `board` and `attack` can both use it without importing each other.

use crate::chess::types::*;

/// The 0..64 index of each mailbox cell (0 for the sentinels, which never reach a bitboard).
pub(crate) const SQ64: [u8; 120] = {
    let mut t = [0u8; 120];
    let mut sq = 0;
    while sq < 120 {
        if is_real(sq) {
            t[sq] = sq64(sq) as u8;
        }
        sq += 1;
    }
    t
};

/// The mailbox cell of each 0..64 square.
pub(crate) const SQ120: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = sq120(s % 8, s / 8) as u8;
        s += 1;
    }
    t
};

/// The bit of a real mailbox cell.
#[inline(always)]
pub(crate) fn bb_of(sq: Square) -> u64 {
    debug_assert!(is_real(sq));
    1u64 << SQ64[sq]
}

/// The squares reached from each square by single steps of a mailbox offset (one for a
/// leaper, the whole ray for a slider), computed by walking the 10x12 board at compile time.
const fn steps(offsets: &[isize], slide: bool) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let from = sq120(s % 8, s / 8) as isize;
        let mut i = 0;
        while i < offsets.len() {
            let mut to = from + offsets[i];
            while to >= 0 && to < 120 && is_real(to as usize) {
                t[s] |= 1u64 << sq64(to as usize);
                if !slide {
                    break;
                }
                to += offsets[i];
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// The ray from each square in each of the eight directions, in `KING_DIRS` order
/// (N, S, E, W, NE, NW, SE, SW), the square itself excluded.
pub(crate) static RAYS: [[u64; 64]; 8] = [
    steps(&[N], true),
    steps(&[S], true),
    steps(&[E], true),
    steps(&[W], true),
    steps(&[NE], true),
    steps(&[NW], true),
    steps(&[SE], true),
    steps(&[SW], true),
];

/// Does direction `KING_DIRS[i]` run towards higher square numbers? Then the nearest square
/// of a set on its ray is the lowest bit, otherwise the highest.
pub(crate) const RAY_UP: [bool; 8] = [true, false, true, false, true, true, false, false];

pub(crate) static KNIGHT_ATTACKS: [u64; 64] = steps(&KNIGHT_JUMPS, false);
pub(crate) static KING_ATTACKS: [u64; 64] = steps(&KING_DIRS, false);
/// The squares a pawn of each colour attacks from each square.
pub(crate) static PAWN_ATTACKS: [[u64; 64]; 2] = [steps(&[NE, NW], false), steps(&[SE, SW], false)];
/// Rook and bishop rays together: a filter before walking any ray.
pub(crate) static ORTHO_RAYS: [u64; 64] = steps(&ORTHO, true);
pub(crate) static DIAG_RAYS: [u64; 64] = steps(&DIAG, true);

/// The nearest member of the non-empty set `b` along ray `dir` (an index into `KING_DIRS`).
#[inline(always)]
pub(crate) fn nearest(dir: usize, b: u64) -> usize {
    debug_assert!(b != 0);
    if RAY_UP[dir] {
        b.trailing_zeros() as usize
    } else {
        63 - b.leading_zeros() as usize
    }
}

/// The squares a slider on square `s` reaches along ray `dir` over occupancy `occ`: the ray
/// up to and including the first occupied square.
#[inline(always)]
pub(crate) fn ray_attacks(dir: usize, s: usize, occ: u64) -> u64 {
    let ray = RAYS[dir][s];
    let blockers = ray & occ;
    if blockers == 0 {
        ray
    } else {
        ray ^ RAYS[dir][nearest(dir, blockers)]
    }
}

/// The squares a rook on square `s` attacks over occupancy `occ`.
#[inline(always)]
pub(crate) fn ortho_attacks(s: usize, occ: u64) -> u64 {
    ray_attacks(0, s, occ) | ray_attacks(1, s, occ) | ray_attacks(2, s, occ) | ray_attacks(3, s, occ)
}

/// The squares a bishop on square `s` attacks over occupancy `occ`.
#[inline(always)]
pub(crate) fn diag_attacks(s: usize, occ: u64) -> u64 {
    ray_attacks(4, s, occ) | ray_attacks(5, s, occ) | ray_attacks(6, s, occ) | ray_attacks(7, s, occ)
}

/// True when a piece of colour `by` attacks `cells` cell `sq` on the mailbox. Cells equal to
/// `ignore` are read as empty (pass the king's cell when testing where the king may go, so
/// that a slider's ray is not blocked by the king that is moving away along it). For
/// scratch copies of the cells; on a `Board`, `attacked_by` is faster.
#[inline(always)]
pub(crate) fn attacked(cells: &[u8; 120], sq: Square, by: Color, ignore: Square) -> bool {
    // Pawns: a white pawn attacks from one rank below (sq - 9, sq - 11), a black one from above.
    let pawn = make_piece(PAWN, by);
    let (l, r) = if by == WHITE { (sq - 9, sq - 11) } else { (sq + 9, sq + 11) };
    if at(cells, l) == pawn || at(cells, r) == pawn {
        return true;
    }
    let knight = make_piece(KNIGHT, by);
    for d in KNIGHT_JUMPS {
        if at(cells, (sq as isize + d) as usize) == knight {
            return true;
        }
    }
    let king = make_piece(KING, by);
    let queen = make_piece(QUEEN, by);
    let rook = make_piece(ROOK, by);
    let bishop = make_piece(BISHOP, by);
    for d in ORTHO {
        let mut t = (sq as isize + d) as usize;
        let p = at(cells, t);
        if p == king {
            return true;
        }
        let mut p = p;
        while p == EMPTY || t == ignore {
            t = (t as isize + d) as usize;
            p = at(cells, t);
        }
        if p == rook || p == queen {
            return true;
        }
    }
    for d in DIAG {
        let mut t = (sq as isize + d) as usize;
        let p = at(cells, t);
        if p == king {
            return true;
        }
        let mut p = p;
        while p == EMPTY || t == ignore {
            t = (t as isize + d) as usize;
            p = at(cells, t);
        }
        if p == bishop || p == queen {
            return true;
        }
    }
    false
}
