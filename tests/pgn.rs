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

/// A reader that reads what python-chess reads for training data: null moves, and FEN tags
/// through a fallback (here: an empty board for the one FEN the test gives it).
fn read_lenient(text: &str) -> Vec<PgnGame> {
    let fallback = |fen: &str, _chess960: bool| {
        if fen.starts_with("8/8/8/8/8/8/8/8") {
            Ok(("8/8/8/8/8/8/8/8 w - - 0 1".to_string(), false))
        } else if fen.starts_with("rk5r") {
            // Rights only Chess960 has (the kings on b1 and b8): python-chess reads Chess960.
            Ok(("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1".to_string(), true))
        } else {
            Err("not a FEN".to_string())
        }
    };
    let reader = PgnReader::new(text.as_bytes()).with_null_moves().with_fen_fallback(Box::new(fallback));
    reader.map(|g| g.expect("reading from memory cannot fail")).collect()
}

#[test]
fn a_tag_with_an_unescaped_quote_is_read_as_python_chess_reads_it() {
    // chess.pgn.TAG_REGEX: the value runs from the first quote to the last `"]` of the line.
    let text = "[Event \"Say \"hi\" there\"]\n[Site \"C:\\\"]\n[White \"O\"Kelly\"]  \n[Result \"1-0\"]\n\n1. e4 1-0\n";
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.error.is_none(), "{:?}", g.error);
    let tags: Vec<(&str, &str)> = g.headers.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(tags, [("Event", "Say \"hi\" there"), ("Site", "C:\\"), ("White", "O\"Kelly"), ("Result", "1-0")]);
    assert_eq!(g.moves, ["e2e4"]);
    let trickled = PgnReader::new(Trickle(text.as_bytes())).next().unwrap().unwrap();
    assert_eq!(trickled.headers, g.headers);
    // A line too long to keep: the value cut as values are, the line still read to its end.
    let long = format!("[Event \"{}\"x\"]\n\n1. d4 *\n", "y".repeat(20_000));
    let g = &read_all(long.as_bytes())[0];
    assert_eq!((g.headers[0].1.len(), &g.moves[..]), (4096, &["d2d4".to_string()][..]));
    assert!(g.error.is_none(), "{:?}", g.error);
}

#[test]
fn a_tag_line_python_chess_ignores_is_reported_but_the_game_is_replayed() {
    let games = read_all(&b"[Event \"no end\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n"[..]);
    let g = &games[0];
    assert!(g.error.as_deref().unwrap().starts_with("broken tag on line 1"));
    assert!(g.whole);
    assert_eq!((&g.moves[..], g.final_result()), (&["e2e4".to_string(), "e7e5".to_string()][..], "1-0"));
}

#[test]
fn the_result_is_the_tag_unless_it_is_missing_or_a_star() {
    let text = "[Result \"0-1\"]\n\n1. e4 1-0\n\n[Result \"1-0\"]\n\n1. e4 *\n\n[Result \"*\"]\n\n1. e4 1/2-1/2\n\n\
                [Event \"no tag\"]\n\n1. e4 0-1\n\n[Result \"1-0\"]\n[Result \"0-1\"]\n\n1. e4 *\n\n[Result \"?\"]\n\n1. e4 1-0\n";
    let games = read_all(text.as_bytes());
    let results: Vec<&str> = games.iter().map(PgnGame::final_result).collect();
    assert_eq!(results, ["0-1", "1-0", "1/2-1/2", "0-1", "0-1", "?"]);
    assert_eq!(games[1].result.as_deref(), Some("*")); // the token itself is kept as read
}

