//! Perft speed against Stockfish's `go perft`, in the same run (the machines are shared
//! and noisy, so only ratios measured side by side mean anything).
//!
//! `cargo bench --bench perft_bench` prints one table: position, depth, nodes, seconds and
//! nodes/s for kibitz (bulk-counting perft, and perft making every leaf move) and for
//! Stockfish, and kibitz's speed as a ratio of Stockfish's. Each figure is the best of
//! `REPEATS` runs. Node counts are asserted against the published values.
//! Set `KIBITZ_STOCKFISH` to the Stockfish binary (default /usr/games/stockfish).

#![allow(clippy::print_stdout, clippy::print_stderr)] // a benchmark front end: printing is its job

use kibitz::{perft, perft_full, Board};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

const REPEATS: usize = 3;

/// (name, FEN, depth, published leaf count) from <https://www.chessprogramming.org/Perft_Results>.
const CASES: [(&str, &str, u32, u64); 2] = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
];

fn best_of<F: FnMut() -> u64>(mut f: F) -> (u64, f64) {
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    for _ in 0..REPEATS {
        let t = Instant::now();
        nodes = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (nodes, best)
}

struct Stockfish {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Stockfish {
    fn start(path: &str) -> Option<Stockfish> {
        let mut child = Command::new(path).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().ok()?;
        let out = BufReader::new(child.stdout.take()?);
        let mut sf = Stockfish { child, out };
        sf.send("uci");
        sf.wait_for("uciok")?;
        Some(sf)
    }
    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().expect("stockfish stdin");
        writeln!(stdin, "{line}").expect("write to stockfish");
        stdin.flush().expect("flush stockfish");
    }
    fn wait_for(&mut self, prefix: &str) -> Option<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.out.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if line.starts_with(prefix) {
                return Some(line.trim().to_string());
            }
        }
    }
    /// Time of `go perft` alone (readyok first, so start-up is not counted).
    fn perft(&mut self, fen: &str, depth: u32) -> (u64, f64) {
        self.send(&format!("position fen {fen}"));
        self.send("isready");
        self.wait_for("readyok").expect("stockfish readyok");
        let t = Instant::now();
        self.send(&format!("go perft {depth}"));
        let line = self.wait_for("Nodes searched").expect("stockfish perft answer");
        let secs = t.elapsed().as_secs_f64();
        let nodes = line.rsplit(' ').next().unwrap().parse().expect("node count");
        (nodes, secs)
    }
}

fn main() {
    let sf_path = std::env::var("KIBITZ_STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".to_string());
    let mut sf = Stockfish::start(&sf_path);
    if sf.is_none() {
        eprintln!("Stockfish not found at {sf_path}: printing kibitz figures only");
    }
    println!(
        "{:<10} {:>5} {:>12} | {:>8} {:>12} | {:>8} {:>12} | {:>8} {:>12} | {:>7}",
        "position", "depth", "nodes", "kibitz s", "kibitz nps", "full s", "full nps", "sf s", "sf nps", "ratio"
    );
    for (name, fen, depth, expected) in CASES {
        let mut board = Board::from_fen(fen).expect("valid FEN");
        let (n, secs) = best_of(|| perft(&mut board, depth));
        assert_eq!(n, expected, "{name} perft({depth})");
        let (nf, secs_full) = best_of(|| perft_full(&mut board, depth));
        assert_eq!(nf, expected, "{name} full perft({depth})");
        let (sf_secs, ratio) = match sf.as_mut() {
            Some(sf) => {
                let (sn, ss) = best_of(|| {
                    let (n, s) = sf.perft(fen, depth);
                    SF_TIME.with(|c| c.set(c.get().min(s)));
                    n
                });
                let _ = ss;
                assert_eq!(sn, expected, "stockfish {name} perft({depth})");
                let s = SF_TIME.with(|c| c.replace(f64::INFINITY));
                (s, s / secs)
            }
            None => (f64::NAN, f64::NAN),
        };
        println!(
            "{:<10} {:>5} {:>12} | {:>8.3} {:>12.0} | {:>8.3} {:>12.0} | {:>8.3} {:>12.0} | {:>6.2}x",
            name,
            depth,
            n,
            secs,
            n as f64 / secs,
            secs_full,
            n as f64 / secs_full,
            sf_secs,
            n as f64 / sf_secs,
            ratio
        );
    }
    println!("ratio = kibitz bulk-counting perft speed / Stockfish `go perft` speed (1.00x = equal)");
}

thread_local! {
    static SF_TIME: std::cell::Cell<f64> = const { std::cell::Cell::new(f64::INFINITY) };
}
