//! `cargo run --release --example vperft -- VARIANT DEPTH [FEN]`: a bare perft through the
//! table-driven variant generator, for profiling (`perf record`, callgrind). VARIANT is a
//! built-in name (read from the package's data directory) or `fast` for the fast orthodox
//! generator on the same FEN.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a benchmark front end: printing is its job

use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map(String::as_str).unwrap_or("chess");
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(5);
    let t = std::time::Instant::now();
    let n = if name == "fast" {
        let fen = args.get(3).map(String::as_str).unwrap_or(kibitz::STARTPOS);
        let mut b = kibitz::Board::from_fen(fen).expect("valid FEN");
        kibitz::perft(&mut b, depth)
    } else {
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
        let set = kibitz::VariantSet::parse(&docs).expect("built-in definitions parse");
        let v = set.build(name).expect("known variant");
        let fen = args.get(3).cloned().unwrap_or_else(|| v.start_fen.clone());
        let mut b = kibitz::VBoard::from_fen_compiled(Arc::new(kibitz::Compiled::new(v)), &fen).expect("valid FEN");
        let t = std::time::Instant::now();
        let n = kibitz::variant_perft(&mut b, depth);
        eprintln!("(perft alone {:.3} s)", t.elapsed().as_secs_f64());
        n
    };
    let s = t.elapsed().as_secs_f64();
    eprintln!("{n} nodes in {s:.3} s: {:.0} nodes/s", n as f64 / s);
}
