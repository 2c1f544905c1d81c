//! The search's bench signature (`kibitz::bench`: the node count over the bench positions)
//! against the value kept in `benches/data/bench_signature.txt`, so that a change to the
//! search's tree is a conscious one: a refactoring must leave it alone, and a search or
//! evaluation change updates the file together with the match that measured it.

use std::sync::atomic::AtomicBool;

use kibitz::bench;

#[test]
fn the_bench_signature_is_the_one_kept_in_the_repository() {
    let kept = include_str!("../benches/data/bench_signature.txt");
    let line = kept.lines().find(|l| l.starts_with("depth ")).expect("a 'depth D nodes N' line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let depth: u32 = words[1].parse().expect("depth");
    let want: u64 = words[3].parse().expect("nodes");
    let total: u64 = bench(depth, &AtomicBool::new(false), &mut |_| {}).iter().map(|p| p.nodes).sum();
    assert_eq!(
        total, want,
        "the search's tree changed at depth {depth}: update benches/data/bench_signature.txt only on purpose"
    );
}
