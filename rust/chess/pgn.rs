//! Streaming PGN reading: a small tokenizer over any `Read` and a replay of each game's main
//! line with the core board, for `kibitz analyse` and `kibitz.read_games`.
//!
//! The grammar is the PGN standard's export/import format
//! (<https://www.chessprogramming.org/Portable_Game_Notation>): a tag section of
//! `[Name "value"]` pairs, then movetext of move numbers, SAN moves, NAGs (`$n`), suffix
//! marks (`!?`), comments (`{...}`, `; ...`), variations (`(...)`, skipped) and a result
//! (`1-0`, `0-1`, `1/2-1/2`, `*`). Lines starting with `%` are escapes and ignored.
//!
//! LF, CR LF and a lone CR each end a line (for `;` comments, `%` escapes and line numbers).
//! Text is UTF-8, or Windows-1252 where it is not valid UTF-8 (older files).
//!
//! Memory does not grow with the file: the reader holds one chunk of input and one game,
//! and tokens and tag sections are capped (MAX_TOKEN, MAX_TAGS), so any input, binary junk
//! included, is read in bounded memory; every pass of the tokenizer consumes input, so any
//! input is read to its end. A malformed game (a broken tag, a move that is not SAN, an
//! illegal or ambiguous move, a bad FEN tag, a variation never closed, a file that ends inside
//! the game) still comes out, with `error` saying what is wrong and where; the reader then
//! goes on with the next game, which a tag section at the start of a line begins.

use std::io::{ErrorKind, Read};

use crate::chess::board::Board;
use crate::chess::error::MoveError;
use crate::chess::fen::STARTPOS;
use crate::chess::types::Move;

/// Bytes read from the source at a time: large enough that the per-read cost (a Python
/// call when the source is a Python file object) vanishes, small enough to stay in L2.
const CHUNK: usize = 1 << 16;

/// The longest token kept (a SAN move, a tag name or value, a move number, unknown text):
/// longer ones are read to their end but cut, so a file of one endless token (a device, a
/// binary file) takes no more memory than a short one. Real tokens are far shorter.
pub(crate) const MAX_TOKEN: usize = 1 << 12;

/// The most tags kept for one game; more are read past and reported.
pub(crate) const MAX_TAGS: usize = 1 << 10;

/// The most bytes of a token quoted in a message.
const QUOTE_MAX: usize = 40;

/// One game as read: its tags in file order, its start position and its main line.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// 1-based position of the game in the input.
    pub index: u64,
    /// Line of the input on which the game starts (1-based).
    pub line: u64,
    /// The tag pairs in the order they appear.
    pub headers: Vec<(String, String)>,
    /// The start position (the FEN tag's, or the standard start).
    pub start_fen: String,
    /// Whether the start position is read as Chess960 (Variant tag).
    pub chess960: bool,
    /// The main line's moves in UCI notation, up to the first bad move.
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), when the game had one.
    pub result: Option<String>,
    /// What is wrong with the game, if anything (the first problem found).
    pub error: Option<String>,
}

/// Why reading stopped: the source itself failed (not a malformed game, which is reported
/// in the game's `error`).
#[derive(Debug)]
pub struct ReadError(pub std::io::Error);

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "reading the PGN input failed: {}", self.0)
    }
}

impl std::error::Error for ReadError {}

/// The game-by-game reader. `next_game` returns `Ok(None)` at the end of the input.
pub struct PgnReader<R: Read> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Current line number (1-based) and whether the next byte starts a line.
    line: u64,
    at_line_start: bool,
    /// Whether the last byte consumed was a carriage return (a CR LF pair is one line end).
    after_cr: bool,
    games: u64,
}

/// Bytes that may continue a symbol token (SAN moves, move numbers, results, tag names).
fn is_symbol(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/')
}

/// Bytes that end an unknown token: whitespace and the PGN delimiters.
fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';' | b'$' | b'"' | b'.')
}

impl<R: Read> PgnReader<R> {
    /// A reader over `src` (already decompressed; wrap it in a decoder for .gz / .zst).
    pub fn new(src: R) -> Self {
        PgnReader {
            src,
            buf: vec![0; CHUNK],
            pos: 0,
            end: 0,
            eof: false,
            line: 1,
            at_line_start: true,
            after_cr: false,
            games: 0,
        }
    }

    /// The source, e.g. to take an error it kept aside.
    pub fn source_mut(&mut self) -> &mut R {
        &mut self.src
    }

    /// The next byte without consuming it; refills the buffer as needed.
    #[inline]
    fn peek(&mut self) -> Result<Option<u8>, ReadError> {
        if self.pos < self.end {
            return Ok(Some(self.buf[self.pos]));
        }
        self.fill()?;
        Ok(if self.pos < self.end { Some(self.buf[self.pos]) } else { None })
    }

