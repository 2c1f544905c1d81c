//! The search's bench signature (`benches/search_bench.rs`: the node count over the bench
//! positions) against the value kept in `benches/data/bench_signature.txt`, so that a
//! change to the search's tree is a conscious one: a refactoring must leave it alone, and a
//! search or evaluation change updates the file together with the match that measured it.

use std::sync::atomic::AtomicBool;

use kibitz::{Board, Engine, Info, Limits};

#[test]
fn the_bench_signature_is_the_one_kept_in_the_repository() {
    let kept = include_str!("../benches/data/bench_signature.txt");
    let line = kept.lines().find(|l| l.starts_with("depth ")).expect("a 'depth D nodes N' line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let depth: u32 = words[1].parse().expect("depth");
    let want: u64 = words[3].parse().expect("nodes");
    let stop = AtomicBool::new(false);
    let mut total = 0u64;
    for fen in include_str!("../benches/data/bench.fen").lines().map(str::trim) {
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        let board = Board::from_fen(fen).expect("bench FEN");
        let mut engine = Engine::new(16);
        let limits = Limits { depth: Some(depth), multipv: 1, ..Default::default() };
        total += engine.search(&board, &limits, &stop, &mut |_: &Info| true).nodes;
    }
    assert_eq!(
        total, want,
        "the search's tree changed at depth {depth}: update benches/data/bench_signature.txt only on purpose"
    );
}
