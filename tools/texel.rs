//! Texel tuning of the evaluation weights (rust/eval/weights.rs), after the chessprogramming wiki's
//! "Texel's Tuning Method": with E the static evaluation (White's view) of a quiet position
//! and R the result of the game it comes from (1, 0.5, 0 for White), minimise the mean of
//! (sigmoid(K * E) - R)^2, sigmoid(x) = 1 / (1 + 10^(-x / 400)); first over the scale K
//! alone with the current weights, then over the weights with K fixed.
//!
//! `cargo run --release --example texel -- [OPTIONS] DATA...`
//!
//! DATA are PGN files (positions from ply SKIP_PLIES on, with the game's result; unfinished
//! games and time forfeits are left out) or text files of `FEN;RESULT;GAME` lines as
//! tools/selfplay.rs writes them. Positions in check are dropped, every other one is
//! replaced by the end of its quiescence search's principal variation (`quiescence_leaf`),
//! so the static evaluation is what the search would use there.
//!
//! The evaluation is linear in the weights apart from the endgame scaling (a divisor that
//! depends on the endgame score's sign), so each position is traced once (`trace_eval`: the
//! coefficient of every weight, the phase) and the fit runs on the traces with full-batch
//! Adam (Kingma & Ba 2014). One game in ten (by a hash of its id) is held out: the train and
//! validation errors before and after are printed, and the weights are chosen by validation.
//! Square tables are tied left-right (file a = file h, ...) unless `--pst-free`, and every
//! weight is pulled towards its starting value by an L2 term (`--l2`, per centipawn squared),
//! which keeps rare entries (high king-attack counts, queen mobility 25) where they were.
//! On the data of the table in use, untied tables and L2 factors of 0, 3e-8 and 2e-7 all
//! validated worse than the default (3e-9 as well as it).
//!
//! Options: --start hand|current (the hand-set table the tuning began from, or the table in
//! use; default current), --epochs N (default 400), --lr X (Adam step in centipawns, default
//! 2, decayed linearly to a tenth), --l2 X (default 1e-8), --k X (skip the K fit),
//! --pst-free, --threads N (default 2; the sums, so the last digits, depend on it), --out FILE
//! (the new table as Rust source; also printed to stdout).
//!
//! The table in use came from `--start hand --threads 2` with the defaults on the data named
//! in rust/eval/weights.rs.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a command-line tool: printing is its job

mod texel_common;

use kibitz::{quiescence_leaf, trace_eval, Board, EgScale, Weights, NUM_WEIGHTS, WEIGHTS, WEIGHT_FIELDS};
use texel_common::{read_pgn, replay, result_score};

/// PGN games: positions before this ply are opening (book) moves, not evaluated.
const SKIP_PLIES: usize = 10;

struct Args {
    files: Vec<String>,
    epochs: usize,
    lr: f64,
    l2: f64,
    k: Option<f64>,
    pst_free: bool,
    hand_start: bool,
    threads: usize,
    out: Option<String>,
}

fn parse_args() -> Args {
    let mut a = Args {
        files: Vec::new(),
        epochs: 400,
        lr: 2.0,
        l2: 1e-8,
        k: None,
        pst_free: false,
        hand_start: false,
        threads: 2,
        out: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = |name: &str| it.next().unwrap_or_else(|| die(&format!("{name} needs a value")));
        match x.as_str() {
            "--epochs" => a.epochs = num(&val("--epochs")),
            "--lr" => a.lr = num(&val("--lr")),
            "--l2" => a.l2 = num(&val("--l2")),
            "--k" => a.k = Some(num(&val("--k"))),
            "--threads" => a.threads = num(&val("--threads")),
            "--out" => a.out = Some(val("--out")),
            "--pst-free" => a.pst_free = true,
            "--start" => match val("--start").as_str() {
                "hand" => a.hand_start = true,
                "current" => a.hand_start = false,
                other => die(&format!("--start hand|current, not {other}")),
            },
            _ if x.starts_with("--") => die(&format!("unknown option {x}")),
            _ => a.files.push(x),
        }
    }
    if a.files.is_empty() {
        die("no data files (PGN or FEN;RESULT;GAME lines)");
    }
    a
}

