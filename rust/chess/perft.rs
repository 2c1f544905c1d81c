//! perft and divide (<https://www.chessprogramming.org/Perft>): count the leaf nodes of the
//! legal move tree, the standard correctness test and speed measure of a move generator.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::chess::board::Board;
use crate::chess::types::*;

/// Leaf count to `depth`, with bulk counting: at the last ply the legal moves are counted,
/// not played (what Stockfish's `go perft` does too).
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has just been found to have the instruction.
        return unsafe { perft_popcnt(board, depth) };
    }
    perft_portable(board, depth)
}

/// The body of `perft`, compiled twice: leaf counting sums bit counts, which baseline
/// x86-64 (what the wheel targets) computes in a dozen instructions and CPUs with `popcnt`
/// (nearly all since 2008) in one; `perft` picks the copy at run time.
macro_rules! perft_body {
    ($(#[$attr:meta])* fn $name:ident) => {
        $(#[$attr])*
        fn $name(board: &mut Board, depth: u32) -> u64 {
            if depth <= 1 {
                return if depth == 0 { 1 } else { board.count_moves() as u64 };
            }
            let mut ml = MoveList::new();
            board.generate_legal(&mut ml);
            let mut nodes = 0;
            for &m in ml.iter() {
                board.make_move(m);
                nodes += $name(board, depth - 1);
                board.unmake_move();
            }
            nodes
        }
    };
}

perft_body!(fn perft_portable);
#[cfg(target_arch = "x86_64")]
perft_body!(#[target_feature(enable = "popcnt")] fn perft_popcnt);

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

/// `perft` that gives up when `abort` is raised (from another thread: Ctrl-C, a deadline).
/// Returns `None` when aborted; the board is left as it was either way. The flag is read at
/// every node with 3 or more plies to go, a few thousand times a second at most.
pub fn perft_until(board: &mut Board, depth: u32, abort: &AtomicBool) -> Option<u64> {
    let nodes = perft_abortable(board, depth, abort);
    if abort.load(Ordering::Relaxed) {
        None
    } else {
        Some(nodes)
    }
}

fn perft_abortable(board: &mut Board, depth: u32, abort: &AtomicBool) -> u64 {
    if depth < 3 {
        return perft(board, depth);
    }
    if abort.load(Ordering::Relaxed) {
        return 0;
    }
    let mut ml = MoveList::new();
    board.generate_legal(&mut ml);
    let mut nodes = 0;
    for &m in ml.iter() {
        board.make_move(m);
        nodes += perft_abortable(board, depth - 1, abort);
        board.unmake_move();
    }
    nodes
}

/// `divide` that gives up when `abort` is raised; `None` when aborted, the board unchanged.
pub fn divide_until(board: &mut Board, depth: u32, abort: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let mut ml = MoveList::new();
    board.generate_legal(&mut ml);
    let mut out = Vec::with_capacity(ml.len());
    for &m in ml.iter() {
        board.make_move(m);
        let n = perft_abortable(board, depth.saturating_sub(1), abort);
        board.unmake_move();
        out.push((m, n));
    }
    if abort.load(Ordering::Relaxed) {
        None
    } else {
        Some(out)
    }
}
