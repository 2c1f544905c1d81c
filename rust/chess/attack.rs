//! Square attack tests (<https://www.chessprogramming.org/Square_Attacked_By>).
//!
//! The mailbox is the board; beside it `Board` keeps one 64-bit set per piece code and one
//! per colour (bit i = square i, a1 = 0 .. h8 = 63, python-chess's numbering), updated by
//! make/unmake. With them an attack test costs a few table lookups instead of sixteen
//! walks: pawns, knights and the king by their attack masks, and sliders only along the
//! rays that hold one, where the nearest occupied square on the ray decides
//! (<https://www.chessprogramming.org/Classical_Approach>). The mailbox-only `attacked` stays
//! for scratch copies of the cells (en passant, Chess960 castling, exchange evaluation).

use crate::chess::board::Board;
use crate::chess::geometry::*;
use crate::chess::types::*;

impl Board {
    /// The set of colour `c`'s pieces of kind `kind`.
    #[inline(always)]
    pub(crate) fn bb(&self, kind: u8, c: Color) -> u64 {
        self.bb[make_piece(kind, c) as usize]
    }

    /// True when a piece of colour `by` attacks square `s` (0..64) with the board occupied
    /// as `occ` says (the real occupancy, or it less the king that is moving).
    #[inline(always)]
    pub(crate) fn attacked_by(&self, s: usize, by: Color, occ: u64) -> bool {
        self.attacked_by_except(s, by, occ, 0)
    }

    /// `attacked_by` with the pieces on the squares of `gone` left out (a piece about to
    /// be captured there).
    #[inline(always)]
    pub(crate) fn attacked_by_except(&self, s: usize, by: Color, occ: u64, gone: u64) -> bool {
        let keep = !gone;
        if PAWN_ATTACKS[by ^ 1][s] & self.bb(PAWN, by) & keep != 0
            || KNIGHT_ATTACKS[s] & self.bb(KNIGHT, by) & keep != 0
            || KING_ATTACKS[s] & self.bb(KING, by) != 0
        {
            return true;
        }
        let queens = self.bb(QUEEN, by) & keep;
        let ortho = (self.bb(ROOK, by) & keep) | queens;
        if ORTHO_RAYS[s] & ortho != 0 {
            for (dir, rays) in RAYS[..4].iter().enumerate() {
                if rays[s] & ortho != 0 && ray_attacks(dir, s, occ) & ortho != 0 {
                    return true;
                }
            }
        }
        let diag = (self.bb(BISHOP, by) & keep) | queens;
        if DIAG_RAYS[s] & diag != 0 {
            for (i, rays) in RAYS[4..].iter().enumerate() {
                if rays[s] & diag != 0 && ray_attacks(4 + i, s, occ) & diag != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// True when a piece of colour `by` attacks cell `sq`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked_by(SQ64[sq] as usize, by, self.occ[0] | self.occ[1])
    }

    /// True when the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side;
        self.attacked_by(SQ64[self.king_square(us)] as usize, us ^ 1, self.occ[0] | self.occ[1])
    }
}

impl Board {
    /// Would legal move `m` give check? Answered without making it: the moved piece (the
    /// promotion piece for a promotion) attacking the enemy king from its new square, or one
    /// of our sliders uncovered by the move (<https://www.chessprogramming.org/Check>).
    /// Castling and en passant, rare and each with a twist (the rook gives the check; two
    /// pawns leave a rank), are answered by making and unmaking the move.
    pub fn gives_check(&mut self, m: Move) -> bool {
        if m.is_castle() || m.is_en_passant() {
            self.make_move(m);
            let check = self.in_check();
            self.unmake_move();
            return check;
        }
        let us = self.side;
        let from = SQ64[m.from()] as usize;
        let to = SQ64[m.to()] as usize;
        let king = SQ64[self.king_square(us ^ 1)] as usize;
        let king_bb = 1u64 << king;
        let from_bb = 1u64 << from;
        let occ = ((self.occ[0] | self.occ[1]) & !from_bb) | (1u64 << to);
        let kind = if m.is_promotion() { m.promo() } else { kind_of(self.cells[m.from()]) };
        let to_bb = 1u64 << to;
        // A slider checks when it lands on one of the king's lines with nothing between:
        // the rays are walked only for a piece that lands on such a line.
        let diag_check = || DIAG_RAYS[king] & to_bb != 0 && diag_attacks(king, occ) & to_bb != 0;
        let ortho_check = || ORTHO_RAYS[king] & to_bb != 0 && ortho_attacks(king, occ) & to_bb != 0;
        let direct = match kind {
            PAWN => PAWN_ATTACKS[us][to] & king_bb != 0,
            KNIGHT => KNIGHT_ATTACKS[to] & king_bb != 0,
            BISHOP => diag_check(),
            ROOK => ortho_check(),
            QUEEN => diag_check() || ortho_check(),
            _ => false,
        };
        if direct {
            return true;
        }
        // Discovered: a slider of ours (not the one that moved) now sees the king. Only a
        // piece that stood on one of the king's lines can uncover one.
        let queens = self.bb(QUEEN, us);
        if ORTHO_RAYS[king] & from_bb != 0 {
            let ortho = (self.bb(ROOK, us) | queens) & !from_bb;
            ORTHO_RAYS[king] & ortho != 0 && ortho_attacks(king, occ) & ortho != 0
        } else if DIAG_RAYS[king] & from_bb != 0 {
            let diag = (self.bb(BISHOP, us) | queens) & !from_bb;
            DIAG_RAYS[king] & diag != 0 && diag_attacks(king, occ) & diag != 0
        } else {
            false
        }
    }
}

impl Board {
    /// Would the piece on `from` (ours), moved to `to` and becoming a `kind_after`, attack the
    /// enemy king? The geometry alone, for moves that are not legal (python-chess answers
    /// `gives_check` for any move it can push: a promotion to a king, a piece jumping):
    /// whatever stood on `to` is gone, and every piece of ours is looked at with the new
    /// occupancy.
    pub fn gives_check_geometric(&self, from: Square, to: Square, kind_after: u8) -> bool {
        let us = self.side;
        let (f, t) = (SQ64[from] as usize, SQ64[to] as usize);
        let king = SQ64[self.king_square(us ^ 1)] as usize;
        if t == king {
            return false; // the king itself taken: python-chess then sees no king to check
        }
        let (from_bb, to_bb) = (1u64 << f, 1u64 << t);
        let occ = ((self.occ[0] | self.occ[1]) & !from_bb) | to_bb;
        let mine = |kind: u8| {
            let bb = self.bb(kind, us) & !from_bb;
            if kind == kind_after {
                bb | to_bb
            } else {
                bb & !to_bb
            }
        };
        let queens = mine(QUEEN);
        PAWN_ATTACKS[us ^ 1][king] & mine(PAWN) != 0
            || KNIGHT_ATTACKS[king] & mine(KNIGHT) != 0
            || KING_ATTACKS[king] & mine(KING) != 0
            || ortho_attacks(king, occ) & (mine(ROOK) | queens) != 0
            || diag_attacks(king, occ) & (mine(BISHOP) | queens) != 0
    }
}

/// What `gives_check_with` needs to know about the enemy king, found once per node: from
/// which squares each kind of our pieces would attack it, and which of our pieces stand
/// alone between it and one of our sliders (moving one off that line uncovers a check).
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// Indexed by piece kind (PAWN..QUEEN; the king never checks).
    squares: [u64; 8],
    blockers: u64,
    king: usize,
}

