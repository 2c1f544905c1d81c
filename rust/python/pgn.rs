//! PGN reading for Python: `_core.PgnReader(file)` iterates over the games of a file object
//! (binary or text) (plain, or a gzip / zstd decoder opened by `kibitz.analysis.reader`), and
//! `_core.san_line` writes a line of UCI moves as SAN (for annotated PGN output).
//!
//! The reader calls the file's `read(n)` once per 64 KB chunk and does the tokenizing and the
//! SAN replay in Rust; each game comes out as one tuple, which `kibitz.read_games` turns into
//! a `Game`.

use std::io::{Error as IoError, Read};

use super::tensor::{dtype_arg, write_ones};
use super::{fen_err, move_err};
use crate::{
    sq64, Board as CoreBoard, Move, PgnGame, PgnReader as CoreReader, BISHOP, BLACK, KNIGHT, PLANE_VALUES, ROOK,
};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};

/// `std::io::Read` over a Python file object: each `read` is one call of its `read(n)`
/// (after a check for signals, so Ctrl-C stops a long read). A binary file gives bytes, a
/// text file str (taken as UTF-8, as python-chess reads text files); what a `read(n)` gives
/// beyond `n` bytes (a str of n characters, a file object that ignores n) is kept for the
/// next call. A Python exception is kept aside and raised again by the caller.
struct PyFile {
    file: Py<PyAny>,
    error: Option<PyErr>,
    /// Bytes read from the file and not yet handed out, from `pending_at` on.
    pending: Vec<u8>,
    pending_at: usize,
}

impl PyFile {
    fn new(file: Py<PyAny>) -> Self {
        PyFile { file, error: None, pending: Vec::new(), pending_at: 0 }
    }

    /// One `read(n)` of the file into `pending`; false at the end of the file.
    fn read_more(&mut self, py: Python<'_>, n: usize) -> PyResult<bool> {
        py.check_signals()?;
        let obj = self.file.bind(py).call_method1("read", (n,))?;
        self.pending.clear();
        self.pending_at = 0;
        if let Ok(bytes) = obj.cast::<PyBytes>() {
            self.pending.extend_from_slice(bytes.as_bytes());
        } else if let Ok(text) = obj.cast::<PyString>() {
            self.pending.extend_from_slice(text.to_cow()?.as_bytes());
        } else if let Ok(array) = obj.cast::<PyByteArray>() {
            self.pending.extend_from_slice(&array.to_vec());
        } else {
            return Err(PyTypeError::new_err(format!(
                "the PGN source's read() returned {}, not bytes or str: open the file in binary mode",
                obj.get_type().name()?
            )));
        }
        Ok(!self.pending.is_empty())
    }
}

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.pending_at >= self.pending.len() {
            let more = Python::attach(|py| self.read_more(py, buf.len()));
            match more {
                Ok(true) => {}
                Ok(false) => return Ok(0),
                Err(e) => {
                    let msg = e.to_string();
                    self.error = Some(e);
                    return Err(IoError::other(msg));
                }
            }
        }
        let data = &self.pending[self.pending_at..];
        let n = data.len().min(buf.len());
        buf[..n].copy_from_slice(&data[..n]);
        self.pending_at += n;
        Ok(n)
    }
}

/// Iterator over the games of a binary file object. Each item is a tuple
/// `(index, line, headers, start_fen, chess960, moves, result, error)`: the game's 1-based
/// number, the line it starts on, its tags as a dict (file order), the start position, the
/// main line in UCI, the result token or None, and what is wrong with it or None.
#[pyclass(module = "kibitz._core", name = "PgnReader", unsendable)]
pub struct PyPgnReader {
    inner: CoreReader<PyFile>,
}

impl PyPgnReader {
    /// The next game, or the source's own error (a Python exception it raised, else OSError).
    fn next_core_game(&mut self) -> PyResult<Option<PgnGame>> {
        match self.inner.next_game() {
            Ok(g) => Ok(g),
            Err(e) => Err(match self.inner.source_mut().error.take() {
                Some(py_err) => py_err,
                None => PyOSError::new_err(e.to_string()),
            }),
        }
    }
}

