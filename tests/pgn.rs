//! The PGN reader (rust/chess/pgn.rs) without Python: tokens, bad games, chunk boundaries.
//! The expected moves are the games' SAN translated by hand; python-chess checks the same
//! reader on larger files in tests/python/test_analyse.py.

use std::io::Read;

use kibitz::{PgnGame, PgnReader};

const TEXT: &str = "% an escape line\n\
[Event \"A \\\"quoted\\\" name\"]\n[Result \"1-0\"]\n\n\
1. e4 {a comment} e5 2. Nf3 $1 (2. f4 exf4) Nc6 ; rest of line\n3. Bb5 a6 4. O-O 1-0\n\n\
[Event \"bad\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n\
[Event \"fen\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 1\"]\n\n1... Kd7 2. O-O *\n\n\
[Event \"cut\"]\n\n1. d4 d";

fn read_all<R: Read>(r: R) -> Vec<PgnGame> {
    PgnReader::new(r).map(|g| g.expect("reading from memory cannot fail")).collect()
}

/// A reader that hands out one byte per call: every chunk boundary the tokenizer can meet.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() || buf.is_empty() {
            return Ok(0);
        }
        buf[0] = self.0[0];
        self.0 = &self.0[1..];
        Ok(1)
    }
}

#[test]
fn games_tags_moves_and_errors() {
    let games = read_all(TEXT.as_bytes());
    assert_eq!(games.len(), 4);
    let g = &games[0];
    assert_eq!(g.index, 1);
    assert_eq!(g.headers[0], ("Event".to_string(), "A \"quoted\" name".to_string()));
    assert_eq!(g.moves, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"]);
    assert_eq!(g.result.as_deref(), Some("1-0"));
    assert!(g.error.is_none());

    let bad = &games[1];
    assert_eq!(bad.moves, ["e2e4", "e7e5"]);
    let why = bad.error.as_deref().unwrap();
    assert!(why.starts_with("illegal move Ke3 at 2. (ply 3"), "{why}");

    let fen = &games[2];
    assert!(fen.error.is_none(), "{:?}", fen.error);
    assert_eq!(fen.moves, ["e8d7", "e1g1"]);
    assert_eq!(fen.start_fen, "4k3/8/8/8/8/8/8/4K2R b K - 0 1");

    let cut = &games[3];
    assert_eq!(cut.moves, ["d2d4"]);
    assert!(cut.error.as_deref().unwrap().starts_with("truncated"));
}

#[test]
fn chunk_boundaries_change_nothing() {
    let whole = read_all(TEXT.as_bytes());
    let trickled = read_all(Trickle(TEXT.as_bytes()));
    assert_eq!(whole.len(), trickled.len());
    for (a, b) in whole.iter().zip(&trickled) {
        assert_eq!((&a.headers, &a.moves, &a.result, &a.error), (&b.headers, &b.moves, &b.result, &b.error));
    }
}

#[test]
fn broken_tags_and_junk_are_reported_per_game() {
    let text = "[Event \"no end\n[Result \"*\"]\n\n1. e4 *\n\n[Event \"ok\"]\n\n1. e4 \u{2658}f6 *\n\n[Event \"v\"]\n[Variant \"crazyhouse\"]\n\n1. e4 *\n";
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 3);
    assert!(games[0].error.as_deref().unwrap().starts_with("broken tag on line 1"));
    assert!(games[1].error.as_deref().unwrap().starts_with("not a move in SAN"));
    assert!(games[2].error.as_deref().unwrap().starts_with("unsupported variant"));
}

#[test]
fn every_byte_of_input_moves_the_reader_on() {
    // A quote in movetext once stopped the reader from consuming anything.
    let games = read_all(&b"1. e4 \" e5 *\n\n[Event \"b\"]\n\n1. d4 *\n"[..]);
    assert_eq!(games.len(), 2);
    assert!(games[0].error.as_deref().unwrap().starts_with("not a move in SAN: \"\\\"\""));
    assert_eq!(games[1].moves, ["d2d4"]);
    let all: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    assert!(!read_all(&all[..]).is_empty());
    assert!(!read_all(Trickle(&all)).is_empty());
}

#[test]
fn lone_cr_line_ends_close_comments_and_escapes() {
    let text = b"[Event \"a\"]\r\r1. e4 ; to the line's end\re5\r% escape\r*\r\r[Event \"b\"]\r\r1. d4 *\r";
    let games = read_all(&text[..]);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].moves, ["e2e4", "e7e5"]);
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    assert_eq!((games[1].line, &games[1].moves[..]), (8, &["d2d4".to_string()][..]));
}

#[test]
fn an_open_variation_ends_at_the_next_tag_section() {
    let games = read_all(&b"1. e4 (1. d4 d5 e5 *\n\n[Event \"b\"]\n\n1. c4 *\n"[..]);
    assert_eq!(games.len(), 2);
    assert!(games[0].error.as_deref().unwrap().contains("variation opened on line 1 is never closed"));
    assert_eq!(games[1].moves, ["c2c4"]);
}

#[test]
fn an_endless_tag_section_is_capped() {
    let mut text = Vec::new();
    for i in 0..3000 {
        text.extend_from_slice(format!("[T{i} \"v\"]\n").as_bytes());
    }
    text.extend_from_slice(b"\n1. e4 *\n");
    let games = read_all(&text[..]);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].headers.len(), 1024);
    assert!(games[0].error.as_deref().unwrap().starts_with("more than"));
}
