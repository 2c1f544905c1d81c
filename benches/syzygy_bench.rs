//! What a Syzygy probe costs, and how much of it is turning a kibitz `Board` into the
//! `shakmaty` position the prober reads (`kibitz::to_shakmaty`): both timed over the same
//! positions in one run, so the ratio holds whatever the machine's load.
//!
//! `cargo bench --bench syzygy_bench` (tables from tests/data/syzygy).

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use kibitz::{to_shakmaty, Board, Tablebases};

/// KRvKP, KQvKR, KPvKP and KBNvK positions: pieces spread over the board, both sides to move.
fn positions() -> Vec<Board> {
    let mut out = Vec::new();
    let bases = ["8/8/8/3k4/8/8/1p6/KR6", "8/8/8/3k4/8/2r5/8/KQ6", "8/8/8/3k4/3p4/8/3P4/K7", "8/8/8/3k4/8/8/8/KBN5"];
    for base in bases {
        for side in ["w", "b"] {
            if let Ok(b) = Board::from_fen(&format!("{base} {side} - - 0 1")) {
                out.push(b);
            }
        }
    }
    out
}

#[allow(clippy::print_stdout)]
fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    let mut tables = Tablebases::new();
    tables.add_directory(&dir).expect("the test tables");
    let boards = positions();
    let rounds = 20_000;
    // Warm up: open every table once.
    for b in &boards {
        let _ = tables.probe_wdl(b);
    }
    let t = Instant::now();
    for _ in 0..rounds {
        for b in &boards {
            black_box(to_shakmaty(black_box(b)).is_ok());
        }
    }
    let convert = t.elapsed().as_secs_f64() / (rounds * boards.len()) as f64;
    let t = Instant::now();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for b in &boards {
            sum += tables.probe_wdl(black_box(b)).unwrap_or(0) as i64;
        }
    }
    let probe = t.elapsed().as_secs_f64() / (rounds * boards.len()) as f64;
    println!("positions {}, rounds {rounds}, wdl checksum {sum}", boards.len());
    println!("conversion  {:8.0} ns", convert * 1e9);
    println!("wdl probe   {:8.0} ns (conversion included)", probe * 1e9);
    println!("conversion share of a probe: {:.0} %", 100.0 * convert / probe);
}