fn num<T: std::str::FromStr>(s: &str) -> T {
    s.parse().unwrap_or_else(|_| die(&format!("not a number: {s}")))
}

fn die(msg: &str) -> ! {
    eprintln!("texel: {msg}");
    std::process::exit(2)
}

/// A raw training position: FEN, White's result, game id.
struct Raw {
    fen: String,
    result: f32,
    game: u64,
}

/// A game's key: FNV-1a over the data file's name (not its directory) and the game's number,
/// then the SplitMix64 finaliser so that every bit is mixed. Stable across machines and Rust
/// versions, so the train / validation split (key % 10 == 0 is held out) is reproducible.
fn game_key(path: &str, game: u64) -> u64 {
    let name = path.rsplit('/').next().unwrap_or(path);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in name.as_bytes().iter().chain(game.to_le_bytes().iter()) {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

fn load_raw(path: &str, out: &mut Vec<Raw>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| die(&format!("{path}: {e}")));
    let before = out.len();
    if path.ends_with(".pgn") {
        let (mut used, mut skipped) = (0, 0);
        for (gi, g) in read_pgn(&text).iter().enumerate() {
            let Some(result) = result_score(&g.result) else {
                skipped += 1;
                continue;
            };
            if g.termination.contains("forfeit") {
                skipped += 1;
                continue;
            }
            let Some((mut b, moves)) = replay(g) else {
                skipped += 1;
                continue;
            };
            used += 1;
            let game = game_key(path, gi as u64);
            for (ply, m) in moves.iter().enumerate() {
                if ply >= SKIP_PLIES {
                    out.push(Raw { fen: b.fen(), result: result as f32, game });
                }
                b.make_move(*m);
            }
        }
        eprintln!("{path}: {used} games ({skipped} left out), {} positions", out.len() - before);
    } else {
        for line in text.lines() {
            let mut f = line.split(';');
            let (Some(fen), Some(r), Some(g)) = (f.next(), f.next(), f.next()) else { continue };
            let (Ok(result), Ok(game)) = (r.trim().parse::<f32>(), g.trim().parse::<u64>()) else { continue };
            out.push(Raw { fen: fen.to_string(), result, game: game_key(path, game) });
        }
        eprintln!("{path}: {} positions", out.len() - before);
    }
}

/// A traced quiet position: its nonzero coefficients are `idx[start..end]`, `val[..]`.
struct Sample {
    start: usize,
    end: usize,
    /// Middlegame share phase / 24.
    rho: f64,
    scale: EgScale,
    /// Tempo in White's view (a constant of the position).
    tempo: f64,
    result: f64,
}

struct Set {
    samples: Vec<Sample>,
    idx: Vec<u16>,
    val: Vec<i16>,
}

/// Quiet leaves and traces, in parallel. Returns (set, positions in check or ending in check,
/// positions that were not quiet).
fn build(raw: &[Raw], threads: usize) -> (Set, usize, usize) {
    let chunk = raw.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Set, usize, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = raw
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut set = Set { samples: Vec::new(), idx: Vec::new(), val: Vec::new() };
                    let (mut dropped, mut moved) = (0, 0);
                    for r in part {
                        let Ok(b) = Board::from_fen(&r.fen) else {
                            dropped += 1;
                            continue;
                        };
                        if b.in_check() {
                            dropped += 1;
                            continue;
                        }
                        let Some(leaf) = quiescence_leaf(&b) else {
                            dropped += 1;
                            continue;
                        };
                        if leaf.key() != b.key() {
                            moved += 1;
                        }
                        let t = trace_eval(&leaf);
                        let start = set.idx.len();
                        for (i, &c) in t.coefficients.iter().enumerate() {
                            if c != 0 {
                                set.idx.push(i as u16);
                                set.val.push(c as i16);
                            }
                        }
                        set.samples.push(Sample {
                            start,
                            end: set.idx.len(),
                            rho: t.phase as f64 / 24.0,
                            scale: t.scale,
                            tempo: t.tempo_white() as f64,
                            result: r.result as f64,
                        });
                    }
                    (set, dropped, moved)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("worker")).collect()
    });
    let mut all = Set { samples: Vec::new(), idx: Vec::new(), val: Vec::new() };
    let (mut dropped, mut moved) = (0, 0);
    for (set, d, m) in parts {
        let off = all.idx.len();
        all.idx.extend_from_slice(&set.idx);
        all.val.extend_from_slice(&set.val);
        all.samples.extend(set.samples.into_iter().map(|s| Sample { start: s.start + off, end: s.end + off, ..s }));
        dropped += d;
        moved += m;
    }
    (all, dropped, moved)
}