impl Board {
    /// The side to move's `CheckInfo` against the enemy king.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let them = us ^ 1;
        let k = SQ64[self.king_square(them)] as usize;
        let occ = self.occ[0] | self.occ[1];
        let diag = diag_attacks(k, occ);
        let ortho = ortho_attacks(k, occ);
        let mut squares = [0u64; 8];
        squares[PAWN as usize] = PAWN_ATTACKS[them][k];
        squares[KNIGHT as usize] = KNIGHT_ATTACKS[k];
        squares[BISHOP as usize] = diag;
        squares[ROOK as usize] = ortho;
        squares[QUEEN as usize] = diag | ortho;
        let queens = self.bb(QUEEN, us);
        let our_ortho = self.bb(ROOK, us) | queens;
        let our_diag = self.bb(BISHOP, us) | queens;
        let mut blockers = 0;
        if (ORTHO_RAYS[k] & our_ortho) | (DIAG_RAYS[k] & our_diag) != 0 {
            for (dir, rays) in RAYS.iter().enumerate() {
                let sliders = if dir < 4 { our_ortho } else { our_diag };
                let ray = rays[k];
                if ray & sliders == 0 || ray & occ == 0 {
                    continue;
                }
                let b1 = nearest(dir, ray & occ);
                if self.occ[us] >> b1 & 1 == 0 {
                    continue;
                }
                let beyond = RAYS[dir][b1] & occ;
                if beyond != 0 && sliders >> nearest(dir, beyond) & 1 != 0 {
                    blockers |= 1u64 << b1;
                }
            }
        }
        CheckInfo { squares, blockers, king: k }
    }

    /// `gives_check(m)` with the node's `check_info()`: a few masks for most moves.
    /// Promotions (the new piece may check through the square the pawn left), castling and
    /// en passant take `gives_check`.
    #[inline]
    pub fn gives_check_with(&mut self, ci: &CheckInfo, m: Move) -> bool {
        if m.is_promotion() || m.is_castle() || m.is_en_passant() {
            return self.gives_check(m);
        }
        let from_bb = 1u64 << SQ64[m.from()];
        let to_bb = 1u64 << SQ64[m.to()];
        // A slider moving away from the king along a line never reaches it: it would
        // have been giving check already.
        if ci.squares[kind_of(self.cells[m.from()]) as usize & 7] & to_bb != 0 {
            return true;
        }
        if ci.blockers & from_bb == 0 {
            return false;
        }
        // A blocker uncovers the check unless it stays on the line.
        RAYS.iter().any(|rays| rays[ci.king] & from_bb != 0 && rays[ci.king] & to_bb == 0)
    }
}
