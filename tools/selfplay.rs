//! Self-play games for training the evaluation: the engine plays itself with a node limit
//! per move, and the positions it meets are written with the game's final result -- as text
//! for Texel tuning (`--format text`, the default: every position out of check), or as
//! binary records for training a neural evaluation (`--format nnue`: quiet positions only,
//! with the search's score).
//!
//! `cargo run --release --example selfplay -- --games N --out FILE [--format text|nnue]
//!  [--nodes 5000] [--threads 2] [--seed 1] [--random-plies 2] [OPENINGS...]`
//!
//! Reproducible: game g is played from its own random generator, seeded by (seed, g), on a
//! cleared table with node limits, so the same arguments give the same games whatever the
//! thread count or timing; only their order in the file differs (records carry the game
//! number: sort by it, or compare the sorted record sets).
//!
//! The `nnue` record, 32 bytes, little-endian, after an 8-byte file header `KBZDATA1`:
//! occupancy u64 (bit i = square i, a1 = 0); 16 bytes of piece codes, one nibble per
//! occupied square in increasing square order, low nibble first (code = kind 1..6 for
//! White, kind + 8 for Black, as in the core); side to move u8 (0 White, 1 Black); result
//! u8 (0 Black won, 1 draw, 2 White won); score i16, the search's score in centipawns from
//! White's point of view; game number u32. A position is recorded when the side to move is
//! not in check, the move the search chose is neither a capture nor a promotion, and the
//! score is not a mate score: the net learns from quiet positions, where the static
//! evaluation is meant to hold.
//!
//! OPENINGS are PGN files (each game's final position is a start position) or FEN/EPD files
//! (one position a line); the default is the directory `$KIBITZ_OPENINGS` (else
//! `data/openings`; the start position, with a warning, when neither exists). Each game starts from
//! a random one of them plus `--random-plies` uniformly random moves for variety, and is
//! rejected if a quick search then finds one side already clearly ahead. The node limit
//! varies by +-25% per move so that repeated openings do not replay the same game.
//!
//! Adjudication saves time where the result is no longer in doubt: a win once the search
//! has reported at least 10 pawns for the same side on 6 plies in a
//! row, a draw once the game is 80 plies long and the score has stayed within
//! 0.10 pawn for 12 plies (texel_common::Adjudicator). Output lines are `FEN;RESULT;GAME` (see
//! texel_common), appended game by game, so a stopped run keeps what it finished.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a command-line tool: printing is its job

mod texel_common;

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use kibitz::{sq120, Board, Engine, Limits, Move, MoveList, Outcome, EMPTY, MATE_BOUND, WHITE};
use texel_common::{start_positions, Adjudicator, Rng, MAX_PLIES};

/// A start position is rejected when a quick search gives either side more than this.
const START_MARGIN: i32 = 200;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Nnue,
}

/// First bytes of a `--format nnue` file (its version is the last character).
const NNUE_MAGIC: &[u8; 8] = b"KBZDATA1";

