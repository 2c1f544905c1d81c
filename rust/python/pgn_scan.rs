//! `read_headers` and `skip_game` at speed: the game scanner (`_core.GameScanner`) that finds
//! a game's end in a chunk of text and reads its tags, leaving the file where python-chess's
//! line-by-line reading would.

use crate::{is_blank, is_py_space};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyWeakrefReference};

// ---- skipping games by the chunk ----
//
// `read_headers` and `skip_game` read a game's headers and skip its movetext. python-chess
// does it a line at a time (`readline`, a pattern per line); on a text file kibitz reads a
// chunk, finds the game's end here, and sets the file's position right after it, so the
// file is left exactly where python-chess's reading would leave it.

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
        match memchr::memchr(b'\n', rest.as_bytes()) {
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
    /// The bytes of a tag name after its first: ASCII letters and digits, and `_+#=:-`.
    const NAME_BYTE: [bool; 256] = {
        let mut t = [false; 256];
        let mut c = 0;
        while c < 256 {
            let b = c as u8;
            t[c] = b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'#' | b'=' | b':' | b'-');
            c += 1;
        }
        t
    };
    let rest = line.strip_prefix('[')?;
    let name_len = rest.bytes().take_while(|&b| NAME_BYTE[b as usize]).count();
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
    let end = quoted.as_bytes().windows(2).rposition(|w| w == b"\"]")?;
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
/// first.
///
/// The bytes that matter ("\n", "{", "}", ";") are found 64 at a time (`special_bytes`) and
/// only those are looked at: a line of movetext is mostly SAN and comment text.
fn skip_movetext(text: &str, start: usize, at_eof: bool) -> Option<usize> {
    let b = text.as_bytes();
    let mut in_comment = false;
    let mut rest_of_line_skipped = false;
    match line_start(text, start, at_eof)? {
        LineStart::Blank(end) => return Some(end),
        LineStart::Escape => rest_of_line_skipped = true,
        LineStart::Other => {}
    }
    let mut block = start;
    while block < b.len() {
        let (mut mask, closers) = special_bytes(&b[block..]);
        if in_comment {
            // Only the comment's "}" counts: what comes before it is skipped at once.
            match closers.trailing_zeros() {
                64 => mask = 0,
                j => {
                    in_comment = false;
                    mask &= above(j);
                }
            }
        }
        while mask != 0 {
            let r = mask.trailing_zeros();
            mask &= mask - 1;
            let i = block + r as usize;
            match b[i] {
                b'\n' => {
                    rest_of_line_skipped = false;
                    match line_start(text, i + 1, at_eof)? {
                        LineStart::Blank(end) => return Some(end),
                        LineStart::Escape => rest_of_line_skipped = true,
                        LineStart::Other => {}
                    }
                }
                _ if rest_of_line_skipped => {}
                b'{' => match (closers & above(r)).trailing_zeros() {
                    64 => {
                        in_comment = true;
                        mask = 0;
                    }
                    j => mask &= above(j),
                },
                b';' => rest_of_line_skipped = true,
                _ => {} // a "}" outside comments
            }
        }
        block += 64;
    }
    if at_eof {
        Some(b.len())
    } else {
        None
    }
}

/// A movetext line as its start decides it (outside comments).
enum LineStart {
    /// Blank: the game ends after it (the offset after the line).
    Blank(usize),
    /// A `%` escape line, skipped whole.
    Escape,
    Other,
}

/// The line starting at `at` (the end of the text: the end of the file, where `at_eof`).
/// None: the text stops before it can be told.
fn line_start(text: &str, at: usize, at_eof: bool) -> Option<LineStart> {
    let b = text.as_bytes();
    let Some(&first) = b.get(at) else {
        return if at_eof { Some(LineStart::Blank(at)) } else { None };
    };
    if first == b'%' {
        return Some(LineStart::Escape);
    }
    // An ASCII byte other than whitespace: the usual case, told by its first byte.
    if first.is_ascii() && !is_py_space(first as char) {
        return Some(LineStart::Other);
    }
    let end = match memchr::memchr(b'\n', &b[at..]) {
        Some(i) => at + i + 1,
        None if at_eof => b.len(),
        None => return None,
    };
    Some(if is_blank(&text[at..end]) { LineStart::Blank(end) } else { LineStart::Other })
}