#[test]
fn a_game_the_input_ends_in_is_whole_and_its_last_move_is_played() {
    // Ending between two tokens, it is a game without its result token (as python-chess
    // reads a game pasted without `*`): no error, the Result tag's result.
    let games = read_all(&b"[Result \"1-0\"]\n\n1. e4 e5 2. Nf3"[..]);
    let g = &games[0];
    assert_eq!(g.moves, ["e2e4", "e7e5", "g1f3"]);
    assert!(g.whole && g.error.is_none(), "{:?}", g.error);
    assert_eq!(g.final_result(), "1-0");
    // The old en-passant suffix, apart or glued to the move, is read past.
    for text in ["1. e4 a6 2. e5 d5 3. exd6 e.p. Nf6 *", "1. e4 a6 2. e5 d5 3. exd6e.p. Nf6 *"] {
        let games = read_all(text.as_bytes());
        assert_eq!(games[0].moves, ["e2e4", "a7a6", "e4e5", "d7d5", "e5d6", "g8f6"], "{text}");
        assert!(games[0].error.is_none(), "{text}: {:?}", games[0].error);
    }
    // A token cut short is left, not reported as a bad move, and the game is truncated.
    let games = read_all(&b"1. e4 e5 2. N"[..]);
    assert_eq!(games[0].moves, ["e2e4", "e7e5"]);
    assert!(games[0].whole && games[0].error.as_deref().unwrap().starts_with("truncated"));
    // Inside a comment, and with a variation open at the next game's tags, too.
    let games = read_all(&b"1. e4 (1. d4 d5\n[Event \"b\"]\n\n1. d4 {cut"[..]);
    assert!(games.iter().all(|g| g.whole && g.error.is_some()));
    assert_eq!((&games[0].moves, &games[1].moves), (&vec!["e2e4".to_string()], &vec!["d2d4".to_string()]));
}

#[test]
fn null_moves_are_read_only_when_asked_for_and_never_in_check() {
    let text = "1. e4 -- 2. d4 Z0 3. Nf3 0000 4. Nc3 @@@@ 1-0\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ -- 1-0\n";
    let plain = read_all(text.as_bytes());
    assert!(plain[0].error.as_deref().unwrap().starts_with("null move -- at 1... (ply 2"));
    assert!(!plain[0].whole);
    let games = read_lenient(text);
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    assert_eq!(games[0].moves, ["e2e4", "0000", "d2d4", "0000", "g1f3", "0000", "b1c3", "0000"]);
    assert!(games[1].error.as_deref().unwrap().contains("in check"), "{:?}", games[1].error);
    assert!(!games[1].whole);
}

#[test]
fn a_fen_the_fallback_reads_starts_a_game_without_moves_only() {
    let text = "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n[Result \"1-0\"]\n\n1-0\n\n\
                [FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. Ke2 1-0\n\n[FEN \"junk\"]\n\n1-0\n";
    let games = read_lenient(text);
    assert!(games[0].error.is_none() && games[0].whole, "{:?}", games[0].error);
    assert_eq!(games[0].start_fen, "8/8/8/8/8/8/8/8 w - - 0 1");
    assert!(!games[1].whole && games[1].error.as_deref().unwrap().contains("kibitz cannot play this position"));
    assert_eq!(games[2].error.as_deref(), Some("bad FEN tag \"junk\": not a FEN"));
    let games = read_lenient("[FEN \"rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1\"]\n\n1. O-O *\n");
    assert!(games[0].error.is_none() && games[0].chess960, "{:?}", games[0].error);
    assert_eq!(games[0].moves, ["b1h1"]);
    // Without a fallback the strict reader's refusal stands.
    let strict = read_all(text.as_bytes());
    assert!(strict.iter().all(|g| !g.whole && g.error.as_deref().unwrap().starts_with("bad FEN tag")));
}

#[test]
fn two_blank_lines_end_a_game_of_tags_alone() {
    // python-chess ends the tag section at a second blank line in a row; one is skipped.
    let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n\n[Event \"b\"]\n\n[Result \"0-1\"]\n\n1. e4 0-1\n";
    let games = read_all(text.as_bytes());
    assert_eq!(games.len(), 2);
    assert!(games[0].error.is_none() && games[0].moves.is_empty(), "{:?}", games[0].error);
    assert_eq!((games[0].final_result(), games[1].final_result()), ("1-0", "0-1"));
    assert_eq!((games[1].headers.len(), &games[1].moves[..]), (2, &["e2e4".to_string()][..]));
    let crlf = read_all(text.replace('\n', "\r\n").as_bytes());
    assert_eq!(crlf.len(), 2);
    // After a tag line read whole (python-chess's reading) too.
    let quoted = text.replace("[Result \"1-0\"]", "[Result \"1-0\"]\n[White \"O\"Kelly\"]");
    assert_eq!(read_all(quoted.as_bytes()).len(), 2);
}
