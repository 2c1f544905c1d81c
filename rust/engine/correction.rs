//! Correction history (<https://www.chessprogramming.org/Static_Evaluation_Correction_History>):
//! how far the search's results have strayed from the static evaluation in positions with
//! the same pawn structure, learnt during the search and added to later static evaluations
//! of such positions. The net misjudges some pawn structures the same way every time (a
//! blocked chain, a far passer); the search finds out, and the table remembers it for the
//! rest of the game.
//!
//! One table per side to move, indexed by a hash of the two pawn bitboards (computed when
//! asked, so make/unmake carry no extra key). Each entry is a running average of
//! (search score - static eval) in 1/CORR_GRAIN centipawns, weighted by the node's depth.

use crate::chess::board::Board;
use crate::chess::types::{make_piece, BLACK, PAWN, WHITE};
use crate::engine::params::{CORR_GRAIN, CORR_MAX, CORR_SIZE_LOG2, CORR_WEIGHT_MAX, CORR_WEIGHT_SCALE};

/// The per-side tables of one search thread.
pub struct CorrectionHistory {
    table: Vec<i32>,
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { table: vec![0; 2 << CORR_SIZE_LOG2] }
    }

    /// The entry of `board`'s pawn structure for the side to move.
    #[inline]
    fn slot(board: &Board) -> usize {
        let wp = board.bb[make_piece(PAWN, WHITE) as usize];
        let bp = board.bb[make_piece(PAWN, BLACK) as usize];
        // Two odd multipliers mix each bitboard through all 64 bits; the top bits index.
        let h = wp.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ bp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29);
        ((board.side_to_move()) << CORR_SIZE_LOG2) | (h >> (64 - CORR_SIZE_LOG2)) as usize
    }

    /// The correction (centipawns) to add to `board`'s static evaluation.
    #[inline]
    pub fn correction(&self, board: &Board) -> i32 {
        self.table[Self::slot(board)] / CORR_GRAIN
    }

    /// A search of `depth` found `score` where the (corrected) static evaluation said
    /// `static_eval`: move the entry toward the difference, more for deeper searches.
    pub fn update(&mut self, board: &Board, depth: i32, score: i32, static_eval: i32) {
        let slot = Self::slot(board);
        let weight = (depth + 1).min(CORR_WEIGHT_MAX);
        let target = (score - static_eval) * CORR_GRAIN;
        let e = &mut self.table[slot];
        *e = ((*e * (CORR_WEIGHT_SCALE - weight) + target * weight) / CORR_WEIGHT_SCALE).clamp(-CORR_MAX, CORR_MAX);
    }
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn learns_toward_the_search_result_within_bounds() {
        let mut c = CorrectionHistory::new();
        let b = board("4k3/pp3ppp/8/3p4/3P4/8/PP3PPP/4K3 w - - 0 1");
        assert_eq!(c.correction(&b), 0);
        // The search keeps finding 40 cp more than the eval said: the correction climbs
        // toward +40 and never passes it.
        let mut last = 0;
        for _ in 0..200 {
            c.update(&b, 10, 140, 100);
            let now = c.correction(&b);
            assert!(now >= last && now <= 40, "{last} -> {now}");
            last = now;
        }
        assert!(last >= 38, "{last}");
        // A huge difference is capped.
        for _ in 0..400 {
            c.update(&b, 20, 3000, 0);
        }
        assert_eq!(c.correction(&b), CORR_MAX / CORR_GRAIN);
        // Deeper searches move it faster.
        let (mut shallow, mut deep) = (CorrectionHistory::new(), CorrectionHistory::new());
        shallow.update(&b, 1, -300, 0);
        deep.update(&b, 12, -300, 0);
        assert!(deep.correction(&b) < shallow.correction(&b) && shallow.correction(&b) < 0);
    }

    #[test]
    fn entries_follow_the_pawns_and_the_side_to_move() {
        let mut c = CorrectionHistory::new();
        let w = board("4k3/pp3ppp/8/3p4/3P4/8/PP3PPP/4K3 w - - 0 1");
        for _ in 0..100 {
            c.update(&w, 16, 50, 0);
        }
        assert!(c.correction(&w) > 20);
        // Same pawns, other pieces: the same entry.
        let pieces_moved = board("r3k3/pp3ppp/8/3p4/3P4/2N5/PP3PPP/4K2R w - - 0 1");
        assert_eq!(c.correction(&pieces_moved), c.correction(&w));
        // The other side to move, or one pawn elsewhere: (almost surely) another entry.
        let black = board("4k3/pp3ppp/8/3p4/3P4/8/PP3PPP/4K3 b - - 0 1");
        assert_eq!(c.correction(&black), 0);
        let pawn_moved = board("4k3/pp3ppp/8/3p4/3P4/6P1/PP3P1P/4K3 w - - 0 1");
        assert_eq!(c.correction(&pawn_moved), 0);
    }
}