struct Args {
    games: u64,
    nodes: u64,
    threads: usize,
    seed: u64,
    random_plies: usize,
    format: Format,
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
        format: Format::Text,
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
            "--format" => {
                a.format = match val("--format").as_str() {
                    "text" => Format::Text,
                    "nnue" => Format::Nnue,
                    f => die(&format!("--format is text or nnue, not {f}")),
                }
            }
            _ if x.starts_with("--") => die(&format!("unknown option {x}")),
            _ => a.openings.push(x),
        }
    }
    if a.out.is_empty() {
        die("--out FILE is required");
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

/// White's point of view of a side-to-move score.
fn white_pov(b: &Board, score: i32) -> i32 {
    if b.side_to_move() == WHITE {
        score
    } else {
        -score
    }
}

/// A position met in a game: the board, the search's score (White's view) and whether it
/// is quiet (not in check, the chosen move neither a capture nor a promotion).
struct Seen {
    board: Board,
    score_white: i32,
    in_check: bool,
    quiet: bool,
}

/// Plays one game; returns the positions met and White's result, or None when the start
/// position was rejected.
fn play_game(engine: &mut Engine, start: &str, args: &Args, rng: &mut Rng) -> Option<(Vec<Seen>, f64)> {
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

    let mut seen = Vec::new();
    let mut adj = Adjudicator::new();
    let result = loop {
        match b.outcome(true) {
            Outcome::WhiteWins => break 1.0,
            Outcome::BlackWins => break 0.0,
            Outcome::Draw => break 0.5,
            Outcome::Ongoing => {}
        }
        if adj.plies() >= MAX_PLIES {
            break 0.5;
        }
        // +-25% nodes per move.
        let nodes = (args.nodes as f64 * (0.75 + 0.5 * rng.unit())) as u64;
        let limits = Limits { nodes: Some(nodes.max(1)), multipv: 1, ..Default::default() };
        let out = engine.search(&b, &limits, &stop, &mut |_| true);
        let (Some(best), Some(line)) = (out.best, out.lines.first()) else { break 0.5 };
        let ws = white_pov(&b, line.score);
        let in_check = b.in_check();
        let quiet = !in_check && !is_tactical(&b, best) && line.score.abs() < MATE_BOUND;
        seen.push(Seen { board: b.clone(), score_white: ws, in_check, quiet });
        if let Some(r) = adj.record(ws) {
            break r;
        }
        b.make_move(best);
    };
    Some((seen, result))
}

/// Captures (en passant included) and promotions.
fn is_tactical(b: &Board, m: Move) -> bool {
    m.is_promotion() || m.is_en_passant() || (!m.is_castle() && b.piece_at(m.to()) != EMPTY)
}

/// The 32-byte `nnue` record of a position (format in the header comment).
fn nnue_record(s: &Seen, result: f64, game: u64) -> [u8; 32] {
    let mut r = [0u8; 32];
    let mut occ = 0u64;
    let mut nibbles = 0usize;
    for sq in 0..64 {
        let p = s.board.piece_at(sq120(sq % 8, sq / 8));
        if p != EMPTY {
            occ |= 1 << sq;
            r[8 + nibbles / 2] |= (p & 15) << (4 * (nibbles % 2));
            nibbles += 1;
        }
    }
    r[..8].copy_from_slice(&occ.to_le_bytes());
    r[24] = s.board.side_to_move() as u8;
    r[25] = (result * 2.0) as u8;
    r[26..28].copy_from_slice(&(s.score_white.clamp(-32767, 32767) as i16).to_le_bytes());
    r[28..32].copy_from_slice(&(game as u32).to_le_bytes());
    r
}

fn main() {
    let args = parse_args();
    let openings = start_positions("selfplay", &args.openings).unwrap_or_else(|e| die(&e));
    eprintln!(
        "selfplay: {} start positions, {} games, {} nodes/move, {} threads",
        openings.len(),
        args.games,
        args.nodes,
        args.threads
    );
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .unwrap_or_else(|e| die(&format!("{}: {e}", args.out)));
    let existing = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut out = std::io::BufWriter::new(file);
    if args.format == Format::Nnue {
        // A new file gets the header; appending to an old one checks it.
        if existing == 0 {
            out.write_all(NNUE_MAGIC).unwrap_or_else(|e| die(&format!("write: {e}")));
        } else {
            let head = std::fs::read(&args.out).unwrap_or_else(|e| die(&format!("{}: {e}", args.out)));
            if head.len() < 8 || &head[..8] != NNUE_MAGIC || !(head.len() - 8).is_multiple_of(32) {
                die(&format!("{} exists and is not a {} record file", args.out, String::from_utf8_lossy(NNUE_MAGIC)));
            }
        }
    }
    let out = Mutex::new(out);
    let next_game = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            let (args, openings, out, next_game, positions) = (&args, &openings, &out, &next_game, &positions);
            scope.spawn(move || {
                let mut engine = Engine::new(16);
                loop {
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    if g >= args.games {
                        break;
                    }
                    // Each game its own generator (SplitMix64 decorrelates nearby seeds).
                    let mut rng = Rng::new(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
                    let (seen, result) = loop {
                        let start = &openings[rng.below(openings.len())];
                        if let Some(r) = play_game(&mut engine, start, args, &mut rng) {
                            break r;
                        }
                    };
                    // Game ids: seed in the high part so runs with other seeds never collide.
                    let id = args.seed * 10_000_000 + g;
                    let mut bytes = Vec::new();
                    let mut n = 0u64;
                    for p in &seen {
                        match args.format {
                            Format::Text if !p.in_check => {
                                bytes.extend_from_slice(format!("{};{result};{id}\n", p.board.fen()).as_bytes());
                                n += 1;
                            }
                            Format::Nnue if p.quiet => {
                                bytes.extend_from_slice(&nnue_record(p, result, g));
                                n += 1;
                            }
                            _ => {}
                        }
                    }
                    let mut w = out.lock().expect("writer");
                    w.write_all(&bytes).unwrap_or_else(|e| die(&format!("write: {e}")));
                    w.flush().unwrap_or_else(|e| die(&format!("write: {e}")));
                    drop(w);
                    let p = positions.fetch_add(n, Ordering::Relaxed) + n;
                    if (g + 1) % 50 == 0 {
                        let t = started.elapsed().as_secs_f64();
                        eprintln!(
                            "game {} positions {} ({:.0} s, {:.0} positions/hour)",
                            g + 1,
                            p,
                            t,
                            p as f64 * 3600.0 / t
                        );
                    }
                }
            });
        }
    });
    eprintln!(
        "selfplay: done, {} positions in {:.0} s",
        positions.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
}
