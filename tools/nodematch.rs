//! A match between two evaluations at a fixed node count per move, inside one process: a
//! quick screen for nets before a timed match with match.py, which the strength
//! claims still come from (a node-limited match ignores speed).
//!
//! `cargo run --release --example nodematch -- --a SPEC --b SPEC [--nodes 5000]
//!  [--pairs 500] [--threads 2] [--seed 1] [--random-plies 2] [--a-on LIST] [--a-off LIST]
//!  [--b-on LIST] [--b-off LIST] [OPENINGS...]`
//!
//! SPEC is `hce` (the hand-written evaluation), `embedded` (the net built into kibitz) or
//! the path of a net file. `--a-on corr,se` / `--b-off nmp` switch search features (the
//! names of `Features::NAMES`) for one side, to screen a search change at fixed nodes. Each pair of games starts from one random opening (the files as
//! for `selfplay`, default `$KIBITZ_OPENINGS`) plus `--random-plies` random moves,
//! and A plays it once with each colour. Adjudication as in `selfplay`: a win when the
//! scores of both sides' searches agree on 10 pawns for 6 plies, a draw after 80 plies
//! within 0.10 pawn for 12 plies or after 400 plies. Prints A's W/D/L and the Elo
//! difference with a 95% interval from the pair scores (pentanomial: the two games of a
//! pair share their opening, so they are not independent).

#![allow(clippy::print_stdout, clippy::print_stderr)] // a command-line tool: printing is its job

mod texel_common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use kibitz::{embedded_net, Board, Engine, Features, Limits, MoveList, Network, Outcome, WHITE};
use texel_common::{start_positions, Adjudicator, Rng, MAX_PLIES};

fn die(msg: &str) -> ! {
    eprintln!("nodematch: {msg}");
    std::process::exit(2)
}

/// The evaluation a SPEC names (`None`: the hand-written one).
fn net_of(spec: &str) -> Option<Arc<Network>> {
    match spec {
        "hce" => None,
        "embedded" => Some(embedded_net().unwrap_or_else(|| die("no embedded net"))),
        path => {
            let bytes = std::fs::read(path).unwrap_or_else(|e| die(&format!("{path}: {e}")));
            Some(Arc::new(Network::from_bytes(&bytes).unwrap_or_else(|e| die(&format!("{path}: {e}")))))
        }
    }
}

/// Plays one game from `start`; White's score (1, 0.5, 0).
fn play(white: &mut Engine, black: &mut Engine, start: &Board, nodes: u64) -> f64 {
    let stop = AtomicBool::new(false);
    let mut b = start.clone();
    white.clear();
    black.clear();
    let mut adj = Adjudicator::new();
    loop {
        match b.outcome(true) {
            Outcome::WhiteWins => return 1.0,
            Outcome::BlackWins => return 0.0,
            Outcome::Draw => return 0.5,
            Outcome::Ongoing => {}
        }
        if adj.plies() >= MAX_PLIES {
            return 0.5;
        }
        let engine = if b.side_to_move() == WHITE { &mut *white } else { &mut *black };
        let limits = Limits { nodes: Some(nodes), multipv: 1, ..Default::default() };
        let out = engine.search(&b, &limits, &stop, &mut |_| true);
        let (Some(best), Some(line)) = (out.best, out.lines.first()) else { return 0.5 };
        let ws = if b.side_to_move() == WHITE { line.score } else { -line.score };
        if let Some(r) = adj.record(ws) {
            return r;
        }
        b.make_move(best);
    }
}

/// Elo of a mean score.
fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / p - 1.0).log10()
}