/// A game's result from White's side: 1, 0, -1; None when unfinished or missing.
fn white_result(result: Option<&str>) -> Option<i8> {
    match result? {
        "1-0" => Some(1),
        "0-1" => Some(-1),
        "1/2-1/2" => Some(0),
        _ => None,
    }
}

/// The training index of move `m` in `board` (the position it is played from):
/// `from * 64 + to + 4096 * k`, squares a1 = 0 .. h8 = 63 as `Move.uci()` names them
/// (castling as the king's move in standard chess, king takes rook in Chess960), k = 1, 2, 3
/// for a promotion to a knight, bishop, rook and 0 otherwise; squares mirrored (`^ 56`) when
/// `flip` (canonical planes with Black to move).
fn move_index(board: &CoreBoard, m: Move, flip: bool) -> i32 {
    let (mut from, mut to) = (sq64(m.from()), sq64(board.uci_target(m)));
    if flip {
        from ^= 56;
        to ^= 56;
    }
    let k = match m.promo() {
        KNIGHT => 1,
        BISHOP => 2,
        ROOK => 3,
        _ => 0,
    };
    (from * 64 + to + 4096 * k) as i32
}

/// One finished game, replayed: its start and main line.
struct Replay {
    index: u64,
    board: CoreBoard,
    moves: Vec<Move>,
    result: i8,
}

impl Replay {
    /// The game ready to replay, or None when it is left out: unfinished (no result), with
    /// an error, or with a start position or move that does not read.
    fn of(game: PgnGame) -> Option<Replay> {
        if game.error.is_some() {
            return None;
        }
        let result = white_result(game.result.as_deref())?;
        let mut board = CoreBoard::from_fen_with(&game.start_fen, game.chess960).ok()?;
        let start = board.clone();
        let mut moves = Vec::with_capacity(game.moves.len());
        for text in &game.moves {
            let m = board.parse_uci(text).ok()?;
            board.make_move(m);
            moves.push(m);
        }
        Some(Replay { index: game.index, board: start, moves, result })
    }
}

#[pymethods]
impl PyPgnReader {
    /// The next chunk of training positions: the position before each move of the main
    /// line of whole finished games, about `max_positions` of them (at least one game), as
    /// `(planes, moves, results, games, n, skipped)`: bytearrays of n x 1,152 values of
    /// `dtype` (the planes, `canonical` as `Board.to_tensor` has it), n int32 move indexes
    /// (`move_index`), n int8 results (1, 0, -1 for White; for the side to move when
    /// `canonical`), n int64 game numbers (1-based, in the file); `skipped` counts the games
    /// left out (no result, or an error). None at the end of the file.
    #[allow(clippy::type_complexity)]
    fn planes_chunk<'py>(
        &mut self,
        py: Python<'py>,
        max_positions: usize,
        canonical: bool,
        dtype: &str,
    ) -> PyResult<
        Option<(
            Bound<'py, PyByteArray>,
            Bound<'py, PyByteArray>,
            Bound<'py, PyByteArray>,
            Bound<'py, PyByteArray>,
            usize,
            u64,
        )>,
    > {
        let dtype = dtype_arg(dtype)?;
        let mut games = Vec::new();
        let (mut n, mut skipped, mut seen) = (0usize, 0u64, false);
        while n < max_positions.max(1) {
            let Some(game) = self.next_core_game()? else { break };
            seen = true;
            match Replay::of(game) {
                Some(r) => {
                    n += r.moves.len();
                    games.push(r);
                }
                None => skipped += 1,
            }
        }
        if !seen {
            return Ok(None);
        }
        let per = PLANE_VALUES * dtype.size();
        let (mut moves, mut results, mut numbers) =
            (Vec::with_capacity(n * 4), Vec::with_capacity(n), Vec::with_capacity(n * 8));
        let planes = PyByteArray::new_with(py, n * per, |bytes| {
            let mut chunks = bytes.chunks_exact_mut(per);
            for g in &mut games {
                for &m in &g.moves {
                    let flip = canonical && g.board.side_to_move() == BLACK;
                    let chunk = chunks.next().expect("one chunk per position");
                    write_ones(&g.board, canonical, dtype, chunk);
                    moves.extend_from_slice(&move_index(&g.board, m, flip).to_ne_bytes());
                    results.push((if flip { -g.result } else { g.result }) as u8);
                    numbers.extend_from_slice(&(g.index as i64).to_ne_bytes());
                    g.board.make_move(m);
                }
            }
            Ok(())
        })?;
        Ok(Some((
            planes,
            PyByteArray::new(py, &moves),
            PyByteArray::new(py, &results),
            PyByteArray::new(py, &numbers),
            n,
            skipped,
        )))
    }

    #[new]
    fn new(file: Py<PyAny>) -> Self {
        PyPgnReader { inner: CoreReader::new(PyFile::new(file)) }
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[allow(clippy::type_complexity)]
    fn __next__<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<
        Option<(u64, u64, Bound<'py, PyDict>, String, bool, Bound<'py, PyList>, Option<String>, Option<String>)>,
    > {
        let Some(game) = self.next_core_game()? else { return Ok(None) };
        let headers = PyDict::new(py);
        for (k, v) in &game.headers {
            headers.set_item(k, v)?;
        }
        let moves = PyList::new(py, &game.moves)?;
        Ok(Some((game.index, game.line, headers, game.start_fen, game.chess960, moves, game.result, game.error)))
    }
}

