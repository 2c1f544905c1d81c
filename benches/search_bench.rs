//! Search bench: the engine's bench (`kibitz::bench`, as Stockfish's `bench`: 40 fixed
//! positions each searched to a fixed depth from an empty table), printed position by
//! position. The total node count is the search's signature: it changes only when the search
//! or evaluation changes (not with the machine), so print it with every search change.
//! Time and nodes/s depend on the (shared, noisy) machine.
//!
//! Then time-to-depth on a few middlegames (best of 3 runs).
//!
//! `cargo bench --bench search_bench` (optionally `-- DEPTH`, default 9; `-- DEPTH quick` skips
//! time-to-depth, for profilers).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kibitz::{bench, bench_positions, Board, Engine, Info, Limits, BENCH_DEPTH};

/// Middlegames for time-to-depth.
const TTD: [(&str, u32); 3] = [
    ("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9", 13),
    ("r2q1rk1/1bppbppp/p4n2/n2Np3/Pp2P3/1B1P1N2/1PP2PPP/R1BQ1RK1 w - - 0 1", 13),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 12),
];

#[allow(clippy::print_stdout)]
fn main() {
    let depth: u32 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(BENCH_DEPTH);
    let stop = AtomicBool::new(false);
    println!("{:>3} {:>10} {:>8} {:>9}  {:<7} fen", "#", "nodes", "ms", "nps", "best");
    let mut i = 0;
    let done = bench(depth, &stop, &mut |p| {
        i += 1;
        let secs = p.elapsed.as_secs_f64();
        println!("{i:>3} {:>10} {:>8.1} {:>9.0}  {:<7} {}", p.nodes, secs * 1e3, p.nodes as f64 / secs, p.best, p.fen);
    });
    let total_nodes: u64 = done.iter().map(|p| p.nodes).sum();
    let total_time: Duration = done.iter().map(|p| p.elapsed).sum();
    println!();
    println!("bench depth {depth}: {} positions", bench_positions().len());
    println!("Nodes searched  : {total_nodes}");
    println!("Total time (ms) : {:.0}", total_time.as_secs_f64() * 1e3);
    println!("Nodes/second    : {:.0}", total_nodes as f64 / total_time.as_secs_f64());
    if std::env::args().any(|a| a == "quick") {
        return;
    }
    println!();
    println!("time to depth (best of 3, fresh 64 MB table each run):");
    for (fen, d) in TTD {
        let board = Board::from_fen(fen).expect("TTD FEN");
        let mut best = Duration::MAX;
        let mut nodes = 0;
        for _ in 0..3 {
            let mut engine = Engine::new(64);
            let limits = Limits { depth: Some(d), multipv: 1, ..Default::default() };
            let t = Instant::now();
            let out = engine.search(&board, &limits, &stop, &mut |_: &Info| true);
            best = best.min(t.elapsed());
            nodes = out.nodes;
        }
        println!("  depth {d:>2}: {:>8.1} ms  {nodes:>10} nodes  {fen}", best.as_secs_f64() * 1e3);
    }
}
