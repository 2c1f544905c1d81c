//! Speed of the table-driven variant generator, as ratios measured in one sitting.
//!
//! 1. Orthodox chess through the generic generator against kibitz's fast one (both
//!    bulk-counting perft), on the start position and Kiwipete.
//! 2. Every built-in variant against Fairy-Stockfish's `go perft` from its start position.
//!
//! The machine is shared and noisy, so each pair is run `ROUNDS` times alternating (A, B,
//! A, B, ...) and the median time of each side is compared. Node counts are asserted: the
//! fast generator's against the published values, the generic one's against the fast one,
//! each variant's against Fairy-Stockfish's. `cargo bench --bench variant_bench`; set
//! `KIBITZ_FAIRY_STOCKFISH` to the binary (default /usr/games/fairy-stockfish).

#![allow(clippy::print_stdout, clippy::print_stderr)] // a benchmark front end: printing is its job

use kibitz::{perft, variant_perft, Board, Compiled, VBoard, VariantSet};
use std::sync::Arc;
use std::time::Instant;

/// Alternating runs per side; the median of 5 shrugs off two disturbed runs.
const ROUNDS: usize = 5;

/// (name, FEN, depth, published count) from <https://www.chessprogramming.org/Perft_Results>.
/// Depths where the fast generator takes a few tenths of a second: shorter runs were
/// swamped by the shared machine's noise once the generic one got within a few times.
const ORTHODOX: [(&str, &str, u32, u64); 2] = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
];

/// (variant, depth): depths chosen so one run takes about a second.
const VARIANTS: [(&str, u32); 12] = [
    ("chess", 5),
    ("shatranj", 5),
    ("courier", 4),
    ("capablanca", 4),
    ("gothic", 4),
    ("embassy", 4),
    ("janus", 4),
    ("grand", 4),
    ("shako", 4),
    ("modern", 4),
    ("chancellor", 4),
    ("knightmate", 5),
];

fn timed<F: FnMut() -> u64>(mut f: F) -> (u64, f64) {
    let t = Instant::now();
    let n = f();
    (n, t.elapsed().as_secs_f64())
}

/// The built-in definitions, read from the package's data directory.
fn builtins() -> VariantSet {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("python/kibitz/variant/data");
    let mut docs = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir).expect("variant data directory").flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "ini") {
            docs.push((p.display().to_string(), std::fs::read_to_string(&p).expect("readable")));
        }
    }
    VariantSet::parse(&docs).expect("built-in definitions parse")
}

#[path = "common/uci_perft.rs"]
mod uci_perft;
use uci_perft::{median, UciPerft};

fn main() {
    let set = builtins();
    let chess = Arc::new(Compiled::new(set.build("chess").expect("chess")));
    println!("Orthodox chess: generic (table-driven) vs fast (10x12) generator, medians of {ROUNDS} alternating runs");
    println!(
        "{:<10} {:>5} {:>10} | {:>9} {:>9} | {:>6} {:>6}",
        "position", "depth", "nodes", "fast s", "generic s", "slower", "pairs"
    );
    for (name, fen, depth, expected) in ORTHODOX {
        let mut fast = Board::from_fen(fen).expect("FEN");
        let mut generic = VBoard::from_fen_compiled(chess.clone(), fen).expect("FEN");
        let (mut tf, mut tg) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let (n, s) = timed(|| perft(&mut fast, depth));
            assert_eq!(n, expected, "fast {name}");
            tf.push(s);
            let (n, s) = timed(|| variant_perft(&mut generic, depth));
            assert_eq!(n, expected, "generic {name}");
            tg.push(s);
        }
        let (f, g) = (median(&tf), median(&tg));
        let pairs: Vec<f64> = tg.iter().zip(&tf).map(|(g, f)| g / f).collect();
        println!(
            "{:<10} {:>5} {:>10} | {:>9.3} {:>9.3} | {:>5.2}x {:>5.2}x",
            name,
            depth,
            expected,
            f,
            g,
            g / f,
            median(&pairs)
        );
    }
    println!("slower = generic time / fast time (the issue asks for at most 3x); pairs = the median of");
    println!("the ratios of each alternating pair of runs (less sensitive to load that drifts)");

    let path = std::env::var("KIBITZ_FAIRY_STOCKFISH").unwrap_or_else(|_| "/usr/games/fairy-stockfish".to_string());
    let Some(mut fsf) = UciPerft::start(&path) else {
        eprintln!("Fairy-Stockfish not found at {path}: variant comparison skipped");
        return;
    };
    println!();
    println!("Variants: kibitz generic generator vs Fairy-Stockfish `go perft`, medians of {ROUNDS} alternating runs");
    println!(
        "{:<11} {:>5} {:>11} | {:>9} {:>11} | {:>9} {:>11} | {:>6}",
        "variant", "depth", "nodes", "kibitz s", "kibitz nps", "fsf s", "fsf nps", "ratio"
    );
    for (name, depth) in VARIANTS {
        let v = set.build(name).expect("built-in");
        let fen = v.start_fen.clone();
        let compiled = Arc::new(Compiled::new(v));
        let mut board = VBoard::from_fen_compiled(compiled, &fen).expect("start FEN");
        let (mut tk, mut tf) = (Vec::new(), Vec::new());
        let mut nodes = 0;
        for _ in 0..ROUNDS {
            let (n, s) = timed(|| variant_perft(&mut board, depth));
            tk.push(s);
            fsf.send(&format!("setoption name UCI_Variant value {name}"));
            let (fn_, fs) = fsf.perft(&fen, depth);
            assert_eq!(n, fn_, "{name} perft({depth}) against Fairy-Stockfish");
            tf.push(fs);
            nodes = n;
        }
        let (k, f) = (median(&tk), median(&tf));
        println!(
            "{:<11} {:>5} {:>11} | {:>9.3} {:>11.0} | {:>9.3} {:>11.0} | {:>5.2}x",
            name,
            depth,
            nodes,
            k,
            nodes as f64 / k,
            f,
            nodes as f64 / f,
            f / k
        );
    }
    println!("ratio = kibitz speed / Fairy-Stockfish speed (above 1.00x: kibitz is faster)");
}
