//! Helpers shared by the Texel-tuning examples (`selfplay` writes training positions,
//! `texel` fits the evaluation to them): a small seeded random generator, a PGN reader
//! and the training-data line format.
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
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n (n > 0); the modulo bias is irrelevant for n this small.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One game of a PGN file: its start position, its moves in SAN and its result ("1-0",
/// "0-1", "1/2-1/2" or "*").
pub struct PgnGame {
    pub fen: Option<String>,
    pub sans: Vec<String>,
    pub result: String,
    pub termination: String,
}

/// Splits PGN text into games. Comments (`{}` and `;`), variations, NAGs and move numbers
/// are skipped; the result is taken from the Result tag (the movetext's last token agrees
/// in well-formed files).
pub fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut cur: Option<PgnGame> = None;
    let mut in_moves = false;
    let mut brace = false;
    let mut paren = 0usize;
    let new_game = || PgnGame { fen: None, sans: Vec::new(), result: "*".into(), termination: String::new() };
    for line in text.lines() {
        let t = line.trim();
        if !brace && paren == 0 && t.starts_with('[') {
            if in_moves || cur.is_none() {
                if let Some(g) = cur.take() {
                    games.push(g);
                }
                cur = Some(new_game());
                in_moves = false;
            }
            let g = cur.as_mut().expect("just set");
            if let Some((tag, value)) = parse_tag(t) {
                match tag {
                    "FEN" => g.fen = Some(value.to_string()),
                    "Result" => g.result = value.to_string(),
                    "Termination" | "Reason" => {
                        g.termination.push_str(value);
                        g.termination.push(' ');
                    }
                    _ => {}
                }
            }
            continue;
        }
        if t.is_empty() && !brace {
            continue;
        }
        in_moves = true;
        let g = cur.get_or_insert_with(new_game);
        let mut word = String::new();
        let flush = |w: &mut String, g: &mut PgnGame| {
            if !w.is_empty() {
                push_token(w, g);
                w.clear();
            }
        };
        for ch in line.chars() {
            if brace {
                brace = ch != '}';
                continue;
            }
            match ch {
                '{' => {
                    flush(&mut word, g);
                    brace = true;
                }
                '(' => {
                    flush(&mut word, g);
                    paren += 1;
                }
                ')' => {
                    word.clear();
                    paren = paren.saturating_sub(1);
                }
                ';' if paren == 0 => break,
                c if c.is_whitespace() => {
                    if paren == 0 {
                        flush(&mut word, g);
                    } else {
                        word.clear();
                    }
                }
                c => word.push(c),
            }
        }
        if paren == 0 {
            flush(&mut word, g);
        }
    }
    if let Some(g) = cur {
        games.push(g);
    }
    games
}

fn parse_tag(t: &str) -> Option<(&str, &str)> {
    let inner = t.strip_prefix('[')?.strip_suffix(']')?;
    let (tag, rest) = inner.split_once(' ')?;
    Some((tag, rest.trim().trim_matches('"')))
}

/// A movetext token: a SAN move is kept, move numbers, NAGs and results are dropped.
fn push_token(w: &str, g: &mut PgnGame) {
    if matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*") || w.starts_with('$') {
        return;
    }
    // "12." or "12..." alone, or glued to the move ("12.e4").
    let w = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    if !w.is_empty() {
        g.sans.push(w.to_string());
    }
}

/// The start board of a game and the boards after each of its moves (as long as they parse).
pub fn replay(g: &PgnGame) -> Option<(Board, Vec<kibitz::Move>)> {
    let start = match &g.fen {
        Some(f) => Board::from_fen(f).ok()?,
        None => Board::startpos(),
    };
    let mut b = start.clone();
    let mut moves = Vec::new();
    for san in &g.sans {
        let m = b.parse_san(san).ok()?;
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
