//! Self-play games for Texel tuning: the engine plays itself with a node limit per move and
//! every position it meets (out of check) is written with the game's final result.
//!
//! `cargo run --release --example selfplay -- --games N --out FILE [--nodes 5000]
//!  [--threads 2] [--seed 1] [--random-plies 2] [OPENINGS...]`
//!
//! OPENINGS are PGN files (each game's final position is a start position) or FEN/EPD files
//! (one position a line); the default is /work/shared/data/openings/. Each game starts from
//! a random one of them plus `--random-plies` uniformly random moves for variety, and is
//! rejected if a quick search then finds one side already clearly ahead. The node limit
//! varies by +-25% per move so that repeated openings do not replay the same game.
//!
//! Adjudication saves time where the result is no longer in doubt: a win once the search
//! has reported at least ADJ_WIN centipawns for the same side on ADJ_WIN_PLIES plies in a
//! row, a draw once the game is ADJ_DRAW_FROM plies long and the score has stayed within
//! ADJ_DRAW_MARGIN for ADJ_DRAW_PLIES plies. Output lines are `FEN;RESULT;GAME` (see
//! texel_common), appended game by game, so a stopped run keeps what it finished.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a command-line tool: printing is its job

mod texel_common;

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use kibitz::{Board, Engine, Limits, MoveList, Outcome, MATE_BOUND, WHITE};
use texel_common::{read_pgn, replay, Rng};

/// Win adjudication: a score of 10 pawns on 6 consecutive plies (both sides' searches agree).
const ADJ_WIN: i32 = 1000;
const ADJ_WIN_PLIES: usize = 6;
/// Draw adjudication: after 80 plies, within 0.10 pawn for 12 consecutive plies.
const ADJ_DRAW_FROM: usize = 80;
const ADJ_DRAW_MARGIN: i32 = 10;
const ADJ_DRAW_PLIES: usize = 12;
/// Longer games are called drawn (self-play at these node counts rarely gets near it).
const MAX_PLIES: usize = 400;
/// A start position is rejected when a quick search gives either side more than this.
const START_MARGIN: i32 = 200;

struct Args {
    games: u64,
    nodes: u64,
    threads: usize,
    seed: u64,
    random_plies: usize,
    out: String,
    openings: Vec<String>,
}

fn parse_args() -> Args {
    let mut a = Args {
        games: 100,
        nodes: 5000,
        threads: 2,
        seed: 1,
        random_plies: 2,
        out: String::new(),
        openings: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        let mut val = |name: &str| it.next().unwrap_or_else(|| die(&format!("{name} needs a value")));
        match x.as_str() {
            "--games" => a.games = num(&val("--games")),
            "--nodes" => a.nodes = num(&val("--nodes")),
            "--threads" => a.threads = num(&val("--threads")),
            "--seed" => a.seed = num(&val("--seed")),
            "--random-plies" => a.random_plies = num(&val("--random-plies")),
            "--out" => a.out = val("--out"),
            _ if x.starts_with("--") => die(&format!("unknown option {x}")),
            _ => a.openings.push(x),
        }
    }
    if a.out.is_empty() {
        die("--out FILE is required");
    }
    if a.openings.is_empty() {
        let dir = "/work/shared/data/openings";
        for f in ["balanced_8ply.pgn", "eco_balanced.pgn", "middlegame_4000.fen"] {
            a.openings.push(format!("{dir}/{f}"));
        }
    }
    a
}

fn num<T: std::str::FromStr>(s: &str) -> T {
    s.parse().unwrap_or_else(|_| die(&format!("not a number: {s}")))
}

fn die(msg: &str) -> ! {
    eprintln!("selfplay: {msg}");
    std::process::exit(2)
}

/// Start positions (FENs) from PGN and FEN/EPD files.
fn load_openings(paths: &[String]) -> Vec<String> {
    let mut fens = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(p).unwrap_or_else(|e| die(&format!("{p}: {e}")));
        if p.ends_with(".pgn") {
            for g in read_pgn(&text) {
                if let Some((start, moves)) = replay(&g) {
                    let mut b = start;
                    for m in moves {
                        b.make_move(m);
                    }
                    fens.push(b.fen());
                }
            }
        } else {
            for line in text.lines() {
                // EPD lines carry 4 fields plus operations; FEN lines 6.
                let f: Vec<&str> = line.split_whitespace().take(6).collect();
                if f.len() >= 4 {
                    let fen = if f.len() == 6 && f[4].parse::<u32>().is_ok() { f.join(" ") } else { f[..4].join(" ") };
                    if Board::from_fen(&fen).is_ok() {
                        fens.push(fen);
                    }
                }
            }
        }
    }
    fens
}

/// White's point of view of a side-to-move score.
fn white_pov(b: &Board, score: i32) -> i32 {
    if b.side_to_move() == WHITE {
        score
    } else {
        -score
    }
}

