//! `cargo run --release --example perft -- DEPTH [FEN]`: a bare perft for profiling.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a benchmark front end: printing is its job

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen = args.get(2).map(String::as_str).unwrap_or(kibitz::STARTPOS);
    let mut b = kibitz::Board::from_fen(fen).expect("valid FEN");
    let t = std::time::Instant::now();
    let n = kibitz::perft(&mut b, depth);
    let s = t.elapsed().as_secs_f64();
    eprintln!("{n} nodes in {s:.3} s: {:.0} nodes/s", n as f64 / s);
}
