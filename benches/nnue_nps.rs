//! The search speed cost of the neural evaluation: nodes per second of the same
//! search with the embedded net and with the hand-written evaluation, on the 40 bench
//! positions (benches/data/bench.fen), a fixed time per position, the two alternating
//! position by position so that both see the same machine load.
//!
//! `cargo bench --bench nnue_nps -- [MS_PER_POSITION=200] [ROUNDS=3]`
//!
//! Prints each round's nodes/s for both and their ratio (net / hand-written), then the
//! median ratio: the figure to quote (the machine is shared; the ratio is what is stable).

#![allow(clippy::print_stdout)] // a bench: printing is its job

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kibitz::{Board, Engine, Info, Limits};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let ms = args.first().copied().unwrap_or(200);
    let rounds = args.get(1).copied().unwrap_or(3);
    let positions: Vec<&str> = include_str!("data/bench.fen")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let stop = AtomicBool::new(false);
    let mut ratios = Vec::new();
    for round in 1..=rounds {
        // [net, hand-written]: (nodes, time)
        let mut sums = [(0u64, Duration::ZERO); 2];
        for fen in &positions {
            let board = Board::from_fen(fen).expect("bench FEN");
            for (i, sum) in sums.iter_mut().enumerate() {
                let mut engine = Engine::new(16);
                if i == 1 {
                    engine.set_net(None);
                } else {
                    assert!(engine.net().is_some(), "no embedded net");
                }
                let limits = Limits { hard: Some(Duration::from_millis(ms)), multipv: 1, ..Default::default() };
                let t = Instant::now();
                let out = engine.search(&board, &limits, &stop, &mut |_: &Info| true);
                sum.0 += out.nodes;
                sum.1 += t.elapsed();
            }
        }
        let nps = sums.map(|(n, t)| n as f64 / t.as_secs_f64());
        ratios.push(nps[0] / nps[1]);
        println!(
            "round {round}: net {:.0} nodes/s, hand-written {:.0} nodes/s, ratio {:.3}",
            nps[0],
            nps[1],
            nps[0] / nps[1]
        );
    }
    ratios.sort_by(|a, b| a.total_cmp(b));
    println!(
        "median ratio (net / hand-written): {:.3} over {rounds} rounds of {} positions x {ms} ms",
        ratios[ratios.len() / 2],
        positions.len()
    );
}