    fn fill(&mut self) -> Result<(), ReadError> {
        while !self.eof {
            match self.src.read(&mut self.buf) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.pos = 0;
                    self.end = n;
                    return Ok(());
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(ReadError(e)),
            }
        }
        self.pos = 0;
        self.end = 0;
        Ok(())
    }

    /// Consumes the byte `peek` returned. LF, CR LF and a lone CR each end a line.
    #[inline]
    fn bump(&mut self) {
        let b = self.buf[self.pos];
        self.pos += 1;
        match b {
            b'\n' => {
                if !self.after_cr {
                    self.line += 1;
                }
                self.at_line_start = true;
            }
            b'\r' => {
                self.line += 1;
                self.at_line_start = true;
            }
            _ => self.at_line_start = false,
        }
        self.after_cr = b == b'\r';
    }

    /// Skips to just past the end of the current line (or to the end of input): past its
    /// LF, its CR LF or its lone CR.
    fn skip_line(&mut self) -> Result<(), ReadError> {
        while let Some(b) = self.peek()? {
            self.bump();
            if b == b'\n' {
                break;
            }
            if b == b'\r' {
                if self.peek()? == Some(b'\n') {
                    self.bump();
                }
                break;
            }
        }
        Ok(())
    }

    /// Skips a `{...}` comment whose `{` is already consumed. False when the input ends first.
    fn skip_brace_comment(&mut self) -> Result<bool, ReadError> {
        while let Some(b) = self.peek()? {
            self.bump();
            if b == b'}' {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Reads a run of symbol bytes into `out` (cleared first; at most MAX_TOKEN kept).
    fn symbol(&mut self, out: &mut Vec<u8>) -> Result<(), ReadError> {
        out.clear();
        while let Some(b) = self.peek()? {
            if !is_symbol(b) {
                break;
            }
            if out.len() < MAX_TOKEN {
                out.push(b);
            }
            self.bump();
        }
        Ok(())
    }

    /// Skips whitespace, comments and escape lines between games. Returns the next byte
    /// (not consumed), or None at the end of the input.
    fn skip_between_games(&mut self) -> Result<Option<u8>, ReadError> {
        loop {
            let Some(b) = self.peek()? else { return Ok(None) };
            if (b == b'%' && self.at_line_start) || b == b';' {
                self.skip_line()?;
            } else if b == b'{' {
                self.bump();
                self.skip_brace_comment()?;
            } else if b.is_ascii_whitespace() || b == 0xEF || b == 0xBB || b == 0xBF {
                // Whitespace, and the bytes of a UTF-8 byte-order mark some editors write.
                self.bump();
            } else {
                return Ok(Some(b));
            }
        }
    }

    /// Reads one tag pair whose `[` is next. Err(message) for a broken tag, after skipping
    /// the rest of its line.
    fn tag(&mut self, name: &mut Vec<u8>) -> Result<Result<(String, String), String>, ReadError> {
        let line = self.line;
        self.bump(); // '['
        self.skip_inline_space()?;
        self.symbol(name)?;
        let broken = |why: &str| format!("broken tag on line {line}: {why}");
        if self.peek()?.is_none() {
            return Ok(Err(broken("the input ends inside the tag")));
        }
        if name.is_empty() {
            self.skip_line()?;
            return Ok(Err(broken("expected a tag name after '['")));
        }
        self.skip_inline_space()?;
        if self.peek()? != Some(b'"') {
            self.skip_line()?;
            return Ok(Err(broken("expected a quoted value after the tag name")));
        }
        self.bump();
        let mut value = Vec::new();
        loop {
            match self.peek()? {
                None => return Ok(Err(broken("the input ends inside the tag's value"))),
                Some(b'\n' | b'\r') => {
                    self.skip_line()?;
                    return Ok(Err(broken("the tag's value has no closing quote")));
                }
                Some(b'\\') => {
                    self.bump();
                    if let Some(c) = self.peek()? {
                        if c != b'\n' && c != b'\r' {
                            if value.len() < MAX_TOKEN {
                                value.push(c);
                            }
                            self.bump();
                        }
                    }
                }
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(c) => {
                    if value.len() < MAX_TOKEN {
                        value.push(c);
                    }
                    self.bump();
                }
            }
        }
        self.skip_inline_space()?;
        if self.peek()?.is_none() {
            return Ok(Err(broken("the input ends inside the tag")));
        }
        if self.peek()? != Some(b']') {
            self.skip_line()?;
            return Ok(Err(broken("expected ']' after the tag's value")));
        }
        self.bump();
        Ok(Ok((decode_text(name), decode_text(&value))))
    }

    fn skip_inline_space(&mut self) -> Result<(), ReadError> {
        while let Some(b) = self.peek()? {
            if b == b' ' || b == b'\t' {
                self.bump();
            } else {
                break;
            }
        }
        Ok(())
    }

    /// The next game, or None at the end of the input.
    pub fn next_game(&mut self) -> Result<Option<PgnGame>, ReadError> {
        let Some(_) = self.skip_between_games()? else { return Ok(None) };
        self.games += 1;
        let mut game = PgnGame {
            index: self.games,
            line: self.line,
            headers: Vec::new(),
            start_fen: STARTPOS.to_string(),
            chess960: false,
            moves: Vec::new(),
            result: None,
            error: None,
        };
        let mut token = Vec::with_capacity(16);

        // The tag section.
        while let Some(b'[') = self.skip_between_games()? {
            match self.tag(&mut token)? {
                Ok(_) if game.headers.len() >= MAX_TAGS => {
                    game.error.get_or_insert_with(|| format!("more than {MAX_TAGS} tags"));
                }
                Ok(pair) => game.headers.push(pair),
                Err(why) => {
                    if game.error.is_none() {
                        game.error = Some(why);
                    }
                }
            }
        }

        // The start position.
        let mut board = self.start_board(&mut game);

        // The movetext, up to the result, the next tag section or the end of the input.
        // Every pass of this loop consumes at least one byte: the input always moves on.
        let mut depth = 0u32; // variation nesting
        let mut opened_on = 0u64; // line of the outermost open variation's '('
        let mut ended = false;
        while let Some(b) = self.peek()? {
            match b {
                b'[' if self.at_line_start => {
                    // The next game's tags: this one had no result token. A variation still
                    // open here was never closed; recovering here keeps the later games.
                    if depth > 0 && game.error.is_none() {
                        game.error = Some(format!(
                            "the variation opened on line {opened_on} is never closed (the next game's tags start on line {})",
                            self.line
                        ));
                    }
                    ended = true;
                    break;
                }
                b'%' if self.at_line_start => self.skip_line()?,
                b';' => self.skip_line()?,
                b'{' => {
                    let line = self.line;
                    self.bump();
                    if !self.skip_brace_comment()? {
                        if game.error.is_none() {
                            game.error = Some(format!("the input ends inside a comment opened on line {line}"));
                        }
                        break;
                    }
                }
                b'*' if depth == 0 => {
                    self.bump();
                    game.result = Some("*".to_string());
                    ended = true;
                    break;
                }
                b'(' => {
                    if depth == 0 {
                        opened_on = self.line;
                    }
                    self.bump();
                    depth += 1;
                }
                b')' => {
                    self.bump();
                    depth = depth.saturating_sub(1);
                }
                b'$' => {
                    // A NAG: `$` and its digits (what follows them is the next token).
                    self.bump();
                    while let Some(b'0'..=b'9') = self.peek()? {
                        self.bump();
                    }
                }
                _ if b.is_ascii_whitespace() || matches!(b, b'.' | b'!' | b'?' | b'[' | b']' | b'}' | b'*') => {
                    self.bump()
                }
                _ if is_symbol(b) => {
                    let line = self.line;
                    self.symbol(&mut token)?;
                    if depth > 0 {
                        continue;
                    }
                    if token.iter().all(u8::is_ascii_digit) {
                        continue; // a move number; its dots are skipped as they come
                    }
                    if matches!(&token[..], b"1-0" | b"0-1" | b"1/2-1/2") {
                        game.result = Some(String::from_utf8_lossy(&token).into_owned());
                        ended = true;
                        break;
                    }
                    if self.peek()?.is_none() {
                        break; // the input ends inside the movetext: the token may be cut short
                    }
                    if let Some(board) = board.as_mut() {
                        if let Err(why) = play(board, &token, line, &mut game) {
                            game.error = Some(why);
                        }
                    }
                }
                _ => {
                    // Bytes that cannot start any PGN token (a stray quote, a figurine in
                    // UTF-8, binary junk): a bad move. The first byte is taken whatever it
                    // is, then the rest of the token up to a delimiter.
                    let line = self.line;
                    token.clear();
                    token.push(b);
                    self.bump();
                    while let Some(c) = self.peek()? {
                        if is_delimiter(c) {
                            break;
                        }
                        if token.len() < MAX_TOKEN {
                            token.push(c);
                        }
                        self.bump();
                    }
                    if depth == 0 && game.error.is_none() {
                        game.error = Some(format!("not a move in SAN: {} on line {line}", quote(&token)));
                    }
                }
            }
            if game.error.is_some() {
                // Stop replaying at the first problem; read on to the game's end.
                board = None;
            }
        }
        if !ended && game.error.is_none() {
            game.error = Some(if depth > 0 {
                format!("truncated: the input ends inside the variation opened on line {opened_on}")
            } else {
                "truncated: the input ends before the game's result".to_string()
            });
        }
        Ok(Some(game))
    }

    /// The game's start position from its FEN and Variant tags, or None (with `error` set)
    /// when they are unusable.
    fn start_board(&self, game: &mut PgnGame) -> Option<Board> {
        let tag = |name: &str| game.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
        if let Some(variant) = tag("Variant") {
            match variant.to_ascii_lowercase().as_str() {
                "" | "standard" | "chess" | "from position" => {}
                "chess960" | "chess 960" | "fischerandom" | "fischer random" | "fischer random chess" => {
                    game.chess960 = true
                }
                _ => {
                    game.error.get_or_insert_with(|| {
                        format!("unsupported variant {variant:?}: kibitz plays standard chess and Chess960")
                    });
                    return None;
                }
            }
        }
        if let Some(fen) = tag("FEN") {
            match Board::from_fen_with(&fen, game.chess960) {
                Ok(b) => {
                    game.start_fen = b.fen();
                    return if game.error.is_some() { None } else { Some(b) };
                }
                Err(e) => {
                    game.error.get_or_insert_with(|| format!("bad FEN tag {fen:?}: {e}"));
                    return None;
                }
            }
        }
        let board = Board::from_fen_with(STARTPOS, game.chess960).ok()?;
        if game.error.is_some() {
            None
        } else {
            Some(board)
        }
    }
}

/// Plays one SAN token on `board`, recording its UCI text in `game.moves`.
fn play(board: &mut Board, token: &[u8], line: u64, game: &mut PgnGame) -> Result<(), String> {
    // Where the move stands, for messages only (built on the error path, not per move).
    let at = |board: &Board| {
        let dots = if board.side_to_move() == crate::chess::types::WHITE { "." } else { "..." };
        format!("at {}{dots} (ply {}, line {line})", board.fullmove_number(), board.ply() + 1)
    };
    let Ok(text) = std::str::from_utf8(token) else {
        return Err(format!("not a move in SAN: {} {}", quote(token), at(board)));
    };
    if token.len() > QUOTE_MAX {
        return Err(format!("not a move in SAN: {} {}: far too long", quote(token), at(board)));
    }
    if text == "--" || text == "Z0" {
        return Err(format!("null move {text} {}: null moves are not analysable", at(board)));
    }
    let m: Move = board.parse_san(text).map_err(|e| match e {
        MoveError::Invalid(t, why) => format!("not a move in SAN: {t:?} {}: {why}", at(board)),
        MoveError::Illegal(t, fen) => format!("illegal move {t} {} in {fen}", at(board)),
        MoveError::Ambiguous(t, fen) => format!("ambiguous move {t} {} in {fen}", at(board)),
    })?;
    game.moves.push(board.move_to_uci(m));
    board.make_move(m);
    Ok(())
}

/// Text from the input as a string: UTF-8 when it is valid UTF-8, else Windows-1252 (the
/// encoding of most older PGN files, a superset of Latin-1's printable characters).
pub fn decode_text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| windows_1252(b)).collect(),
    }
}

/// One Windows-1252 byte as a character (the five unassigned bytes as the C1 controls of
/// the same number, as the WHATWG Encoding Standard maps them).
fn windows_1252(b: u8) -> char {
    const HIGH: [u16; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ];
    match b {
        0x80..=0x9F => char::from_u32(u32::from(HIGH[usize::from(b - 0x80)])).unwrap_or('\u{FFFD}'),
        _ => char::from(b),
    }
}

/// A token quoted for a message: decoded as `decode_text` does, cut to QUOTE_MAX bytes
/// (with the full length said), with Rust's escapes for quotes and control characters.
fn quote(token: &[u8]) -> String {
    if token.len() <= QUOTE_MAX {
        return format!("{:?}", decode_text(token));
    }
    let mut cut = QUOTE_MAX;
    while cut > 0 && std::str::from_utf8(&token[..cut]).is_err() && std::str::from_utf8(token).is_ok() {
        cut -= 1; // not inside a UTF-8 character
    }
    let more = if token.len() >= MAX_TOKEN { format!("at least {MAX_TOKEN}") } else { token.len().to_string() };
    format!("{:?}... ({more} bytes)", decode_text(&token[..cut]))
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}
