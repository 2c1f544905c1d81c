//! The bench, as Stockfish's `bench`: 40 fixed positions (`bench.fen`), each searched alone
//! to a fixed depth by a fresh engine (16 MB table, one thread, the embedded net). The total
//! node count is the search's signature: it depends on the search and the evaluation, not on
//! the machine, so two builds of the same search give the same count (and a search change
//! changes it). The time, and so the nodes a second, are the machine's.
//!
//! One bench for every caller: `kibitz bench` and the UCI `bench` command (through the
//! bindings), the Rust benchmark `benches/search_bench.rs`, and the test that keeps the
//! signature (`tests/bench_signature.rs`).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::chess::board::Board;
use crate::engine::engine::Engine;
use crate::engine::types::{Info, Limits};

/// The depth the signature is taken at: deep enough for the features that start at depth 8
/// (singular extensions).
pub const BENCH_DEPTH: u32 = 9;

/// The table of each position's fresh engine, in MB.
pub const BENCH_HASH_MB: usize = 16;

/// The bench positions, one FEN a line; `#` lines are comments.
const POSITIONS: &str = include_str!("bench.fen");

/// The bench positions, as FENs.
pub fn bench_positions() -> Vec<&'static str> {
    POSITIONS.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
}

/// One position's search in a bench.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    pub fen: &'static str,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The move found, as UCI text ("-" when the position has none).
    pub best: String,
}

/// Searches each bench position to `depth` (1 to `MAX_DEPTH`) with a fresh engine, calling
/// `each` after each one. Setting `stop` ends the bench after the position being searched
/// (whose search returns early, so its count is short). Returns the positions searched.
pub fn bench(depth: u32, stop: &AtomicBool, each: &mut dyn FnMut(&BenchPosition)) -> Vec<BenchPosition> {
    let mut done = Vec::new();
    for fen in bench_positions() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        // The bench FENs are fixed and checked by the tests: a bad one is a bug here.
        let Ok(board) = Board::from_fen(fen) else { continue };
        let mut engine = Engine::new(BENCH_HASH_MB);
        let limits = Limits { depth: Some(depth), multipv: 1, ..Default::default() };
        let start = Instant::now();
        let out = engine.search(&board, &limits, stop, &mut |_: &Info| true);
        let position = BenchPosition {
            fen,
            nodes: out.nodes,
            elapsed: start.elapsed(),
            best: out.best.map(|m| board.move_to_uci(m)).unwrap_or_else(|| "-".into()),
        };
        each(&position);
        done.push(position);
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_a_legal_position_with_moves() {
        let positions = bench_positions();
        assert_eq!(positions.len(), 40);
        for fen in positions {
            let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(crate::chess::perft::perft(&mut board.clone(), 1) > 0, "{fen} has no legal move");
        }
    }

    #[test]
    fn a_stopped_bench_searches_no_further_position() {
        let stop = AtomicBool::new(true);
        let mut seen = 0;
        assert!(bench(3, &stop, &mut |_| seen += 1).is_empty());
        assert_eq!(seen, 0);
    }
}