/// The bits above bit `r` of a 64-bit mask.
fn above(r: u32) -> u64 {
    u64::MAX.checked_shl(r + 1).unwrap_or(0)
}

/// Of the first 64 bytes of `b` (or fewer): bit i set where byte i is "\n", "{", "}" or ";",
/// and where it is "}".
fn special_bytes(b: &[u8]) -> (u64, u64) {
    let mut block = [0u8; 64];
    let bytes: &[u8; 64] = match b.first_chunk::<64>() {
        Some(full) => full,
        None => {
            block[..b.len()].copy_from_slice(b);
            &block
        }
    };
    special_bytes_64(bytes)
}

#[cfg(target_arch = "x86_64")]
fn special_bytes_64(b: &[u8; 64]) -> (u64, u64) {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8};
    // SAFETY: SSE2 is part of x86-64; each load reads 16 bytes inside the 64 of `b`.
    unsafe {
        let [nl, open, close, semi] = [b'\n', b'{', b'}', b';'].map(|c| _mm_set1_epi8(c as i8));
        let (mut all, mut closers) = (0u64, 0u64);
        for k in 0..4 {
            let v = _mm_loadu_si128(b.as_ptr().add(16 * k).cast());
            let c = _mm_cmpeq_epi8(v, close);
            let hits = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, open)),
                _mm_or_si128(c, _mm_cmpeq_epi8(v, semi)),
            );
            all |= u64::from(_mm_movemask_epi8(hits) as u16) << (16 * k);
            closers |= u64::from(_mm_movemask_epi8(c) as u16) << (16 * k);
        }
        (all, closers)
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn special_bytes_64(b: &[u8; 64]) -> (u64, u64) {
    let bits = |f: fn(u8) -> bool| b.iter().enumerate().filter(|&(_, &c)| f(c)).fold(0u64, |m, (i, _)| m | 1 << i);
    (bits(|c| matches!(c, b'\n' | b'{' | b'}' | b';')), bits(|c| c == b'}'))
}

/// The seven-tag roster (which python-chess's `Headers` keeps apart from the other tags),
/// then the tags game databases commonly add.
const KNOWN_TAGS: [&str; 24] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteElo",
    "BlackElo",
    "TimeControl",
    "Termination",
    "ECO",
    "Opening",
    "Variant",
    "FEN",
    "SetUp",
    "UTCDate",
    "UTCTime",
    "WhiteTitle",
    "BlackTitle",
    "WhiteRatingDiff",
    "BlackRatingDiff",
    "Annotator",
    "PlyCount",
];
const ROSTER_LEN: usize = 7;

/// A known tag's name as a str made once (its hash kept with it), whether it is in the
/// roster, and its place in `KNOWN_TAGS`; None for other names.
fn tag_name<'py>(py: Python<'py>, name: &str) -> Option<(Bound<'py, PyString>, bool, usize)> {
    static NAMES: pyo3::sync::PyOnceLock<Vec<Py<PyString>>> = pyo3::sync::PyOnceLock::new();
    let i =
        KNOWN_TAGS.iter().position(|&t| t.len() == name.len() && t.as_bytes()[0] == name.as_bytes()[0] && t == name)?;
    let names = NAMES.get_or_init(py, || KNOWN_TAGS.iter().map(|t| PyString::intern(py, t).unbind()).collect());
    Some((names[i].bind(py).clone(), i < ROSTER_LEN, i))
}

