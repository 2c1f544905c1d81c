//! Search bench, like Stockfish's `bench`: 40 fixed positions (16 middlegames from
//! /work/shared/data/openings/middlegame_4000.fen, the 16 first Bratko-Kopec positions, and
//! a few standard and endgame positions) each searched to a fixed depth from an empty
//! table. The total node count is the search's signature: it changes only when the search
//! or evaluation changes (not with the machine), so print it with every search change.
//! Time and nodes/s depend on the (shared, noisy) machine.
//!
//! Then time-to-depth on a few middlegames (best of 3 runs).
//!
//! `cargo bench --bench search_bench` (optionally `-- DEPTH`, default 9).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kibitz::{Board, Engine, Info, Limits};

const POSITIONS: [&str; 40] = [
    "r1bn1rk1/ppp1qppp/3pp3/3P4/2P1n3/2B2NP1/PP2PPBP/2RQK2R w K - 0 1",
    "rnbq1rk1/1p3pb1/p2p1npp/2pP4/4P3/2N1BP2/PP2N1PP/R2QKB1R w KQ - 0 1",
    "rn1q1rk1/p1p1bppp/1p1pp3/8/2PP4/P2QPN2/1P3PPP/R1B2RK1 w - - 0 1",
    "r1b1k2r/pp1nqp1p/2p3pb/2p1p3/4P3/2NP1N1P/PPPQ1PP1/R3K2R w KQkq - 0 1",
    "r1b1r1k1/pppp1ppp/2n2n2/2q5/2P1p3/2P3PN/PPQ1PPBP/R1B2RK1 w - - 0 1",
    "r2q1rk1/2p2ppp/p1np1n2/1pb1p2b/P3P3/2PP1N1P/1PB2PP1/RNBQ1RK1 w - - 0 1",
    "r1bq1rk1/pp1n1ppp/2pb4/8/2PPp3/5N2/PP3PPP/RNBQR1K1 w - - 0 1",
    "2kr2nr/1pp3pp/p1pb4/4p3/4P1b1/5N2/PPPN1PPP/R1B1R1K1 w - - 0 1",
    "rn2k2r/1bqp1ppp/pp2pn2/2b5/2P5/1PNBPN2/PBQ2PPP/R3K2R w KQkq - 0 1",
    "rn1q1rk1/pp3ppp/4bn2/2bp4/5B2/2NBP1N1/PP3PPP/R2QK2R w KQ - 0 1",
    "r2q1rk1/pb1nbppp/1p2pn2/2p5/2BP4/P1N1PN2/1P2QPPP/R1B2RK1 w - - 0 1",
    "r1bqk2r/pp2ppbp/1nn3p1/4p3/3P4/1Q3N2/PP2BPPP/RNBR2K1 w kq - 0 1",
    "r4rk1/pp1nqpp1/2pbpn1p/3p1b2/2PP4/1PN3P1/PB1NPPBP/R2Q1RK1 w - - 0 1",
    "r2qk2r/pb1n1ppp/1p1bpn2/2p1P3/2BP2P1/2N2N2/PPQ2P1P/R1B1K2R w KQkq - 0 1",
    "r2q1rk1/ppp1ppbp/1nn3p1/3P4/4P3/2N1Bb2/PP2BPPP/R2QK2R w KQ - 0 1",
    "rn1q1rk1/1pp1bppp/1n2p3/p2pP3/2PP2b1/1PN1BN2/P3BPPP/R2Q1RK1 w - - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/8/4k3/8/8/3PK3/8 w - - 0 1",
    "8/5pk1/6p1/8/5PP1/6K1/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/2r2PPP/3R2K1 w - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "8/8/1p3k2/p1p5/P1P5/1P3K2/8/8 w - - 0 1",
];

/// Middlegames for time-to-depth.
const TTD: [(&str, u32); 3] = [
    ("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9", 13),
    ("r2q1rk1/1bppbppp/p4n2/n2Np3/Pp2P3/1B1P1N2/1PP2PPP/R1BQ1RK1 w - - 0 1", 13),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 12),
];

#[allow(clippy::print_stdout)]
fn main() {
    let depth: u32 = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(9);
    let stop = AtomicBool::new(false);
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    println!("{:>3} {:>10} {:>8} {:>9}  {:<7} fen", "#", "nodes", "ms", "nps", "best");
    for (i, fen) in POSITIONS.iter().enumerate() {
        let board = Board::from_fen(fen).expect("bench FEN");
        let mut engine = Engine::new(16);
        let limits = Limits { depth: Some(depth), multipv: 1, ..Default::default() };
        let t = Instant::now();
        let out = engine.search(&board, &limits, &stop, &mut |_: &Info| true);
        let el = t.elapsed();
        total_nodes += out.nodes;
        total_time += el;
        let best = out.best.map(|m| board.move_to_uci(m)).unwrap_or_else(|| "-".into());
        println!(
            "{:>3} {:>10} {:>8.1} {:>9.0}  {:<7} {}",
            i + 1,
            out.nodes,
            el.as_secs_f64() * 1e3,
            out.nodes as f64 / el.as_secs_f64(),
            best,
            fen
        );
    }
    println!();
    println!("bench depth {depth}: {} positions", POSITIONS.len());
    println!("Nodes searched  : {total_nodes}");
    println!("Total time (ms) : {:.0}", total_time.as_secs_f64() * 1e3);
    println!("Nodes/second    : {:.0}", total_nodes as f64 / total_time.as_secs_f64());
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
