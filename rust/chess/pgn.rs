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
//! a comment, a variation or a move) still comes out, with `error` saying what is wrong and where; the reader then
//! goes on with the next game, which a tag section at the start of a line begins.
//!
//! Where python-chess (`chess.pgn.read_game`) reads past a fault, so does the replay: a tag
//! line it ignores, a variation left open when the next game's tags begin and the input ending
//! inside the game are reported in `error` but leave `whole` set, with the main line read to
//! its end, so that training data (`kibitz.pgn_to_tensors`) loses no game python-chess reads.
//! An input that ends between two tokens of a game without its result token ends that game
//! with no error at all (a game pasted without `*`), and the old en-passant suffix `e.p.`
//! after a move is read past, as there.

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

/// The most bytes of a tag line kept to read it as python-chess does when it is not a tag
/// pair of the standard's (`python_chess_tag`): a value of MAX_TOKEN bytes with room for its
/// name and padding. The value of a longer line is cut, as values are.
const MAX_TAG_LINE: usize = 2 * MAX_TOKEN;

/// The null moves python-chess reads (`chess.Board.parse_san`, its movetext pattern): `--`
/// is the PGN standard's, `Z0` ChessBase's, `0000` UCI's and `@@@@` python-chess's own.
const NULL_MOVES: [&[u8]; 4] = [b"--", b"Z0", b"0000", b"@@@@"];

/// Turns a FEN tag the core's strict reader refuses (and whether the game is Chess960 so far)
/// into the FEN of the position python-chess reads from it (missing fields filled in, castling
/// rights without their rook and an en-passant square no pawn can have crossed dropped: what
/// `kibitz.Board(fen)` holds) and whether python-chess reads the game as Chess960 (it does
/// when the FEN's castling rights are only Chess960's, a king off e1 or e8 say), or says why
/// it is no FEN at all. Given by the caller (`with_fen_fallback`): those rules are the Python
/// board's.
pub type FenFallback = Box<dyn FnMut(&str, bool) -> Result<(String, bool), String>>;

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
    /// Whether `moves` is the whole main line and `result` the game's result token, as
    /// python-chess reads them: true without `error`, and when the only problems are ones
    /// python-chess reads past (a tag line it ignores, a variation left open at the next
    /// game's tags, the input ending inside the game); false once a problem stopped the replay
    /// (a token that is not SAN, an illegal or ambiguous move, a bad FEN or Variant tag, a
    /// null move where they are not read, more than MAX_TAGS tags).
    pub whole: bool,
}

impl PgnGame {
    /// Records a problem that stops the replay (`whole` becomes false).
    fn stop(&mut self, why: String) {
        self.error.get_or_insert(why);
        self.whole = false;
    }

    /// Records a problem python-chess reads past: the replay goes on.
    fn note(&mut self, why: String) {
        self.error.get_or_insert(why);
    }

    /// The last tag of this name (python-chess keeps the last of repeated tags).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.headers.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The game's result as python-chess gives it (`game.headers["Result"]`): the Result tag
    /// unless it is missing or `*`, else the result token of the movetext, else `*`. A tag
    /// that says something else than a result token (`?`, `1/2`) is given as it is.
    pub fn final_result(&self) -> &str {
        match self.tag("Result") {
            Some(tag) if tag != "*" => tag,
            _ => self.result.as_deref().unwrap_or("*"),
        }
    }
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
    /// Whether null moves are read (`with_null_moves`).
    null_moves: bool,
    /// How FEN tags the strict reader refuses are read (`with_fen_fallback`).
    fen_fallback: Option<FenFallback>,
}

/// Python's whitespace (`str.isspace`, what `\s` matches in python-chess's patterns): Unicode
/// White_Space and the four ASCII separators U+001C..U+001F.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The bytes of a tag line as read from its `[`, for `python_chess_tag`: the first
/// MAX_TAG_LINE of them, and where the last `"]` that only ASCII whitespace follows starts
/// (for lines longer than that).
#[derive(Default)]
struct TagLine {
    head: Vec<u8>,
    len: usize,
    close: Option<usize>,
    prev: u8,
}

