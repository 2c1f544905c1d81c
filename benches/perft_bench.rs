//! Perft speed against Stockfish's `go perft`, in the same sitting (the machines are shared
//! and noisy, so only ratios measured side by side mean anything).
//!
//! `cargo bench --bench perft_bench` runs, for each position, `RUNS` rounds of kibitz's
//! bulk-counting perft and Stockfish's `go perft` (single thread, no hash: perft never
//! probes it), alternating which of the two goes first, and prints the median time of each,
//! the ratio of the medians and the median of the per-round ratios with their spread (a
//! round's two runs are seconds apart, so a load change hits both alike). Then one run of
//! kibitz's perft making every leaf move (the make/unmake speed). Node counts are asserted
//! against the published values. Environment: `KIBITZ_STOCKFISH` (the binary, default
//! /usr/games/stockfish), `KIBITZ_BENCH_RUNS` (rounds, default 7).

#![allow(clippy::print_stdout, clippy::print_stderr)] // a benchmark front end: printing is its job

use kibitz::{perft, perft_full, Board};
use std::time::Instant;

/// Rounds per position when `KIBITZ_BENCH_RUNS` is unset: odd, so the median is one round,
/// and enough that one or two rounds disturbed by other jobs on the machine do not move it.
const DEFAULT_RUNS: usize = 7;

/// (name, FEN, depth, published leaf count) from <https://www.chessprogramming.org/Perft_Results>.
const CASES: [(&str, &str, u32, u64); 2] = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
];

#[path = "common/uci_perft.rs"]
mod uci_perft;
use uci_perft::{median, UciPerft};

/// Stockfish for `go perft`: single-threaded, and a minimal hash (perft never probes it).
fn start_stockfish(path: &str) -> Option<UciPerft> {
    let mut sf = UciPerft::start(path)?;
    sf.send("setoption name Threads value 1");
    sf.send("setoption name Hash value 1");
    Some(sf)
}

fn main() {
    let sf_path = std::env::var("KIBITZ_STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".to_string());
    let runs: usize =
        std::env::var("KIBITZ_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_RUNS).max(1);
    let mut sf = start_stockfish(&sf_path);
    if sf.is_none() {
        eprintln!("Stockfish not found at {sf_path}: printing kibitz figures only");
    }
    println!("{runs} alternating rounds per position; times are medians");
    println!(
        "{:<10} {:>5} {:>11} | {:>8} {:>6} | {:>8} {:>6} | {:>9} {:>9} {:>13} | {:>6}",
        "position",
        "depth",
        "nodes",
        "kibitz s",
        "M n/s",
        "sf s",
        "M n/s",
        "ratio med",
        "per-round",
        "(min..max)",
        "full M"
    );
    for (name, fen, depth, expected) in CASES {
        let mut board = Board::from_fen(fen).expect("valid FEN");
        let (mut ks, mut ss, mut rs) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..runs {
            let mut time_kibitz = || {
                let t = Instant::now();
                let n = perft(&mut board, depth);
                let s = t.elapsed().as_secs_f64();
                assert_eq!(n, expected, "{name} perft({depth})");
                s
            };
            let mut time_sf = || {
                sf.as_mut().map(|sf| {
                    let (n, s) = sf.perft(fen, depth);
                    assert_eq!(n, expected, "stockfish {name} perft({depth})");
                    s
                })
            };
            let (k, s) = if round % 2 == 0 {
                let k = time_kibitz();
                (k, time_sf())
            } else {
                let s = time_sf();
                (time_kibitz(), s)
            };
            ks.push(k);
            if let Some(s) = s {
                ss.push(s);
                rs.push(s / k);
            }
        }
        let t = Instant::now();
        assert_eq!(perft_full(&mut board, depth), expected, "{name} full perft({depth})");
        let full = expected as f64 / t.elapsed().as_secs_f64();
        let mk = median(&ks);
        let (ms, ratio, per_round, lo, hi) = if ss.is_empty() {
            (f64::NAN, f64::NAN, f64::NAN, f64::NAN, f64::NAN)
        } else {
            let lo = rs.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = rs.iter().cloned().fold(0.0, f64::max);
            (median(&ss), median(&ss) / mk, median(&rs), lo, hi)
        };
        println!(
            "{:<10} {:>5} {:>11} | {:>8.3} {:>6.1} | {:>8.3} {:>6.1} | {:>8.2}x {:>8.2}x {:>13} | {:>6.1}",
            name,
            depth,
            expected,
            mk,
            expected as f64 / mk / 1e6,
            ms,
            expected as f64 / ms / 1e6,
            ratio,
            per_round,
            format!("{lo:.2}..{hi:.2}x"),
            full / 1e6
        );
    }
    println!("ratio = kibitz bulk-counting perft speed / Stockfish `go perft` speed (1.00x = equal);");
    println!("ratio med = median sf time / median kibitz time; per-round = median of the rounds' ratios");
    println!("full M = kibitz perft making every leaf move (one run), M nodes/s");
}
