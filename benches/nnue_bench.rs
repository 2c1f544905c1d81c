//! Cost of the NNUE inference per call (rust/eval/nnue/), portable kernels against AVX2, with a
//! random H = 256 net (the first trained net's size; the cost does not depend on the values).
//!
//! `cargo bench --bench nnue_bench` collects (position, legal move) pairs from seeded random
//! games, then times, in `KIBITZ_BENCH_RUNS` rounds (default 7) alternating which path goes
//! first: `AccumulatorStack::push` + `current` over the moves of each game in order, then
//! `pop` (push+pop), the same without `current` (push+pop lazy: a ply never evaluated),
//! `Network::evaluate` of every position's accumulator, `Accumulator::refresh` (the
//! from-scratch cost the stack avoids), and the hand-written `kibitz::evaluate` as a
//! yardstick. Prints the median ns per call of each and the ratios of medians (the machine
//! is shared: only ratios measured side by side mean anything). Asserts that both paths give
//! the same evaluations.

#![allow(clippy::print_stdout, clippy::print_stderr)] // a benchmark front end: printing is its job

use kibitz::{Accumulator, AccumulatorStack, Board, Move, MoveList, NetParams, Network, SimdPath};
use std::hint::black_box;
use std::time::Instant;

#[path = "common/uci_perft.rs"]
#[allow(dead_code)]
mod uci_perft;
use uci_perft::median;

/// Rounds when `KIBITZ_BENCH_RUNS` is unset: odd, so the median is one round.
const DEFAULT_RUNS: usize = 7;
/// Hidden size of the first net (the plan for the first net).
const HIDDEN: usize = 256;
/// Passes over the pair list per timing: about 10^6 calls, tens of milliseconds each.
const PASSES: usize = 100;

/// SplitMix64, for the weights and the games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn small(&mut self, span: i64) -> i16 {
        ((self.next() % (2 * span as u64 + 1)) as i64 - span) as i16
    }
}

fn random_net(rng: &mut Rng) -> Network {
    Network::from_params(NetParams {
        hidden: HIDDEN,
        king_buckets: None,
        scale: 400,
        qa: 255,
        qb: 64,
        feature_weights: (0..768 * HIDDEN).map(|_| rng.small(60)).collect(),
        feature_biases: (0..HIDDEN).map(|_| rng.small(200)).collect(),
        output_weights: (0..2 * HIDDEN).map(|_| rng.small(127)).collect(),
        output_biases: vec![0],
    })
    .expect("valid random net")
}

/// (board before, move) pairs from random games out of the start position and Kiwipete.
fn positions(rng: &mut Rng) -> Vec<(Board, Move)> {
    let mut out = Vec::new();
    for (g, fen) in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]
    .iter()
    .cycle()
    .take(100)
    .enumerate()
    {
        let mut board = Board::from_fen(fen).expect("valid FEN");
        for _ in 0..(40 + g % 60) {
            let mut ml = MoveList::new();
            board.generate_legal(&mut ml);
            if ml.is_empty() {
                break;
            }
            let m = ml[(rng.next() % ml.len() as u64) as usize];
            out.push((board.clone(), m));
            board.make_move(m);
        }
    }
    out
}

/// Seconds per call of `f` run over `calls` calls.
fn per_call(calls: usize, f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() / calls as f64
}

