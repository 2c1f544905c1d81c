//! A position as 18 planes of 8x8, the input layout most chess networks read:
//!
//! | planes | what is 1 |
//! |---|---|
//! | 0-5 | White's pawns, knights, bishops, rooks, queens, king |
//! | 6-11 | Black's, in the same order |
//! | 12-15 | the whole plane, when White may castle king side, White queen side, Black king side, Black queen side |
//! | 16 | the en-passant square, only when an en-passant capture is legal |
//! | 17 | the whole plane, when White is to move |
//!
//! Row 0 is rank 8 and column 0 file a (the board as printed, White at the bottom), so
//! element `[p][r][c]` is square `(7 - r) * 8 + c`. Canonical planes are those of the board
//! mirrored (ranks reversed, colours and castling rights swapped, White to move) when Black
//! is to move: the side to move always plays up the board as "White".

use crate::chess::board::Board;
use crate::chess::geometry::SQ64;
use crate::chess::types::*;

/// Planes per position.
pub const PLANES: usize = 18;
/// Values per position: 18 planes of 64 squares.
pub const PLANE_VALUES: usize = PLANES * 64;

/// Fills `out` (one position: 1,152 values, all overwritten) with the planes of `board`,
/// `one` for a set square and `zero` elsewhere.
pub fn fill_planes<T: Copy>(board: &Board, canonical: bool, out: &mut [T], zero: T, one: T) {
    assert_eq!(out.len(), PLANE_VALUES, "one position's planes are {PLANE_VALUES} values");
    out.fill(zero);
    set_planes(board, canonical, out, one);
}

/// `fill_planes` into values already all zero: only the ones are written.
pub fn set_planes<T: Copy>(board: &Board, canonical: bool, out: &mut [T], one: T) {
    assert_eq!(out.len(), PLANE_VALUES, "one position's planes are {PLANE_VALUES} values");
    let us = board.side_to_move();
    let flip = canonical && us == BLACK;
    // Square (0..64, a1 = 0) to the index of its cell in a plane: rank 8 first.
    let index = |sq: usize| -> usize {
        let sq = if flip { sq ^ 56 } else { sq };
        (7 - sq / 8) * 8 + sq % 8
    };
    for c in [WHITE, BLACK] {
        // With `flip`, the side to move's pieces (Black's) go to planes 0-5.
        let base = if (c == WHITE) != flip { 0 } else { 6 };
        for kind in PAWN..=KING {
            let mut bits = board.bb[make_piece(kind, c) as usize];
            let plane = (base + kind as usize - 1) * 64;
            while bits != 0 {
                let sq = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                out[plane + index(sq)] = one;
            }
        }
    }
    // Castling bits: K = 1, Q = 2, k = 4, q = 8; mirrored, Black's rights become the first two.
    let rights = board.castling_rights();
    let rights = if flip { (rights >> 2) | ((rights & 3) << 2) } else { rights };
    for bit in 0..4 {
        if rights & (1 << bit) != 0 {
            out[(12 + bit) * 64..(13 + bit) * 64].fill(one);
        }
    }
    if let Some(cell) = board.ep_square() {
        if board.has_legal_en_passant() {
            out[16 * 64 + index(SQ64[cell] as usize)] = one;
        }
    }
    if us == WHITE || flip {
        out[17 * 64..18 * 64].fill(one);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_its_pieces_on_rows_0_1_6_7_and_all_rights() {
        let b = Board::startpos();
        let mut out = [0u8; PLANE_VALUES];
        fill_planes(&b, false, &mut out, 0, 1);
        // White pawns (plane 0) on row 6 (rank 2), Black pawns (plane 6) on row 1.
        assert!((0..8).all(|c| out[6 * 8 + c] == 1));
        assert!((0..8).all(|c| out[6 * 64 + 8 + c] == 1));
        // White king (plane 5) on e1: row 7, column 4.
        assert_eq!(out[5 * 64 + 7 * 8 + 4], 1);
        assert_eq!(out.iter().map(|&v| v as usize).sum::<usize>(), 32 + 4 * 64 + 64);
    }
}
