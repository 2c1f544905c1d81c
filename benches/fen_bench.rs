//! FEN reading and writing in the rules library, without Python: the share of
//! `kibitz.Board(fen).fen()` that is the core's own (the peer benchmark, benches/peers.py,
//! measures the whole call against the other Python libraries).
//!
//! `cargo bench --bench fen_bench [-- FILE]`: FILE holds one FEN (or EPD line) a line; the
//! default is the perft suite's positions.

use std::hint::black_box;
use std::time::Instant;

use kibitz::Board;

fn positions() -> Vec<String> {
    let path = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let path = path.unwrap_or_else(|| "tests/data/perftsuite.epd".to_string());
    let text = std::fs::read_to_string(&path).expect("a readable file of FENs or EPD lines");
    // An EPD line's first four fields, or a whole FEN.
    text.lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

fn best_of<F: FnMut()>(rounds: usize, per_round: usize, mut f: F) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..per_round {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() / per_round as f64);
    }
    best
}

#[allow(clippy::print_stdout)]
fn main() {
    let fens = positions();
    let boards: Vec<Board> = fens.iter().map(|f| Board::from_fen(f).expect("a valid FEN")).collect();
    let n = fens.len() as f64;
    let read = best_of(9, 2000, || {
        for f in &fens {
            black_box(Board::from_fen(black_box(f)).ok());
        }
    });
    let write = best_of(9, 2000, || {
        for b in &boards {
            black_box(black_box(b).fen());
        }
    });
    println!("{} positions: from_fen {:.1} ns, fen() {:.1} ns a position", fens.len(), read / n * 1e9, write / n * 1e9);
}