/// ln(10) / 400: sigmoid(K * E) = 1 / (1 + exp(-K * E * LN10_400)).
const LN10_400: f64 = std::f64::consts::LN_10 / 400.0;

/// The evaluation (White's view) of sample `s` under weights `w` (mg at 2i, eg at 2i + 1)
/// and the divisor of its endgame part.
#[inline]
fn eval_of(set: &Set, s: &Sample, w: &[f64]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for j in s.start..s.end {
        let i = set.idx[j] as usize;
        let c = set.val[j] as f64;
        mg += c * w[2 * i];
        eg += c * w[2 * i + 1];
    }
    let d = s.scale.divisor(eg.round() as i32) as f64;
    (s.rho * mg + (1.0 - s.rho) * eg / d + s.tempo, d)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the set under weights `w` and scale `k`.
fn mse(set: &Set, w: &[f64], k: f64, threads: usize) -> f64 {
    let chunk = set.samples.len().div_ceil(threads.max(1)).max(1);
    let total: f64 = std::thread::scope(|scope| {
        let hs: Vec<_> = set
            .samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let (e, _) = eval_of(set, s, w);
                            (sigmoid(k * LN10_400 * e) - s.result).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("worker")).sum()
    });
    total / set.samples.len() as f64
}

/// Gradient of the mean squared error with respect to every weight half.
fn gradient(set: &Set, w: &[f64], k: f64, threads: usize) -> Vec<f64> {
    let chunk = set.samples.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
        let hs: Vec<_> = set
            .samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut g = vec![0.0; w.len()];
                    for s in part {
                        let (e, d) = eval_of(set, s, w);
                        let p = sigmoid(k * LN10_400 * e);
                        // d/dE (p - R)^2 = 2 (p - R) p (1 - p) K ln10/400.
                        let de = 2.0 * (p - s.result) * p * (1.0 - p) * k * LN10_400;
                        let (gm, ge) = (de * s.rho, de * (1.0 - s.rho) / d);
                        for j in s.start..s.end {
                            let i = set.idx[j] as usize;
                            let c = set.val[j] as f64;
                            g[2 * i] += c * gm;
                            g[2 * i + 1] += c * ge;
                        }
                    }
                    g
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("worker")).collect()
    });
    let n = set.samples.len() as f64;
    let mut g = vec![0.0; w.len()];
    for part in parts {
        for (a, b) in g.iter_mut().zip(part) {
            *a += b / n;
        }
    }
    g
}

