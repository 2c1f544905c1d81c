//! perft and divide (<https://www.chessprogramming.org/Perft>): count the leaf nodes of the
//! legal move tree, the standard correctness test and speed measure of a move generator.

use crate::board::Board;
use crate::types::*;

/// Leaf count to `depth`, with bulk counting: at the last ply the legal moves are counted,
/// not played (what Stockfish's `go perft` does too).
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut ml = MoveList::new();
    board.generate_legal(&mut ml);
    if depth == 1 {
        return ml.len() as u64;
    }
    let mut nodes = 0;
    for &m in ml.iter() {
        board.make_move(m);
        nodes += perft(board, depth - 1);
        board.unmake_move();
    }
    nodes
}

/// Leaf count to `depth` making and unmaking every move, leaves included: the honest
/// make/unmake speed figure.
pub fn perft_full(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut ml = MoveList::new();
    board.generate_legal(&mut ml);
    let mut nodes = 0;
    for &m in ml.iter() {
        board.make_move(m);
        nodes += perft_full(board, depth - 1);
        board.unmake_move();
    }
    nodes
}

/// Per-move leaf counts at `depth` (depth >= 1), in generation order.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let mut ml = MoveList::new();
    board.generate_legal(&mut ml);
    let mut out = Vec::with_capacity(ml.len());
    for &m in ml.iter() {
        board.make_move(m);
        let n = perft(board, depth.saturating_sub(1));
        board.unmake_move();
        out.push((m, n));
    }
    out
}