/// One round of every measurement on one path: (push+current+pop, push+pop without
/// current, evaluate, refresh) in s per call,
/// and the sum of the evaluations (checked equal across paths).
fn round(net: &Network, pairs: &[(Board, Move)], accs: &[Accumulator]) -> ([f64; 4], i64) {
    // As in a search: the moves of one game pushed in order (each ply derived from the one
    // before), then all popped; the values are the root's plus the changes, whatever the root.
    let mut stack = AccumulatorStack::new(net, &pairs[0].0);
    let push_pop = per_call(PASSES * pairs.len(), || {
        for _ in 0..PASSES {
            for game in pairs.chunk_by(|a, b| b.0.ply() == a.0.ply() + 1) {
                for (b, m) in game {
                    stack.push(net, b, *m);
                    // Bring every ply up to date (the stack is lazy): the cost when each
                    // node is evaluated.
                    black_box(stack.current(net));
                }
                for _ in game {
                    stack.pop();
                }
            }
        }
    });
    // The same without `current`: what a ply the search never evaluates costs (the stack
    // only records the move's changes).
    let lazy = per_call(PASSES * pairs.len(), || {
        for _ in 0..PASSES {
            for game in pairs.chunk_by(|a, b| b.0.ply() == a.0.ply() + 1) {
                for (b, m) in game {
                    stack.push(net, black_box(b), *m);
                }
                for _ in game {
                    stack.pop();
                }
            }
        }
    });
    black_box(stack.current(net));
    let mut sum = 0i64;
    let eval = per_call(PASSES * accs.len(), || {
        for _ in 0..PASSES {
            for (acc, (b, _)) in accs.iter().zip(pairs) {
                sum += net.evaluate(black_box(acc), b.side_to_move()) as i64;
            }
        }
    });
    let mut acc = Accumulator::new(net);
    let refresh = per_call(PASSES / 10 * pairs.len(), || {
        for _ in 0..PASSES / 10 {
            for (b, _) in pairs {
                acc.refresh(net, black_box(b));
            }
        }
    });
    ([push_pop, lazy, eval, refresh], sum)
}

fn main() {
    let runs: usize =
        std::env::var("KIBITZ_BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(DEFAULT_RUNS).max(1);
    let mut rng = Rng(2026);
    let mut scalar = random_net(&mut rng);
    assert!(scalar.set_simd(SimdPath::Scalar));
    let mut avx2 = scalar.clone();
    let have_avx2 = avx2.set_simd(SimdPath::Avx2);
    if !have_avx2 {
        eprintln!("no AVX2 on this CPU: timing the portable path only");
    }
    let pairs = positions(&mut rng);
    let accs: Vec<Accumulator> = pairs.iter().map(|(b, _)| Accumulator::from_board(&scalar, b)).collect();
    println!(
        "H = {HIDDEN}, {} positions, {PASSES} passes per timing, {runs} alternating rounds; ns per call, medians",
        pairs.len()
    );

    let mut times: [[Vec<f64>; 4]; 2] = Default::default();
    let mut handwritten = Vec::new();
    for r in 0..runs {
        let order: &[usize] = if r % 2 == 0 { &[0, 1] } else { &[1, 0] };
        let mut sums = [None, None];
        for &p in order {
            if p == 1 && !have_avx2 {
                continue;
            }
            let (t, sum) = round(if p == 0 { &scalar } else { &avx2 }, &pairs, &accs);
            for (k, v) in t.into_iter().enumerate() {
                times[p][k].push(v);
            }
            sums[p] = Some(sum);
        }
        if have_avx2 {
            assert_eq!(sums[0], sums[1], "the two paths evaluate differently");
        }
        let mut s = 0i64;
        handwritten.push(per_call(PASSES * pairs.len(), || {
            for _ in 0..PASSES {
                for (b, _) in &pairs {
                    s += kibitz::evaluate(black_box(b)) as i64;
                }
            }
        }));
        black_box(s);
    }
    let ns = |v: &[f64]| median(v) * 1e9;
    let hw = ns(&handwritten);
    println!("{:<16} {:>10} {:>10} {:>14}", "operation", "portable", "avx2", "portable/avx2");
    for (k, name) in ["push+pop", "push+pop lazy", "evaluate", "refresh"].iter().enumerate() {
        let s = ns(&times[0][k]);
        if have_avx2 {
            let a = ns(&times[1][k]);
            println!("{name:<16} {s:>10.1} {a:>10.1} {:>14.2}", s / a);
        } else {
            println!("{name:<16} {s:>10.1} {:>10} {:>14}", "-", "-");
        }
    }
    println!("{:<16} {hw:>10.1}   (hand-written kibitz::evaluate, the yardstick)", "hand-written");
    let best = if have_avx2 { 1 } else { 0 };
    let cost = ns(&times[best][0]) + ns(&times[best][2]);
    println!(
        "push+pop+evaluate on the {} path: {cost:.1} ns = {:.2} x the hand-written evaluation",
        if have_avx2 { "AVX2" } else { "portable" },
        cost / hw
    );
}
