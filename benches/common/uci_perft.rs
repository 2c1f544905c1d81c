//! Shared by the perft benches: a UCI engine that implements Stockfish's `go perft`
//! (Stockfish, Fairy-Stockfish), timed from outside, and the median of the runs.
//! Included with `#[path = "common/uci_perft.rs"] mod uci_perft;` (a file in a subdirectory
//! of benches/ is not a bench target of its own).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Instant;

pub struct UciPerft {
    child: Child,
    out: BufReader<ChildStdout>,
}

impl UciPerft {
    /// Starts the engine and completes the `uci` handshake; None when it cannot be run.
    pub fn start(path: &str) -> Option<UciPerft> {
        let mut child = Command::new(path).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().ok()?;
        let out = BufReader::new(child.stdout.take()?);
        let mut engine = UciPerft { child, out };
        engine.send("uci");
        engine.wait_for("uciok")?;
        Some(engine)
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().expect("engine stdin");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().expect("flush the engine's stdin");
    }

    /// The next line starting with `prefix` (trimmed); None at the end of the output.
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

    /// Nodes and seconds of `go perft` alone (readyok first, so set-up is not counted).
    pub fn perft(&mut self, fen: &str, depth: u32) -> (u64, f64) {
        self.send(&format!("position fen {fen}"));
        self.send("isready");
        self.wait_for("readyok").expect("engine readyok");
        let t = Instant::now();
        self.send(&format!("go perft {depth}"));
        let line = self.wait_for("Nodes searched").expect("engine perft answer");
        let secs = t.elapsed().as_secs_f64();
        let nodes = line.rsplit(' ').next().unwrap().parse().expect("node count");
        (nodes, secs)
    }
}

/// The median (the mean of the middle two for an even count).
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}