/// The SAN of each move of `moves` (UCI) played in order from `fen`; raises the usual
/// FenError / IllegalMoveError on a bad position or move.
#[pyfunction]
#[pyo3(signature = (fen, moves, *, chess960 = false))]
pub fn san_line(fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<Vec<String>> {
    let mut board = CoreBoard::from_fen_with(fen, chess960).map_err(fen_err)?;
    let mut out = Vec::with_capacity(moves.len());
    for text in &moves {
        let m = board.parse_uci(text).map_err(move_err)?;
        out.push(board.move_to_san(m));
        board.make_move(m);
    }
    Ok(out)
}

/// Adds the PGN reader and `san_line` to `_core` (called from `mod.rs`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPgnReader>()?;
    m.add_function(wrap_pyfunction!(san_line, m)?)?;
    m.add_function(wrap_pyfunction!(plain_tokens_py, m)?)?;
    m.add_class::<PyGameScanner>()?;
    Ok(())
}

// ---- plain movetext lines ----
//
// kibitz.pgn reads most movetext lines without its general tokenizer: a "plain" line holds
// only move numbers, SAN, results, NAGs, suffix glyphs and comments closed on the same line.
// This is that reading, as python-chess's movetext pattern splits such a line: the text
// between comments is split at whitespace and each chunk must be a move number followed by
// SAN (or a result), a check sign and a glyph, or a NAG. Anything else makes the line not
// plain (None), and the caller reads it with the general tokenizer.

/// A token of a plain line.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Plain<'a> {
    /// SAN or a result, without check sign or glyph.
    San(&'a str),
    /// `$n`, a suffix glyph (`!`, `?!`...), or a comment's text: written as the token text
    /// the Python reader uses (`$12`, `!`, `{text`).
    Text(String),
}

/// The ASCII characters `str.split()` separates chunks at, as far as a movetext line has them.
fn is_space(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b) || (0x1c..=0x1f).contains(&b)
}

