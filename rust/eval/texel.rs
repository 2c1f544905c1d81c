//! Support for Texel tuning (<https://www.chessprogramming.org/Texel%27s_Tuning_Method>):
//! the tuner fits the static evaluation to game results, which only makes sense for quiet
//! positions, where the static evaluation is what the search would use. So each training
//! position is replaced by the last position of its quiescence search's principal variation.

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::eval::classic::{evaluate, SEE_VALUE};

/// Quiescence plies followed at most (deeper capture sequences are cut with the static
/// evaluation; they are rare and the data can spare them).
const MAX_QPLY: usize = 16;
const MATE_SCORE: i32 = 30000;

/// The quiet position at the end of the quiescence principal variation from `board` (the
/// board itself when standing pat is best), or None when that position is in check (the
/// side to move's static evaluation means little there). Captures and promotions are
/// searched, all evasions when in check, with alpha-beta and MVV-LVA order.
pub fn quiescence_leaf(board: &Board) -> Option<Board> {
    let mut b = board.clone();
    let mut pv = [[Move::NULL; MAX_QPLY + 1]; MAX_QPLY + 1];
    let mut pv_len = [0usize; MAX_QPLY + 1];
    qsearch(&mut b, -MATE_SCORE - 1, MATE_SCORE + 1, 0, &mut pv, &mut pv_len);
    let mut leaf = board.clone();
    for &m in &pv[0][..pv_len[0]] {
        leaf.make_move(m);
    }
    if leaf.in_check() {
        None
    } else {
        Some(leaf)
    }
}

fn qsearch(
    b: &mut Board,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    pv: &mut [[Move; MAX_QPLY + 1]; MAX_QPLY + 1],
    pv_len: &mut [usize; MAX_QPLY + 1],
) -> i32 {
    pv_len[ply] = 0;
    let in_check = b.in_check();
    let mut ml = MoveList::new();
    if in_check {
        b.generate_legal(&mut ml);
        if ml.is_empty() {
            return -MATE_SCORE + ply as i32;
        }
    }
    if !in_check || ply >= MAX_QPLY {
        let stand = evaluate(b);
        if stand >= beta || ply >= MAX_QPLY {
            return stand;
        }
        alpha = alpha.max(stand);
        b.generate_captures(&mut ml);
    }
    let mut moves: Vec<(i32, Move)> = ml.iter().map(|&m| (-mvv_lva(b, m), m)).collect();
    moves.sort_unstable_by_key(|&(k, _)| k);
    let mut best = if in_check { -MATE_SCORE } else { alpha };
    for (_, m) in moves {
        b.make_move(m);
        let v = -qsearch(b, -beta, -alpha, ply + 1, pv, pv_len);
        b.unmake_move();
        if v > best {
            best = v;
        }
        if v > alpha {
            alpha = v;
            pv[ply][0] = m;
            let n = pv_len[ply + 1];
            let (head, tail) = pv.split_at_mut(ply + 1);
            head[ply][1..=n].copy_from_slice(&tail[0][..n]);
            pv_len[ply] = n + 1;
            if v >= beta {
                break;
            }
        }
    }
    best
}

/// Most valuable victim first, then least valuable attacker; promotions count the new piece.
fn mvv_lva(b: &Board, m: Move) -> i32 {
    let victim = if m.is_en_passant() { PAWN } else { kind_of(b.piece_at(m.to())) };
    let attacker = kind_of(b.piece_at(m.from()));
    let promo = if m.is_promotion() { SEE_VALUE[m.promo() as usize] } else { 0 };
    16 * (SEE_VALUE[victim as usize] + promo) - attacker as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_position_is_its_own_leaf() {
        let b = Board::startpos();
        assert_eq!(quiescence_leaf(&b).map(|l| l.fen()), Some(b.fen()));
    }

    #[test]
    fn hanging_queen_is_taken() {
        // White's queen on d5 takes Black's undefended queen on a8 (no check, so that is
        // the leaf); Black has nothing to take back with.
        let b = Board::from_fen("q7/7k/8/3Q4/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(quiescence_leaf(&b).map(|l| l.fen()).as_deref(), Some("Q7/7k/8/8/8/8/8/4K3 b - - 0 1"));
        // Checkmated: the line ends in check, no leaf.
        let b = Board::from_fen("4k3/8/8/8/8/8/5PPP/r5K1 w - - 0 1").unwrap();
        assert_eq!(quiescence_leaf(&b).map(|l| l.fen()), None);
    }
}