/// `_core.GameScanner()`: text read from a file, scanned a game at a time for `read_headers`
/// and `skip_game`. kibitz.pgn keeps one for the file it last read: `follows(file)` says the
/// file is still where the last game left it, and `next_game(file)` scans on from there in
/// the text already read ahead, reads more when a game runs past it, and sets the file right
/// after the game (byte offsets: the file is read in an encoding kibitz counts, with nothing
/// turned into "\n" on the way). `feed` and `scan` serve files read another way.
#[pyclass(module = "kibitz._core", name = "GameScanner")]
pub struct PyGameScanner {
    text: String,
    /// Where the next game starts (a byte offset in `text`).
    at: usize,
    /// The file followed (a weak reference), the offsets in it where the next game starts and
    /// where the text read ends, whether offsets count UTF-8 bytes (else characters: Latin-1),
    /// and how much to read at a time.
    file: Option<Py<PyWeakrefReference>>,
    /// The file's binary buffer, read directly where offsets count UTF-8 bytes.
    raw: Option<Py<PyAny>>,
    /// The text layer has nothing read ahead: it was sought by this scanner, and since then
    /// only the binary buffer was read (`follows` vouches that nobody read the text). Then
    /// the binary buffer alone is sought: the text layer reads on from wherever it is.
    clean: bool,
    next_game: u64,
    text_end: u64,
    utf8: bool,
    chunk: usize,
    /// Each known tag's value in the last game read, with the str made of it.
    last_values: Vec<Option<(String, Py<PyString>)>>,
}

impl PyGameScanner {
    /// Sets the file at byte offset `at`: through the text layer, or where it is clean (see
    /// `clean`) the binary buffer alone, which skips resetting the text layer's decoder.
    fn seek(&mut self, py: Python<'_>, file: &Bound<'_, PyAny>, at: u64) -> PyResult<()> {
        let seek = pyo3::intern!(py, "seek");
        match &self.raw {
            Some(raw) if self.clean => raw.bind(py).call_method1(seek, (at,))?,
            _ => file.call_method1(seek, (at,))?,
        };
        self.clean = self.raw.is_some();
        Ok(())
    }

    /// The scan's game as `(found, roster, others)`, and its length in bytes and characters
    /// (characters counted only where `chars` is asked: offsets in a Latin-1 file). Without
    /// `headers` (`skip_game`) the two dicts are left empty.
    fn game<'py>(
        &mut self,
        py: Python<'py>,
        at_eof: bool,
        headers: bool,
        chars: bool,
    ) -> PyResult<Option<ScannedGame<'py>>> {
        let text = &self.text[self.at..];
        let (found, mut tags, end) = match scan_game(text, at_eof) {
            Scan::More => return Ok(None),
            Scan::Unsure => return Ok(Some(ScannedGame::Unsure)),
            Scan::Game { found, tags, end } => (found, tags, end),
        };
        if !headers {
            tags.clear();
        }
        // The roster, when a game starts with all seven in order (as exporters write them):
        // a copy of a dict holding them (sized for seven: no growing as they are added).
        let full_roster =
            headers && tags.len() >= ROSTER_LEN && tags.iter().zip(&KNOWN_TAGS[..ROSTER_LEN]).all(|(t, r)| t.0 == *r);
        let roster = if full_roster {
            static TEMPLATE: pyo3::sync::PyOnceLock<Py<PyDict>> = pyo3::sync::PyOnceLock::new();
            let template = TEMPLATE.get_or_try_init(py, || -> PyResult<Py<PyDict>> {
                let d = PyDict::new(py);
                for name in &KNOWN_TAGS[..ROSTER_LEN] {
                    d.set_item(tag_name(py, name).expect("a known tag").0, "")?;
                }
                Ok(d.unbind())
            })?;
            template.bind(py).copy()?
        } else {
            PyDict::new(py)
        };
        let others = PyDict::new(py);
        for (name, value) in tags {
            match tag_name(py, name) {
                Some((key, in_roster, i)) => {
                    // A known tag's value as the last game had it is that game's str again
                    // (game databases repeat events, rounds, time controls, results).
                    let value = match &self.last_values[i] {
                        Some((text, s)) if text == value => s.clone_ref(py).into_bound(py),
                        _ => {
                            let s = PyString::new(py, value);
                            self.last_values[i] = Some((value.to_string(), s.clone().unbind()));
                            s
                        }
                    };
                    if in_roster {
                        roster.set_item(key, value)?
                    } else {
                        others.set_item(key, value)?
                    }
                }
                None => others.set_item(name, PyString::new(py, value))?,
            }
        }
        let chars = if !chars || text.as_bytes()[..end].is_ascii() { end } else { text[..end].chars().count() };
        self.at += end;
        Ok(Some(ScannedGame::Game { found, roster, others, bytes: end, chars }))
    }
}