/// The tokens of a plain line, or None when the line is not plain (or not ASCII outside
/// its comments, where Python's whitespace differs).
pub(crate) fn plain_tokens(line: &str) -> Option<Vec<Plain<'_>>> {
    let mut out = Vec::new();
    let mut rest = line;
    loop {
        let (text, comment) = match rest.find('{') {
            Some(open) => {
                let close = open + 1 + rest[open + 1..].find('}')?;
                (&rest[..open], Some((&rest[open + 1..close], close)))
            }
            None => (rest, None),
        };
        if !text.is_ascii() {
            return None;
        }
        for chunk in text.as_bytes().split(|&b| is_space(b)).filter(|c| !c.is_empty()) {
            // ASCII: any byte offsets are character boundaries.
            plain_chunk(std::str::from_utf8(chunk).ok()?, &mut out)?;
        }
        match comment {
            None => return Some(out),
            Some((inside, close)) => {
                // Less one space after "{" and one before "}", as python-chess reads it.
                let inside = inside.strip_prefix(' ').unwrap_or(inside);
                let inside = inside.strip_suffix(' ').unwrap_or(inside);
                out.push(Plain::Text(format!("{{{inside}")));
                rest = &rest[close + 1..];
            }
        }
    }
}

/// One whitespace-free chunk: `[0-9]+\.+` then optionally SAN or a result, a check sign and
/// a glyph; or `$` and digits. None when it is neither.
fn plain_chunk<'a>(chunk: &'a str, out: &mut Vec<Plain<'a>>) -> Option<()> {
    let b = chunk.as_bytes();
    if b[0] == b'$' {
        if b.len() > 1 && b[1..].iter().all(u8::is_ascii_digit) {
            out.push(Plain::Text(chunk.to_string()));
            return Some(());
        }
        return None;
    }
    // A move number: digits, then at least one dot.
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let dots = b[digits..].iter().take_while(|&&c| c == b'.').count();
    let body = if digits > 0 && dots > 0 { &chunk[digits + dots..] } else { chunk };
    if body.is_empty() {
        return Some(());
    }
    // Then a glyph of one or two ! / ?, before it a check sign.
    let bb = body.as_bytes();
    let glyph_len = bb.iter().rev().take_while(|&&c| c == b'!' || c == b'?').count();
    if glyph_len > 2 {
        return None;
    }
    let (core, glyph) = body.split_at(body.len() - glyph_len);
    let core = core.strip_suffix(['+', '#']).unwrap_or(core);
    if !(is_result(core) || core == "O-O" || core == "O-O-O" || is_san_shape(core)) {
        return None;
    }
    out.push(Plain::San(core));
    if !glyph.is_empty() {
        out.push(Plain::Text(glyph.to_string()));
    }
    Some(())
}

fn is_result(s: &str) -> bool {
    matches!(s, "*" | "1-0" | "0-1" | "1/2-1/2")
}

/// `[NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](=?[nbrqkNBRQK])?`, the whole text.
fn is_san_shape(s: &str) -> bool {
    let mut b = s.as_bytes();
    if let [rest @ .., p] = b {
        if b"nbrqkNBRQK".contains(p) {
            b = rest;
            if let [rest @ .., b'='] = b {
                b = rest;
            }
        }
    }
    let [prefix @ .., b'a'..=b'h', b'1'..=b'8'] = b else { return false };
    let mut p = prefix;
    if let [b'N' | b'B' | b'K' | b'R' | b'Q', rest @ ..] = p {
        p = rest;
    }
    if let [b'a'..=b'h', rest @ ..] = p {
        p = rest;
    }
    if let [b'1'..=b'8', rest @ ..] = p {
        p = rest;
    }
    if let [b'-' | b'x', rest @ ..] = p {
        p = rest;
    }
    p.is_empty()
}

/// `_core.plain_tokens(line)`: the tokens of a plain movetext line as the Python reader
/// writes them (SAN, results, `$n`, glyphs, `{` + comment), or None.
#[pyfunction]
#[pyo3(name = "plain_tokens")]
pub fn plain_tokens_py(line: &str) -> Option<Vec<String>> {
    plain_tokens(line).map(|tokens| {
        tokens
            .into_iter()
            .map(|t| match t {
                Plain::San(s) => s.to_string(),
                Plain::Text(s) => s,
            })
            .collect()
    })
}

