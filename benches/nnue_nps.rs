//! The search speed cost of the neural evaluation: nodes per second of the same
//! search with the embedded net and with the hand-written evaluation, on the 40 bench
//! positions (`kibitz::bench_positions`, rust/engine/bench.fen), a fixed time per position, the two alternating
//! position by position so that both see the same machine load.
//!
//! `cargo bench --bench nnue_nps -- [MS_PER_POSITION=200] [ROUNDS=3] [NET_FILE]`
//!
//! Prints each round's nodes/s for both and their ratio (net / hand-written), then the
//! median ratio: the figure to quote (the machine is shared; the ratio is what is stable).
//! With a NET_FILE (a wider candidate net, say), that net is measured against the embedded
//! one instead of the embedded one against the hand-written evaluation.

#![allow(clippy::print_stdout)] // a bench: printing is its job

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use kibitz::{bench_positions, Board, Engine, Info, Limits};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let file = std::env::args().skip(1).find(|a| a.parse::<u64>().is_err() && !a.starts_with('-'));
    let candidate = file.as_ref().map(|path| {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        std::sync::Arc::new(kibitz::Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}")))
    });
    let names = if candidate.is_some() { ["candidate net", "embedded net"] } else { ["net", "hand-written"] };
    let ms = args.first().copied().unwrap_or(200);
    let rounds = args.get(1).copied().unwrap_or(3);
    let positions = bench_positions();
    let stop = AtomicBool::new(false);
    let mut ratios = Vec::new();
    for round in 1..=rounds {
        // [net, hand-written]: (nodes, time)
        let mut sums = [(0u64, Duration::ZERO); 2];
        for fen in &positions {
            let board = Board::from_fen(fen).expect("bench FEN");
            for (i, sum) in sums.iter_mut().enumerate() {
                let mut engine = Engine::new(16);
                assert!(engine.net().is_some(), "no embedded net");
                match (i, &candidate) {
                    (0, Some(net)) => engine.set_net(Some(net.clone())),
                    (1, None) => engine.set_net(None),
                    _ => {}
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
            "round {round}: {} {:.0} nodes/s, {} {:.0} nodes/s, ratio {:.3}",
            names[0],
            nps[0],
            names[1],
            nps[1],
            nps[0] / nps[1]
        );
    }
    ratios.sort_by(|a, b| a.total_cmp(b));
    println!(
        "median ratio ({} / {}): {:.3} over {rounds} rounds of {} positions x {ms} ms",
        names[0],
        names[1],
        ratios[ratios.len() / 2],
        positions.len()
    );
}