impl TagLine {
    fn push(&mut self, b: u8) {
        if self.head.len() < MAX_TAG_LINE {
            self.head.push(b);
        }
        if b == b']' && self.prev == b'"' {
            self.close = Some(self.len - 1);
        } else if !(b.is_ascii_whitespace() || (0x1c..=0x1f).contains(&b)) {
            self.close = None;
        }
        self.prev = b;
        self.len += 1;
    }

    /// The line as python-chess reads it (`python_chess_tag`), the value cut to MAX_TOKEN bytes.
    fn read(&self) -> Option<(String, String)> {
        let text = if self.len <= MAX_TAG_LINE {
            decode_text(&self.head)
        } else {
            // Too long to keep: the head, closed where the line's last `"]` stands.
            let mut head = self.head[..self.close?.min(MAX_TAG_LINE)].to_vec();
            head.extend_from_slice(b"\"]");
            decode_text(&head)
        };
        let (name, value) = python_chess_tag(&text)?;
        let mut cut = value.len().min(MAX_TOKEN);
        while !value.is_char_boundary(cut) {
            cut -= 1;
        }
        Some((name.to_string(), value[..cut].to_string()))
    }
}

/// A tag line (from its `[`, without its line end) as python-chess's `TAG_REGEX` reads it,
/// `^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$`: the name, then the value as
/// written (no escape undone), from the first quote to the last `"]` that only whitespace
/// follows. None where the pattern does not match (python-chess ignores such a line).
fn python_chess_tag(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('[')?;
    if !rest.as_bytes().first()?.is_ascii_alphanumeric() {
        return None;
    }
    let name_len = rest.bytes().take_while(|&b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b)).count();
    let (name, rest) = rest.split_at(name_len);
    let spaced = rest.trim_start_matches(is_py_space);
    if spaced.len() == rest.len() {
        return None; // `\s+`: at least one
    }
    let inner = spaced.strip_prefix('"')?;
    // The greedy value ends at the last `"]`; no earlier one can have only whitespace after it.
    let end = inner.rfind("\"]")?;
    inner[end + 2..].chars().all(is_py_space).then(|| (name, &inner[..end]))
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
            null_moves: false,
            fen_fallback: None,
        }
    }

    /// Reads null moves (`--`, `Z0`, `0000`, `@@@@`) as python-chess does: the turn passes
    /// (`moves` has `0000`). A null move in check is still an error (the position after it is
    /// no legal position; python-chess plays it). Without this a null move is an error.
    pub fn with_null_moves(mut self) -> Self {
        self.null_moves = true;
        self
    }

    /// Reads the FEN tags the strict reader refuses through `fallback` (see `FenFallback`).
    /// A position the core still cannot play (an empty board, no king) is the start of a
    /// game only when no move follows: a move is an error, as without a fallback.
    pub fn with_fen_fallback(mut self, fallback: FenFallback) -> Self {
        self.fen_fallback = Some(fallback);
        self
    }

    /// The source, e.g. to take an error it kept aside.
    /// The games read so far (the number of the last one).
    pub fn games_read(&self) -> u64 {
        self.games
    }

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

    /// `skip_between_games` between two tags, where python-chess's tag section ends at a
    /// second blank line in a row: the game then has no movetext. Returns the next byte (not
    /// consumed), or None at the end of the input or of such a game.
    fn skip_between_tags(&mut self) -> Result<Option<u8>, ReadError> {
        let mut blank_lines = 0;
        let mut line = self.line;
        // The line read so far is blank: not on a tag's own line, yes at the start of the next.
        let mut blank = self.at_line_start;
        loop {
            let Some(b) = self.peek()? else { return Ok(None) };
            if (b == b'%' && self.at_line_start) || b == b';' {
                // Comment lines count neither as blank nor as tags, as python-chess skips them.
                self.skip_line()?;
                (line, blank) = (self.line, true);
            } else if b == b'{' {
                self.bump();
                self.skip_brace_comment()?;
                blank = false;
            } else if b.is_ascii_whitespace() || b == 0xEF || b == 0xBB || b == 0xBF {
                self.bump();
                if self.line != line {
                    if blank {
                        blank_lines += 1;
                        if blank_lines == 2 {
                            return Ok(None);
                        }
                    }
                    (line, blank) = (self.line, true);
                }
            } else {
                return Ok(Some(b));
            }
        }
    }

    /// Reads one tag pair whose `[` is next: `[Name "value"]` with the standard's escapes
    /// (`\"`, `\\`) undone, and more tags or movetext may follow on the line. A line that does
    /// not read so (a quote inside the value left unescaped, `[Event "Say "hi" there"]`; a
    /// value ending in a backslash, `[Site "C:\"]`) is read whole as python-chess reads it
    /// (`python_chess_tag`: the value as written, to the line's last `"]`). Err(message) for
    /// a line that reads neither way (python-chess ignores it), after skipping it.
    fn tag(&mut self, name: &mut Vec<u8>) -> Result<Result<(String, String), String>, ReadError> {
        let line = self.line;
        let mut raw = TagLine::default();
        let why = self.standard_tag(name, &mut raw)?;
        let why = match why {
            Ok(value) => return Ok(Ok((decode_text(name), decode_text(&value)))),
            Err(why) => why,
        };
        // The rest of the line, then python-chess's reading of all of it.
        while let Some(b) = self.peek()? {
            if b == b'\n' || b == b'\r' {
                break;
            }
            raw.push(b);
            self.bump();
        }
        self.skip_line()?;
        Ok(raw.read().ok_or_else(|| format!("broken tag on line {line}: {why}")))
    }

    /// The standard's reading of a tag pair whose `[` is next, every byte consumed also kept
    /// in `raw`: the value's bytes, or why the line is no such tag (the line then read up to
    /// where that showed).
    fn standard_tag(
        &mut self,
        name: &mut Vec<u8>,
        raw: &mut TagLine,
    ) -> Result<Result<Vec<u8>, &'static str>, ReadError> {
        // Consumes the byte `peek` gave, keeping it in `raw`.
        fn take<R: Read>(r: &mut PgnReader<R>, raw: &mut TagLine, b: u8) {
            raw.push(b);
            r.bump();
        }
        take(self, raw, b'[');
        let space = |r: &mut Self, raw: &mut TagLine| -> Result<(), ReadError> {
            while let Some(b @ (b' ' | b'\t')) = r.peek()? {
                take(r, raw, b);
            }
            Ok(())
        };
        space(self, raw)?;
        name.clear();
        while let Some(b) = self.peek()? {
            if !is_symbol(b) {
                break;
            }
            if name.len() < MAX_TOKEN {
                name.push(b);
            }
            take(self, raw, b);
        }
        if self.peek()?.is_none() {
            return Ok(Err("the input ends inside the tag"));
        }
        if name.is_empty() {
            return Ok(Err("expected a tag name after '['"));
        }
        space(self, raw)?;
        if self.peek()? != Some(b'"') {
            return Ok(Err("expected a quoted value after the tag name"));
        }
        take(self, raw, b'"');
        let mut value = Vec::new();
        loop {
            match self.peek()? {
                None => return Ok(Err("the input ends inside the tag's value")),
                Some(b'\n' | b'\r') => return Ok(Err("the tag's value has no closing quote")),
                Some(b'\\') => {
                    take(self, raw, b'\\');
                    if let Some(c) = self.peek()? {
                        if c != b'\n' && c != b'\r' {
                            if value.len() < MAX_TOKEN {
                                value.push(c);
                            }
                            take(self, raw, c);
                        }
                    }
                }
                Some(b'"') => {
                    take(self, raw, b'"');
                    break;
                }
                Some(c) => {
                    if value.len() < MAX_TOKEN {
                        value.push(c);
                    }
                    take(self, raw, c);
                }
            }
        }
        space(self, raw)?;
        match self.peek()? {
            None => Ok(Err("the input ends inside the tag")),
            Some(b']') => {
                self.bump();
                Ok(Ok(value))
            }
            Some(_) => Ok(Err("expected ']' after the tag's value")),
        }
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
            whole: true,
        };
        let mut token = Vec::with_capacity(16);

        // The tag section.
        let mut next = self.peek()?;
        while next == Some(b'[') {
            match self.tag(&mut token)? {
                Ok(_) if game.headers.len() >= MAX_TAGS => game.stop(format!("more than {MAX_TAGS} tags")),
                Ok(pair) => game.headers.push(pair),
                Err(why) => game.note(why),
            }
            next = self.skip_between_tags()?;
        }
        // Two blank lines, or the end of the input, end a game of tags alone (as python-chess
        // reads it): no movetext, nothing cut short.
        let tags_only = next.is_none();

        // The start position; `unplayable` says why a position the fallback read cannot be
        // played, an error only when a move follows.
        let (mut board, mut unplayable) = self.start_board(&mut game);

        // The movetext, up to the result, the next tag section or the end of the input.
        // Every pass of this loop consumes at least one byte: the input always moves on.
        let mut depth = 0u32; // variation nesting
        let mut opened_on = 0u64; // line of the outermost open variation's '('
        let mut ended = tags_only;
        // The input ended in a token that is no move here (a move cut short, `Nf` of `Nf3`).
        let mut cut = false;
        while let Some(b) = self.peek()?.filter(|_| !tags_only) {
            match b {
                b'[' if self.at_line_start => {
                    // The next game's tags: this one had no result token. A variation still
                    // open here was never closed; recovering here keeps the later games.
                    if depth > 0 {
                        game.note(format!(
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
                        game.note(format!("the input ends inside a comment opened on line {line}"));
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
                    if token.iter().all(u8::is_ascii_digit) && token != b"0000" {
                        continue; // a move number; its dots are skipped as they come
                    }
                    if token.last() == Some(&b'e') && self.peek()? == Some(b'.') {
                        // The old suffix of an en-passant capture, `exd6 e.p.` (or `exd6e.p.`),
                        // which python-chess reads past; any other `e.` is no move.
                        self.bump();
                        let p = self.peek()? == Some(b'p');
                        if p {
                            self.bump();
                        }
                        if p && self.peek()? == Some(b'.') {
                            self.bump();
                            token.pop();
                            if token.is_empty() {
                                continue;
                            }
                        } else {
                            token.push(b'.');
                            if p {
                                token.push(b'p');
                            }
                        }
                    }
                    if matches!(&token[..], b"1-0" | b"0-1" | b"1/2-1/2") {
                        game.result = Some(String::from_utf8_lossy(&token).into_owned());
                        ended = true;
                        break;
                    }
                    let at_end = self.peek()?.is_none();
                    cut = !self.movetext_move(&token, line, at_end, board.as_mut(), &mut unplayable, &mut game);
                    if at_end {
                        break;
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
                    if depth == 0 {
                        if token == b"@@@@" {
                            let at_end = self.peek()?.is_none();
                            cut = !self.movetext_move(&token, line, at_end, board.as_mut(), &mut unplayable, &mut game);
                        } else {
                            game.stop(format!("not a move in SAN: {} on line {line}", quote(&token)));
                        }
                    }
                }
            }
            if !game.whole {
                // Stop replaying at the first problem; read on to the game's end.
                board = None;
            }
        }
        if !ended {
            // An input that ends between two tokens ends its last game there, without a
            // result token, as python-chess reads it (a game pasted without `*`); one that
            // ends inside a variation or inside a move has lost what followed.
            if depth > 0 {
                game.note(format!("truncated: the input ends inside the variation opened on line {opened_on}"));
            } else if cut {
                game.note("truncated: the input ends inside a move".to_string());
            }
        }
        Ok(Some(game))
    }

    /// A move of the main line (`token`, SAN or a null move) played on `board`. A token the
    /// input ends in may be cut short: it is played when it reads as a legal move (as
    /// python-chess would read it), else left (and false returned: the game is reported
    /// truncated).
    fn movetext_move(
        &self,
        token: &[u8],
        line: u64,
        at_end: bool,
        board: Option<&mut Board>,
        unplayable: &mut Option<String>,
        game: &mut PgnGame,
    ) -> bool {
        if let Some(why) = unplayable.take() {
            if !at_end {
                game.stop(why);
            }
            return !at_end;
        }
        let Some(board) = board else { return true };
        if let Err(why) = play(board, token, line, self.null_moves, game) {
            if !at_end {
                game.stop(why);
            }
            return !at_end;
        }
        true
    }

    /// The game's start position from its FEN and Variant tags (the last of each, as
    /// python-chess reads repeated tags): the board, or None (with `error` set) when they are
    /// unusable. A FEN the fallback reads but the core cannot play gives no board and the
    /// reason, for the first move to report.
    fn start_board(&mut self, game: &mut PgnGame) -> (Option<Board>, Option<String>) {
        if let Some(variant) = game.tag("Variant") {
            // The names, lower case with spaces, hyphens and underscores taken out: python-chess's
            // ("chess960", "chess 960", "fischerandom" as Cute Chess writes it, "fischerrandom",
            // "fischer random") and "fischer random chess"; kibitz/_variant_tag.py reads the same.
            let key: String =
                variant.chars().filter(|c| !c.is_whitespace() && *c != '-' && *c != '_').collect::<String>();
            match key.to_ascii_lowercase().as_str() {
                "" | "standard" | "chess" | "fromposition" => {}
                "chess960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" => game.chess960 = true,
                _ => {
                    let why = format!("unsupported variant {variant:?}: kibitz plays standard chess and Chess960");
                    game.stop(why);
                    return (None, None);
                }
            }
        }
        let fen = game.tag("FEN").map(str::to_string);
        let board = match fen {
            None => Board::from_fen_with(STARTPOS, game.chess960).expect("the start position is valid"),
            Some(fen) => match Board::from_fen_with(&fen, game.chess960) {
                Ok(b) => b,
                Err(e) => {
                    let why = format!("bad FEN tag {fen:?}: {e}");
                    let Some(fallback) = self.fen_fallback.as_mut() else {
                        game.stop(why);
                        return (None, None);
                    };
                    match fallback(&fen, game.chess960) {
                        Err(refused) => {
                            game.stop(format!("bad FEN tag {fen:?}: {refused}"));
                            return (None, None);
                        }
                        Ok((read, chess960)) => match Board::from_fen_with(&read, chess960) {
                            Ok(b) => {
                                game.chess960 = chess960;
                                b
                            }
                            Err(e) => {
                                (game.start_fen, game.chess960) = (read, chess960);
                                let why = format!("bad FEN tag {fen:?}: kibitz cannot play this position: {e}");
                                return (None, Some(why).filter(|_| game.whole));
                            }
                        },
                    }
                }
            },
        };
        game.start_fen = board.fen();
        (Some(board).filter(|_| game.whole), None)
    }
}

/// Plays one move token (SAN, or a null move where `null_moves`) on `board`, recording its
/// UCI text in `game.moves` (`0000` for a null move).
fn play(board: &mut Board, token: &[u8], line: u64, null_moves: bool, game: &mut PgnGame) -> Result<(), String> {
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
    if NULL_MOVES.contains(&token) {
        if !null_moves {
            return Err(format!("null move {text} {}: null moves are not analysable", at(board)));
        }
        if board.in_check() {
            return Err(format!("null move {text} {} in check in {}", at(board), board.fen()));
        }
        game.moves.push(board.move_to_uci(Move::NULL));
        board.make_null();
        return Ok(());
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