// ---- skipping games by the chunk ----
//
// `read_headers` and `skip_game` read a game's headers and skip its movetext. python-chess
// does it a line at a time (`readline`, a pattern per line); on a text file kibitz reads a
// chunk, finds the game's end here, and sets the file's position right after it, so the
// file is left exactly where python-chess's reading would leave it.

/// Python's `str.isspace` for one character (Rust's whitespace lacks U+001C..U+001F).
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `line.isspace()`: not empty, and whitespace only.
fn is_blank(line: &str) -> bool {
    !line.is_empty() && line.chars().all(is_py_space)
}

/// The lines of a text as `readline` gives them (each with its "\n"; "" at the end of the
/// file). `None` when the text stops before the line does and more of the file follows.
struct Lines<'a> {
    text: &'a str,
    pos: usize,
    at_eof: bool,
}

impl<'a> Lines<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.pos..];
        match rest.find('\n') {
            Some(i) => {
                self.pos += i + 1;
                Some(&rest[..=i])
            }
            None if self.at_eof => {
                self.pos = self.text.len();
                Some(rest)
            }
            None => None,
        }
    }
}

/// A tag line as python-chess's pattern `^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$`
/// reads it (the caller has made sure the text has no "\r").
fn tag_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('[')?;
    let name_len = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(b)).count();
    if name_len == 0 || !rest.as_bytes()[0].is_ascii_alphanumeric() {
        return None;
    }
    let (name, after) = rest.split_at(name_len);
    let value_and_rest = after.trim_start_matches(is_py_space);
    if value_and_rest.len() == after.len() {
        return None; // no whitespace between the name and the value
    }
    let quoted = value_and_rest.strip_prefix('"')?;
    // The value runs to the last `"]`, after which only whitespace may follow.
    let end = quoted.rfind("\"]")?;
    if !quoted[end + 2..].chars().all(is_py_space) {
        return None;
    }
    Some((name, &quoted[..end]))
}

/// What scanning the start of a text for one game found.
pub(crate) enum Scan<'a> {
    /// The game: whether there was one, its tags in order, and the byte offset after it.
    Game { found: bool, tags: Vec<(&'a str, &'a str)>, end: usize },
    /// The text stops before the game does: read more of the file.
    More,
    /// The text has a "\r": its lines may not be where `readline` splits them (a file
    /// opened with `newline=""`); the caller reads line by line instead.
    Unsure,
}

/// python-chess's `read_game` with a headers-only visitor, over a text: leading blank, `%`
/// and `;` lines are skipped (and byte order marks before the first line), then the tag
/// lines (one blank line may come between them), then the movetext, up to a blank line
/// outside comments or the end of the file.
pub(crate) fn scan_game(text: &str, at_eof: bool) -> Scan<'_> {
    match scan_lines(text, at_eof) {
        // Only the game's own text decides where it ends.
        Scan::Game { end, .. } if memchr::memchr(b'\r', &text.as_bytes()[..end]).is_some() => Scan::Unsure,
        scan => scan,
    }
}

fn scan_lines(text: &str, at_eof: bool) -> Scan<'_> {
    let mut lines = Lines { text, pos: 0, at_eof };
    macro_rules! next {
        () => {
            match lines.next() {
                Some(line) => line,
                None => return Scan::More,
            }
        };
    }
    let mut line = next!().trim_start_matches('\u{feff}');
    while is_blank(line) || line.starts_with('%') || line.starts_with(';') {
        line = next!();
    }
    let mut tags = Vec::new();
    let mut found = false;
    let mut empty_lines = 0;
    while !line.is_empty() {
        if line.starts_with('%') || line.starts_with(';') {
            line = next!();
            continue;
        }
        if empty_lines < 1 && is_blank(line) {
            empty_lines += 1;
            line = next!();
            continue;
        }
        found = true;
        if !line.starts_with('[') {
            break;
        }
        empty_lines = 0;
        if let Some(tag) = tag_line(line) {
            tags.push(tag);
        }
        line = next!();
    }
    if !found {
        return Scan::Game { found, tags, end: lines.pos };
    }
    if line.is_empty() {
        return Scan::Game { found, tags, end: lines.pos };
    }
    match skip_movetext(text, lines.pos - line.len(), at_eof) {
        Some(end) => Scan::Game { found, tags, end },
        None => Scan::More,
    }
}