fn main() {
    let mut a_spec = None;
    let mut b_spec = None;
    let (mut nodes, mut pairs, mut threads, mut seed, mut random_plies) = (5000u64, 500u64, 2usize, 1u64, 2usize);
    let mut files = Vec::new();
    let (mut a_on, mut a_off, mut b_on, mut b_off) = (String::new(), String::new(), String::new(), String::new());
    let mut it = std::env::args().skip(1);
    let num = |v: Option<String>| -> u64 { v.and_then(|s| s.parse().ok()).unwrap_or_else(|| die("a number expected")) };
    while let Some(x) = it.next() {
        match x.as_str() {
            "--a" => a_spec = it.next(),
            "--b" => b_spec = it.next(),
            "--nodes" => nodes = num(it.next()),
            "--pairs" => pairs = num(it.next()),
            "--threads" => threads = num(it.next()) as usize,
            "--seed" => seed = num(it.next()),
            "--random-plies" => random_plies = num(it.next()) as usize,
            "--a-on" => a_on = it.next().unwrap_or_default(),
            "--a-off" => a_off = it.next().unwrap_or_default(),
            "--b-on" => b_on = it.next().unwrap_or_default(),
            "--b-off" => b_off = it.next().unwrap_or_default(),
            _ => files.push(x),
        }
    }
    let (Some(a_spec), Some(b_spec)) = (a_spec, b_spec) else { die("--a SPEC and --b SPEC are required") };
    let openings = start_positions("nodematch", &files).unwrap_or_else(|e| die(&e));
    let (a_net, b_net) = (net_of(&a_spec), net_of(&b_spec));
    let features = |on: &str, off: &str| Features::from_lists(on, off).unwrap_or_else(|e| die(&e.to_string()));
    let (a_features, b_features) = (features(&a_on, &a_off), features(&b_on, &b_off));
    let a_spec = if a_on.is_empty() && a_off.is_empty() { a_spec } else { format!("{a_spec} (+{a_on} -{a_off})") };
    let b_spec = if b_on.is_empty() && b_off.is_empty() { b_spec } else { format!("{b_spec} (+{b_on} -{b_off})") };
    eprintln!(
        "nodematch: A = {a_spec}, B = {b_spec}, {pairs} pairs at {nodes} nodes/move, {threads} threads, {} start positions",
        openings.len()
    );
    // Pair results as A's points over the two games (0, 0.5, ..., 2), counted by value.
    let penta = Mutex::new([0u64; 5]);
    let wdl = Mutex::new([0u64; 3]);
    let next = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (openings, penta, wdl, next, a_net, b_net) = (&openings, &penta, &wdl, &next, &a_net, &b_net);
            scope.spawn(move || {
                let mut a = Engine::new(16);
                a.set_net(a_net.clone());
                a.features = a_features;
                let mut b = Engine::new(16);
                b.set_net(b_net.clone());
                b.features = b_features;
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= pairs {
                        break;
                    }
                    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
                    let start = loop {
                        let Ok(mut bd) = Board::from_fen(&openings[rng.below(openings.len())]) else { continue };
                        let mut ml = MoveList::new();
                        let mut ok = true;
                        for _ in 0..random_plies {
                            ml.clear();
                            bd.generate_legal(&mut ml);
                            if ml.is_empty() {
                                ok = false;
                                break;
                            }
                            bd.make_move(ml[rng.below(ml.len())]);
                        }
                        if ok && bd.outcome(false) == Outcome::Ongoing {
                            break Board::from_fen(&bd.fen()).expect("a position's own FEN");
                        }
                    };
                    let first = play(&mut a, &mut b, &start, nodes); // A White
                    let second = 1.0 - play(&mut b, &mut a, &start, nodes); // A Black
                    let mut w = wdl.lock().unwrap();
                    for s in [first, second] {
                        w[if s == 1.0 {
                            0
                        } else if s == 0.5 {
                            1
                        } else {
                            2
                        }] += 1;
                    }
                    drop(w);
                    let mut p = penta.lock().unwrap();
                    p[((first + second) * 2.0) as usize] += 1;
                    let done: u64 = p.iter().sum();
                    if done.is_multiple_of(50) {
                        // The running estimate, so that a run stopped early still says it.
                        let (mean, lo, hi) = pair_score(&p);
                        eprintln!(
                            "{done} pairs: pentanomial {:?}, {:.1} %, Elo {:+.0} [{:+.0}, {:+.0}]",
                            *p,
                            100.0 * mean,
                            elo(mean),
                            elo(lo),
                            elo(hi)
                        );
                    }
                }
            });
        }
    });
    let p = *penta.lock().unwrap();
    let w = *wdl.lock().unwrap();
    let n: u64 = p.iter().sum();
    let (mean, lo, hi) = pair_score(&p);
    println!(
        "A {a_spec} vs B {b_spec}, {nodes} nodes/move: +{} ={} -{} in {} games, {:.1} %, Elo {:+.0} [{:+.0}, {:+.0}] (95 %, pentanomial {:?})",
        w[0],
        w[1],
        w[2],
        2 * n,
        100.0 * mean,
        elo(mean),
        elo(lo),
        elo(hi),
        p
    );
}

/// A's mean score per game over the pairs counted in `p` (pentanomial: index k holds the pairs
/// where A scored k / 2 points) and its 95 % interval.
fn pair_score(p: &[u64; 5]) -> (f64, f64, f64) {
    let n = p.iter().sum::<u64>().max(1) as f64;
    let mean = p.iter().enumerate().map(|(i, &c)| i as f64 / 4.0 * c as f64).sum::<f64>() / n;
    let var = p.iter().enumerate().map(|(i, &c)| (i as f64 / 4.0 - mean).powi(2) * c as f64).sum::<f64>() / n;
    let half = 1.96 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}