/// The K minimising the error with weights `w`: golden-section search on [0.2, 3].
fn fit_k(set: &Set, w: &[f64], threads: usize) -> f64 {
    let (mut a, mut b) = (0.2f64, 3.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    while b - a > 1e-4 {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if mse(set, w, c, threads) < mse(set, w, d, threads) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// For each flat weight index, its left-right mirror when it is a square-table entry.
fn mirror_of() -> Vec<Option<usize>> {
    let mut m = vec![None; NUM_WEIGHTS];
    let mut off = 0;
    for &(name, len) in WEIGHT_FIELDS {
        if name == "pst" {
            for i in 0..len {
                let sq = i % 64;
                let mirrored = (i - sq) + (sq / 8) * 8 + (7 - sq % 8);
                m[off + i] = Some(off + mirrored);
            }
        }
        off += len;
    }
    m
}

/// The hand-set table the tuned one started from (rust/eval/classic.rs before Texel tuning): the
/// square tables from a formula (centralise knights, bishops, queens and the endgame king;
/// advance pawns; rooks on the seventh; king home in the middlegame), linear mobility around
/// a typical count, and hand-picked terms. `--start hand` tunes from it, so the table in use
/// can be reproduced.
fn hand_set() -> Weights {
    let s = Weights::score;
    // Distance of a file or rank from the board edge (0 on the edge, 3 in the centre).
    let centre = |x: i32| if x < 4 { x } else { 7 - x };
    let pst_value = |kind: usize, f: i32, r: i32| -> i32 {
        let (cf, cr) = (centre(f), centre(r));
        let c = cf + cr;
        match kind {
            1 => {
                let adv_mg = [0, 0, 1, 4, 10, 18, 30, 0][r as usize];
                let adv_eg = [0, 0, 3, 8, 16, 30, 50, 0][r as usize];
                let central = if (f == 3 || f == 4) && (r == 3 || r == 4) {
                    12
                } else if cf >= 2 && r >= 2 {
                    4
                } else {
                    0
                };
                s(adv_mg + central, adv_eg)
            }
            2 => s(10 * c - 36 + if (3..=5).contains(&r) { 6 } else { 0 }, 8 * c - 28),
            3 => {
                let diag = if f == r || f == 7 - r { 8 } else { 0 };
                s(4 * c - 10 + diag + if r == 0 { -6 } else { 0 }, 4 * c - 12)
            }
            4 => s(if r == 6 { 16 } else { 0 } + if cf >= 2 { 6 } else { 0 } - 3, if r == 6 { 10 } else { 0 }),
            5 => s(2 * c - 6, 5 * c - 15),
            _ => {
                let home = [22, 30, 8, -6, -6, 8, 32, 22][f as usize];
                let up = [0, -14, -34, -50, -60, -70, -70, -70][r as usize];
                s(home + up, 12 * c - 36)
            }
        }
    };
    let mut w = WEIGHTS;
    for k in 0..6 {
        for i in 0..64 {
            w.pst[k][i] = pst_value(k + 1, (i % 8) as i32, (i / 8) as i32);
        }
    }
    for n in 0..28 {
        let n32 = n as i32;
        if n < 9 {
            w.mobility_knight[n] = s(4, 4) * (n32 - 4);
        }
        if n < 14 {
            w.mobility_bishop[n] = s(5, 5) * (n32 - 6);
        }
        if n < 15 {
            w.mobility_rook[n] = s(2, 4) * (n32 - 7);
        }
        w.mobility_queen[n] = s(1, 2) * (n32 - 13);
    }
    let (pmg, peg) = ([0, 4, 8, 14, 26, 46, 75, 0], [0, 10, 14, 24, 42, 70, 110, 0]);
    for r in 0..8 {
        w.passed[r] = s(pmg[r], peg[r]);
        w.passed_blocked[r] = s(pmg[r] / 2, peg[r] * 2 / 3);
    }
    for u in 0..w.king_attack.len() {
        let pen = (2 * (u * u) as i32).min(600);
        w.king_attack[u] = s(pen, 0);
        w.king_attack_weak[u] = s(pen / 2, 0);
    }
    w.material = [s(82, 105), s(325, 300), s(335, 320), s(470, 530), s(980, 960)];
    w.bishop_pair = s(30, 50);
    w.rook_open = s(25, 10);
    w.rook_semi_open = s(12, 6);
    w.doubled = s(-10, -20);
    w.isolated = s(-10, -14);
    w.protected_pawn = s(6, 6);
    w.passed_king_them = s(0, 5);
    w.passed_king_us = s(0, -2);
    w.shield_near = s(12, 0);
    w.shield_far = s(6, 0);
    w.shield_missing = s(-14, 0);
    w.king_open_file = s(-14, 0);
    w
}

fn to_weights(w: &[f64]) -> Weights {
    let pairs: Vec<(i32, i32)> = w.chunks(2).map(|p| (p[0].round() as i32, p[1].round() as i32)).collect();
    Weights::from_pairs(&pairs).unwrap_or_else(|| die("a tuned weight left the i16 range"))
}

fn rounded(w: &[f64]) -> Vec<f64> {
    w.iter().map(|x| x.round()).collect()
}

fn main() {
    let args = parse_args();
    let t0 = std::time::Instant::now();
    let mut raw = Vec::new();
    for f in &args.files {
        load_raw(f, &mut raw);
    }
    let (train_raw, valid_raw): (Vec<Raw>, Vec<Raw>) = raw.into_iter().partition(|r| r.game % 10 != 0);
    let (train, d1, m1) = build(&train_raw, args.threads);
    let (valid, d2, m2) = build(&valid_raw, args.threads);
    drop((train_raw, valid_raw));
    eprintln!(
        "positions: {} train, {} validation; {} dropped (in check), {} replaced by their quiescence leaf; {:.0} s",
        train.samples.len(),
        valid.samples.len(),
        d1 + d2,
        m1 + m2,
        t0.elapsed().as_secs_f64()
    );

    let from = if args.hand_start { hand_set() } else { WEIGHTS };
    let start: Vec<f64> = from.to_pairs().iter().flat_map(|&(m, e)| [m as f64, e as f64]).collect();
    let k = args.k.unwrap_or_else(|| fit_k(&train, &start, args.threads));
    let (tr0, va0) = (mse(&train, &start, k, args.threads), mse(&valid, &start, k, args.threads));
    eprintln!("K = {k:.4}; current weights: train MSE {tr0:.6}, validation MSE {va0:.6}");

    // Tie the square tables left-right: start from the mirrored average, and move both
    // halves of a pair by their summed gradient.
    let mirror = if args.pst_free { vec![None; NUM_WEIGHTS] } else { mirror_of() };
    let mut w = start.clone();
    for (i, m) in mirror.iter().enumerate() {
        if let Some(j) = *m {
            for h in 0..2 {
                w[2 * i + h] = (start[2 * i + h] + start[2 * j + h]) / 2.0;
            }
        }
    }
    let anchor = w.clone();

    // Adam, full batch; the step decays linearly to a tenth; keep the best validation point.
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut best = (mse(&valid, &rounded(&w), k, args.threads), w.clone(), 0);
    for epoch in 1..=args.epochs {
        let mut g = gradient(&train, &w, k, args.threads);
        for i in 0..w.len() {
            g[i] += 2.0 * args.l2 * (w[i] - anchor[i]);
        }
        for (i, mi) in mirror.iter().enumerate() {
            if let Some(j) = *mi {
                if j > i {
                    for h in 0..2 {
                        let sum = g[2 * i + h] + g[2 * j + h];
                        g[2 * i + h] = sum;
                        g[2 * j + h] = sum;
                    }
                }
            }
        }
        let lr = args.lr * (1.0 - 0.9 * (epoch - 1) as f64 / args.epochs as f64);
        for i in 0..w.len() {
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
        if epoch % 25 == 0 || epoch == args.epochs {
            let r = rounded(&w);
            let (tr, va) = (mse(&train, &r, k, args.threads), mse(&valid, &r, k, args.threads));
            eprintln!("epoch {epoch:4}: train {tr:.6} validation {va:.6} ({:.0} s)", t0.elapsed().as_secs_f64());
            if va < best.0 {
                best = (va, w.clone(), epoch);
            }
        }
    }
    let (_, w, epoch) = best;
    let r = rounded(&w);
    let (tr1, va1) = (mse(&train, &r, k, args.threads), mse(&valid, &r, k, args.threads));
    eprintln!(
        "K = {k:.4}; before: train {tr0:.6} validation {va0:.6}; after (epoch {epoch}, rounded): train {tr1:.6} validation {va1:.6}"
    );
    let tuned = to_weights(&w);
    let old = from.to_pairs();
    let new = tuned.to_pairs();
    for (name, len) in [("material", 5), ("bishop_pair", 1), ("rook_open", 1), ("passed", 8)] {
        let off: usize = WEIGHT_FIELDS.iter().take_while(|f| f.0 != name).map(|f| f.1).sum();
        let show =
            |p: &[(i32, i32)]| p[off..off + len].iter().map(|(a, b)| format!("{a}/{b}")).collect::<Vec<_>>().join(" ");
        eprintln!("{name:12} {}  ->  {}", show(&old), show(&new));
    }
    let src = format!(
        "// Tuned by tools/texel.rs: K = {k:.4}, {} train / {} validation positions;\n\
         // MSE train {tr0:.6} -> {tr1:.6}, validation {va0:.6} -> {va1:.6}.\n{}",
        train.samples.len(),
        valid.samples.len(),
        tuned.rust_source()
    );
    if let Some(path) = &args.out {
        std::fs::write(path, &src).unwrap_or_else(|e| die(&format!("{path}: {e}")));
    }
    println!("{src}");
}