/// Where the movetext starting at the line at `start` ends, as python-chess skips it: at a
/// blank line outside comments (after it), or at the end of the text. Outside comments a
/// line starting with `%` is skipped and a `;` ends the line's scan; inside a comment only
/// its `}` counts, and the line it closes on is scanned on from there. None: the text stops
/// first. (memchr finds the next byte that matters; most of a line is SAN and comment text.)
fn skip_movetext(text: &str, start: usize, at_eof: bool) -> Option<usize> {
    let b = text.as_bytes();
    let line_end = |from: usize| -> Option<usize> {
        match memchr::memchr(b'\n', &b[from..]) {
            Some(i) => Some(from + i + 1),
            None if at_eof => Some(b.len()),
            None => None,
        }
    };
    let mut i = start; // at the start of a line, outside comments
    while i < b.len() {
        let mut end = line_end(i)?;
        let line = &text[i..end];
        if is_blank(line) {
            return Some(end);
        }
        if line.starts_with('%') {
            i = end;
            continue;
        }
        let mut k = i;
        while let Some(o) = memchr::memchr2(b'{', b';', &b[k..end]) {
            if b[k + o] == b';' {
                break;
            }
            match memchr::memchr(b'}', &b[k + o + 1..]) {
                Some(c) => {
                    k = k + o + 1 + c + 1;
                    if k > end {
                        // Closed on a later line: that line is scanned on from the "}".
                        end = line_end(k - 1)?;
                    }
                }
                None if at_eof => return Some(b.len()),
                None => return None,
            }
        }
        i = end;
    }
    if at_eof {
        Some(b.len())
    } else {
        None
    }
}

/// The seven-tag roster, which python-chess's `Headers` keeps apart from the other tags.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// `_core.GameScanner()`: text read from a file, scanned a game at a time for `read_headers`
/// and `skip_game` (kibitz.pgn keeps one per file it reads, so that text read ahead past a
/// game is not read and decoded again for the next).
#[pyclass(module = "kibitz._core", name = "GameScanner")]
pub struct PyGameScanner {
    text: String,
    /// Where the next game starts (a byte offset in `text`).
    at: usize,
}

#[pymethods]
impl PyGameScanner {
    #[new]
    fn new() -> Self {
        PyGameScanner { text: String::new(), at: 0 }
    }

    /// Appends text read from the file; returns its length in UTF-8 bytes.
    fn feed(&mut self, text: &str) -> usize {
        self.text.drain(..self.at);
        self.at = 0;
        self.text.push_str(text);
        text.len()
    }

    /// The next game of the text: `(found, roster, others, end_bytes, end_chars)` (the tags
    /// in two dicts as `Headers` keeps them; the game's length in UTF-8 bytes and in
    /// characters), after which scanning goes on past it; None when the text stops before the
    /// game does (feed more, or say `at_eof`); False when the game's text has a "\r" (its
    /// lines may split elsewhere: read it line by line).
    fn scan<'py>(&mut self, py: Python<'py>, at_eof: bool) -> PyResult<Bound<'py, PyAny>> {
        let text = &self.text[self.at..];
        match scan_game(text, at_eof) {
            Scan::More => Ok(py.None().into_bound(py)),
            Scan::Unsure => Ok(pyo3::types::PyBool::new(py, false).to_owned().into_any()),
            Scan::Game { found, tags, end } => {
                let (roster, others) = (PyDict::new(py), PyDict::new(py));
                for (name, value) in tags {
                    let dict = if ROSTER.contains(&name) { &roster } else { &others };
                    dict.set_item(name, value)?;
                }
                let head = &text.as_bytes()[..end];
                let chars = if head.is_ascii() { end } else { text[..end].chars().count() };
                self.at += end;
                Ok((found, roster, others, end, chars).into_pyobject(py)?.into_any())
            }
        }
    }
}
