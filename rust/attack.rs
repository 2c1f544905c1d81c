//! Square attack tests (<https://www.chessprogramming.org/Square_Attacked_By>): look outward
//! from the square for each kind of attacker, which in a mailbox costs a few reads per ray.

use crate::board::Board;
use crate::types::*;

/// True when a piece of colour `by` attacks `sq` on the mailbox `cells`. Cells equal to
/// `ignore` are read as empty (pass the king's cell when testing where the king may go, so
/// that a slider's ray is not blocked by the king that is moving away along it).
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

impl Board {
    /// True when a piece of colour `by` attacks cell `sq`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        attacked(&self.cells, sq, by, 0)
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        attacked(&self.cells, self.king_square(self.side), self.side ^ 1, 0)
    }
}