/// What `PyGameScanner::game` found.
enum ScannedGame<'py> {
    Game { found: bool, roster: Bound<'py, PyDict>, others: Bound<'py, PyDict>, bytes: usize, chars: usize },
    Unsure,
}

#[pymethods]
impl PyGameScanner {
    #[new]
    #[pyo3(signature = (file = None, start = 0, utf8 = true, chunk = 65536))]
    fn new(file: Option<&Bound<'_, PyAny>>, start: u64, utf8: bool, chunk: usize) -> PyResult<Self> {
        let raw = match file {
            Some(f) if utf8 => Some(f.getattr(pyo3::intern!(f.py(), "buffer"))?.unbind()),
            _ => None,
        };
        let file = file.map(|f| PyWeakrefReference::new(f).map(Bound::unbind)).transpose()?;
        Ok(PyGameScanner {
            text: String::new(),
            at: 0,
            file,
            raw,
            clean: false,
            next_game: start,
            text_end: start,
            utf8,
            chunk: chunk.max(1),
            last_values: (0..KNOWN_TAGS.len()).map(|_| None).collect(),
        })
    }

    /// Appends text read from the file; returns its length in UTF-8 bytes.
    fn feed(&mut self, text: &str) -> usize {
        self.text.drain(..self.at);
        self.at = 0;
        self.text.push_str(text);
        text.len()
    }