/// Plays one game; returns the recorded FENs and White's result, or None when the start
/// position was rejected.
fn play_game(engine: &mut Engine, start: &str, args: &Args, rng: &mut Rng) -> Option<(Vec<String>, f64)> {
    let stop = AtomicBool::new(false);
    let mut b = Board::from_fen(start).ok()?;
    let mut ml = MoveList::new();
    for _ in 0..args.random_plies {
        ml.clear();
        b.generate_legal(&mut ml);
        if ml.is_empty() {
            return None;
        }
        b.make_move(ml[rng.below(ml.len())]);
    }
    // Forget the history: the game starts here (repetitions before it do not count).
    let mut b = Board::from_fen(&b.fen()).ok()?;
    engine.clear();
    let probe = Limits { nodes: Some(args.nodes), multipv: 1, ..Default::default() };
    let out = engine.search(&b, &probe, &stop, &mut |_| true);
    if out.lines.first().is_none_or(|l| l.score.abs() > START_MARGIN) {
        return None;
    }

    let mut fens = Vec::new();
    let mut history: Vec<i32> = Vec::new(); // White-POV scores, one per ply
    let result = loop {
        match b.outcome(true) {
            Outcome::WhiteWins => break 1.0,
            Outcome::BlackWins => break 0.0,
            Outcome::Draw => break 0.5,
            Outcome::Ongoing => {}
        }
        if history.len() >= MAX_PLIES {
            break 0.5;
        }
        // +-25% nodes per move.
        let nodes = (args.nodes as f64 * (0.75 + 0.5 * rng.unit())) as u64;
        let limits = Limits { nodes: Some(nodes.max(1)), multipv: 1, ..Default::default() };
        let out = engine.search(&b, &limits, &stop, &mut |_| true);
        let (Some(best), Some(line)) = (out.best, out.lines.first()) else { break 0.5 };
        if !b.in_check() {
            fens.push(b.fen());
        }
        let ws = white_pov(&b, line.score);
        history.push(ws);
        let n = history.len();
        if n >= ADJ_WIN_PLIES {
            let tail = &history[n - ADJ_WIN_PLIES..];
            if tail.iter().all(|&s| s >= ADJ_WIN) {
                break 1.0;
            }
            if tail.iter().all(|&s| s <= -ADJ_WIN) {
                break 0.0;
            }
        }
        if n >= ADJ_DRAW_FROM.max(ADJ_DRAW_PLIES)
            && history[n - ADJ_DRAW_PLIES..].iter().all(|&s| s.abs() <= ADJ_DRAW_MARGIN)
        {
            break 0.5;
        }
        // A mate score ends it too: the searches at these node counts find short mates.
        if line.score.abs() >= MATE_BOUND && n >= 2 && history[n - 2].abs() >= MATE_BOUND {
            break if ws > 0 { 1.0 } else { 0.0 };
        }
        b.make_move(best);
    };
    Some((fens, result))
}

fn main() {
    let args = parse_args();
    let openings = load_openings(&args.openings);
    if openings.is_empty() {
        die("no start positions");
    }
    eprintln!("selfplay: {} start positions, {} games, {} nodes/move, {} threads", openings.len(), args.games, args.nodes, args.threads);
    let out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .unwrap_or_else(|e| die(&format!("{}: {e}", args.out)));
    let out = Mutex::new(std::io::BufWriter::new(out));
    let next_game = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for t in 0..args.threads {
            let (args, openings, out, next_game, positions) = (&args, &openings, &out, &next_game, &positions);
            scope.spawn(move || {
                let mut rng = Rng::new(args.seed.wrapping_mul(1_000_003).wrapping_add(t as u64));
                let mut engine = Engine::new(16);
                loop {
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    if g >= args.games {
                        break;
                    }
                    let (fens, result) = loop {
                        let start = &openings[rng.below(openings.len())];
                        if let Some(r) = play_game(&mut engine, start, args, &mut rng) {
                            break r;
                        }
                    };
                    // Game ids: seed in the high part so runs with other seeds never collide.
                    let id = args.seed * 10_000_000 + g;
                    let mut text = String::new();
                    for f in &fens {
                        text.push_str(&format!("{f};{result};{id}\n"));
                    }
                    let mut w = out.lock().expect("writer");
                    w.write_all(text.as_bytes()).unwrap_or_else(|e| die(&format!("write: {e}")));
                    w.flush().unwrap_or_else(|e| die(&format!("write: {e}")));
                    drop(w);
                    let p = positions.fetch_add(fens.len() as u64, Ordering::Relaxed) + fens.len() as u64;
                    if (g + 1) % 50 == 0 {
                        eprintln!("game {} positions {} ({:.0} s)", g + 1, p, started.elapsed().as_secs_f64());
                    }
                }
            });
        }
    });
    eprintln!("selfplay: done, {} positions in {:.0} s", positions.load(Ordering::Relaxed), started.elapsed().as_secs_f64());
}
