//! Helpers shared by the Texel-tuning examples (`selfplay` writes training positions,
//! `texel` fits the evaluation to them; the NNUE trainer takes its random generator): a
//! small seeded random generator, a PGN reader and the training-data line format.
//!
//! Data line format, one position per line: `FEN;RESULT;GAME` where RESULT is White's
//! score (1, 0.5 or 0) and GAME an integer naming the game the position comes from (the
//! tuner splits train / validation by game, so one game never sits on both sides).

#![allow(dead_code)] // each example uses a different part

use kibitz::Board;

/// SplitMix64 (<https://prng.di.unimi.it/splitmix64.c> describes the constants): tiny,
/// seedable, good enough for picking openings and random plies.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }
    /// Uniform in 0..n (n > 0); the modulo bias is irrelevant for n this small.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
    /// Fisher-Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// SplitMix64's output function: a well-mixed hash of a 64-bit value.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One game of a PGN file: its start position, its main line in UCI, its result ("1-0",
/// "0-1", "1/2-1/2" or "*"), its Termination / Reason tags, and what is wrong with it.
pub struct PgnGame {
    pub fen: String,
    pub chess960: bool,
    pub moves: Vec<String>,
    pub result: String,
    pub termination: String,
    pub error: Option<String>,
}

/// The games of PGN text, read by kibitz's PGN reader (the one `kibitz.read_games` and the
/// analyser use): comments, variations, NAGs and move numbers are skipped; the result is
/// the movetext's, else the Result tag's.
pub fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut reader = kibitz::PgnReader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Ok(Some(g)) = reader.next_game() {
        let tag = |name: &str| g.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let result = g.result.clone().or_else(|| tag("Result").map(str::to_string)).unwrap_or_else(|| "*".into());
        let termination = [tag("Termination"), tag("Reason")].into_iter().flatten().collect::<Vec<_>>().join(" ");
        games.push(PgnGame {
            fen: g.start_fen,
            chess960: g.chess960,
            moves: g.moves,
            result,
            termination,
            error: g.error,
        });
    }
    games
}

/// The start board of a game and its moves, None for a game with a problem (a bad move,
/// a cut file).
pub fn replay(g: &PgnGame) -> Option<(Board, Vec<kibitz::Move>)> {
    if g.error.is_some() {
        return None;
    }
    let start = Board::from_fen_with(&g.fen, g.chess960).ok()?;
    let mut b = start.clone();
    let mut moves = Vec::new();
    for uci in &g.moves {
        let m = b.parse_uci(uci).ok()?;
        b.make_move(m);
        moves.push(m);
    }
    Some((start, moves))
}

/// White's score for a PGN result, None for an unfinished game.
pub fn result_score(result: &str) -> Option<f64> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The directory of the default opening files: `$KIBITZ_OPENINGS`, else `data/openings`
/// beside the working directory.
fn openings_dir() -> String {
    std::env::var("KIBITZ_OPENINGS").unwrap_or_else(|_| "data/openings".to_string())
}

/// The opening files the self-play tools use when none are named: `balanced_8ply.pgn`,
/// `eco_balanced.pgn` and `middlegame_4000.fen` from [`openings_dir`], those that exist.
pub fn default_opening_files() -> Vec<String> {
    let dir = openings_dir();
    ["balanced_8ply.pgn", "eco_balanced.pgn", "middlegame_4000.fen"]
        .iter()
        .map(|f| format!("{dir}/{f}"))
        .filter(|path| std::path::Path::new(path).exists())
        .collect()
}

/// The start positions of a run: those of `files`, or where no file is named, of
/// [`default_opening_files`]; where there are none of those either, the start position
/// alone, with a warning on stderr (`tool` names the program), because a run from the
/// start position is not comparable with one from the opening files.
pub fn start_positions(tool: &str, files: &[String]) -> Result<Vec<String>, String> {
    let files = if files.is_empty() { default_opening_files() } else { files.to_vec() };
    if files.is_empty() {
        eprintln!(
            "{tool}: warning: no opening files given and none found in {} (set KIBITZ_OPENINGS); \
             every game starts from the start position plus the random plies",
            openings_dir()
        );
        return Ok(vec![kibitz::STARTPOS.to_string()]);
    }
    let fens = load_openings(&files)?;
    if fens.is_empty() {
        return Err(format!("no start positions in {}", files.join(", ")));
    }
    Ok(fens)
}

/// Start positions (FENs) from PGN files (each game's final position) and FEN/EPD files
/// (one position a line).
pub fn load_openings(paths: &[String]) -> Result<Vec<String>, String> {
    let mut fens = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"))?;
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
    Ok(fens)
}

/// Adjudication shared by the self-play tools (`selfplay`, `nodematch`): a win when the
/// scores of both sides' searches agree on 10 pawns for 6 plies (or on a mate two plies
/// running), a draw after 80 plies within 0.10 pawn for 12 plies or after 400 plies.
pub struct Adjudicator {
    /// White-POV scores, one per ply.
    history: Vec<i32>,
}

const ADJ_WIN: i32 = 1000;
const ADJ_WIN_PLIES: usize = 6;
const ADJ_DRAW_FROM: usize = 80;
const ADJ_DRAW_MARGIN: i32 = 10;
const ADJ_DRAW_PLIES: usize = 12;
/// Longer games are called drawn (self-play at these node counts rarely gets near it).
pub const MAX_PLIES: usize = 400;

impl Adjudicator {
    pub fn new() -> Adjudicator {
        Adjudicator { history: Vec::new() }
    }

    /// Plies recorded so far.
    pub fn plies(&self) -> usize {
        self.history.len()
    }

    /// Records the search score of the move about to be played (White's view) and returns
    /// White's result (1, 0.5, 0) if the game is adjudicated now.
    pub fn record(&mut self, white_score: i32) -> Option<f64> {
        self.history.push(white_score);
        let history = &self.history;
        let n = history.len();
        if n >= ADJ_WIN_PLIES {
            let tail = &history[n - ADJ_WIN_PLIES..];
            if tail.iter().all(|&s| s >= ADJ_WIN) {
                return Some(1.0);
            }
            if tail.iter().all(|&s| s <= -ADJ_WIN) {
                return Some(0.0);
            }
        }
        if n >= ADJ_DRAW_FROM.max(ADJ_DRAW_PLIES)
            && history[n - ADJ_DRAW_PLIES..].iter().all(|&s| s.abs() <= ADJ_DRAW_MARGIN)
        {
            return Some(0.5);
        }
        // A mate score ends it too: the searches at these node counts find short mates.
        if white_score.abs() >= kibitz::MATE_BOUND && n >= 2 && history[n - 2].abs() >= kibitz::MATE_BOUND {
            return Some(if white_score > 0 { 1.0 } else { 0.0 });
        }
        None
    }
}