    /// The next game of the text fed: `(found, roster, others, end_bytes, end_chars)` (the
    /// tags in two dicts as `Headers` keeps them; the game's length in UTF-8 bytes and in
    /// characters), after which scanning goes on past it; None when the text stops before
    /// the game does (feed more, or say `at_eof`); False when the game's text has a "\r" (its
    /// lines may split elsewhere: read it line by line).
    fn scan<'py>(&mut self, py: Python<'py>, at_eof: bool) -> PyResult<Bound<'py, PyAny>> {
        match self.game(py, at_eof, true, true)? {
            None => Ok(py.None().into_bound(py)),
            Some(ScannedGame::Unsure) => Ok(pyo3::types::PyBool::new(py, false).to_owned().into_any()),
            Some(ScannedGame::Game { found, roster, others, bytes, chars }) => {
                Ok((found, roster, others, bytes, chars).into_pyobject(py)?.into_any())
            }
        }
    }

    /// True when `file` is the file followed and is where the last game left it.
    fn follows(&self, py: Python<'_>, file: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Some(followed) = self.file.as_ref().and_then(|w| w.bind(py).upgrade()) else { return Ok(false) };
        if !followed.is(file) {
            return Ok(false);
        }
        // Where the text layer is clean (see `clean`) its position is its binary buffer's,
        // which moves as soon as the text layer reads anything: the buffer is asked.
        let tell = pyo3::intern!(py, "tell");
        let at = match &self.raw {
            Some(raw) if self.clean => raw.bind(py).call_method0(tell)?,
            _ => file.call_method0(tell)?,
        };
        Ok(at.extract::<u64>().is_ok_and(|at| at == self.next_game))
    }

    /// `next_game` when `follows(file)`, else False (nothing read, the file untouched): the
    /// two in one call, for the file read game after game.
    #[pyo3(signature = (file, headers = true))]
    fn next_game_if_following<'py>(
        &mut self,
        py: Python<'py>,
        file: &Bound<'py, PyAny>,
        headers: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !self.follows(py, file)? {
            return Ok(pyo3::types::PyBool::new(py, false).to_owned().into_any());
        }
        self.next_game(py, file, headers)
    }

    /// The next game of the followed file: `(found, roster, others)`, the file set right after
    /// the game (without `headers`, as `skip_game` asks, the two dicts are empty). None: the
    /// game must be read line by line (a "\r" in it, or text read ahead that does not
    /// decode), "translated": the file turns "\r\n" into "\n"; in both the file is back where
    /// the game starts.
    #[pyo3(signature = (file, headers = true))]
    fn next_game<'py>(
        &mut self,
        py: Python<'py>,
        file: &Bound<'py, PyAny>,
        headers: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut at_eof = false;
        loop {
            match self.game(py, at_eof, headers, !self.utf8)? {
                Some(ScannedGame::Game { found, roster, others, bytes, chars }) => {
                    self.next_game += (if self.utf8 { bytes } else { chars }) as u64;
                    self.seek(py, file, self.next_game)?;
                    return Ok((found, roster, others).into_pyobject(py)?.into_any());
                }
                Some(ScannedGame::Unsure) => {
                    self.seek(py, file, self.next_game)?;
                    // Read as bytes, the "\r" may be a newline the text layer translates.
                    return Ok(if self.raw.is_some() {
                        PyString::new(py, "translated").into_any()
                    } else {
                        py.None().into_bound(py)
                    });
                }
                None => {}
            }
            self.seek(py, file, self.text_end)?;
            if let Some(raw) = &self.raw {
                // UTF-8 (or ASCII): the bytes as the file holds them, checked here. A "\r" in
                // a game makes the scan unsure: the caller then reads through the text layer.
                let more = raw.bind(py).call_method1(pyo3::intern!(py, "read"), (self.chunk,))?;
                let more = more.cast_into::<PyBytes>()?;
                let bytes = more.as_bytes();
                let valid = match std::str::from_utf8(bytes) {
                    Ok(text) => text,
                    // A character cut at the chunk's end: read again with the next chunk.
                    Err(e) if e.error_len().is_none() && e.valid_up_to() > 0 => {
                        std::str::from_utf8(&bytes[..e.valid_up_to()]).expect("checked valid")
                    }
                    Err(_) => {
                        // Text that does not decode, read ahead: line by line, the error
                        // comes where python-chess's does.
                        self.seek(py, file, self.next_game)?;
                        return Ok(py.None().into_bound(py));
                    }
                };
                self.feed(valid);
                self.text_end += valid.len() as u64;
                at_eof = bytes.is_empty();
                continue;
            }
            let more = match file.call_method1(pyo3::intern!(py, "read"), (self.chunk,)) {
                Ok(more) => more,
                Err(e) if e.is_instance_of::<pyo3::exceptions::PyUnicodeDecodeError>(py) => {
                    self.seek(py, file, self.next_game)?;
                    return Ok(py.None().into_bound(py));
                }
                Err(e) => return Err(e),
            };
            let newlines = file.getattr(pyo3::intern!(py, "newlines"))?;
            if !(newlines.is_none() || newlines.eq("\n")?) {
                self.seek(py, file, self.next_game)?;
                return Ok(PyString::new(py, "translated").into_any());
            }
            let more = more.cast_into::<PyString>()?;
            let more = more.to_cow()?;
            self.feed(&more);
            self.text_end += more.chars().count() as u64;
            at_eof = more.is_empty();
        }
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGameScanner>()?;
    Ok(())
}
