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

/// Whether two byte strings are equal, compared 8 bytes at a time in line (tag names and
/// values are short: a call to the C library's `memcmp` for each costs more than the compare).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut ca, mut cb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut ca).zip(&mut cb) {
        if u64::from_ne_bytes(x.try_into().expect("8 bytes")) != u64::from_ne_bytes(y.try_into().expect("8 bytes")) {
            return false;
        }
    }
    ca.remainder().iter().zip(cb.remainder()).all(|(x, y)| x == y)
}

/// The offset of the first "\n" in `b`: a short line (a tag line) looked at 16 bytes at a
/// time here, a long one (movetext) handed to `memchr`.
#[inline]
fn find_newline(b: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
        let mut at = 0;
        while at + 16 <= b.len() && at < 128 {
            // SAFETY: SSE2 is part of x86-64; the 16 bytes loaded are inside `b`.
            let mask = unsafe {
                let v = _mm_loadu_si128(b.as_ptr().add(at).cast());
                _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8)))
            };
            if mask != 0 {
                return Some(at + mask.trailing_zeros() as usize);
            }
            at += 16;
        }
        memchr::memchr(b'\n', &b[at..]).map(|i| at + i)
    }
    #[cfg(not(target_arch = "x86_64"))]
    memchr::memchr(b'\n', b)
}

impl<'a> Lines<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.pos..];
        match find_newline(rest.as_bytes()) {
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
    // Room for a game database's tags (lichess writes 17) without growing.
    let mut tags = Vec::with_capacity(24);
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
/// A line without ";" is passed whole (`line_stays_outside_comments`): lichess writes a
/// game's movetext on one line with a comment after every move. Other lines go to
/// `skip_movetext_bytes`.
fn skip_movetext(text: &str, start: usize, at_eof: bool) -> Option<usize> {
    let b = text.as_bytes();
    let mut at = start;
    loop {
        // The line's "\n" (an escape line is skipped whole, whatever it holds).
        let newline = match line_start(text, at, at_eof)? {
            LineStart::Blank(end) => return Some(end),
            LineStart::Escape => memchr::memchr(b'\n', &b[at..]),
            LineStart::Other => match memchr::memchr2(b'\n', b';', &b[at..]) {
                Some(i) if b[at + i] == b'\n' && line_stays_outside_comments(&b[at..at + i]) => Some(i),
                Some(_) => return skip_movetext_bytes(text, at, at_eof),
                None => None,
            },
        };
        match newline {
            Some(i) => at += i + 1,
            None => return if at_eof { Some(b.len()) } else { None },
        }
    }
}

/// Whether a movetext line without ";" that starts outside comments ends outside them: the
/// last "}" leaves the scan outside a comment (it closes one or is skipped), so only a "{"
/// after it opens one that runs on past the line (without a "}", any "{" does).
fn line_stays_outside_comments(line: &[u8]) -> bool {
    let after_last_close = memchr::memrchr(b'}', line).map_or(0, |j| j + 1);
    memchr::memchr(b'{', &line[after_last_close..]).is_none()
}

/// `skip_movetext` byte by byte: the bytes that matter ("\n", "{", "}", ";") are found 64
/// at a time (`special_bytes`) and only those are looked at.
fn skip_movetext_bytes(text: &str, start: usize, at_eof: bool) -> Option<usize> {
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

/// `known_tag`'s answer for a name not in `KNOWN_TAGS`.
const UNKNOWN: u8 = u8::MAX;

/// A tag name's place in `KNOWN_TAGS`.
fn known_tag(name: &str) -> Option<usize> {
    KNOWN_TAGS.iter().position(|&t| same_bytes(t.as_bytes(), name.as_bytes()))
}

/// The known tag at place `i` of `KNOWN_TAGS` as a str made once (its hash kept with it).
fn tag_name(py: Python<'_>, i: usize) -> Bound<'_, PyString> {
    static NAMES: pyo3::sync::PyOnceLock<Vec<Py<PyString>>> = pyo3::sync::PyOnceLock::new();
    let names = NAMES.get_or_init(py, || KNOWN_TAGS.iter().map(|t| PyString::intern(py, t).unbind()).collect());
    names[i].bind(py).clone()
}

/// `_core.GameScanner()`: text read from a file, scanned a game at a time for `read_headers`
/// and `skip_game`. kibitz.pgn keeps one for the file it last read: `follows(file)` says the
/// file is still where the last game left it, and `next_game(file)` scans on from there in
/// the text already read ahead, reads more when a game runs past it, and sets the file right
/// after the game (byte offsets: the file is read in an encoding kibitz counts, with nothing
/// turned into "\n" on the way). `feed` and `scan` serve files read another way.
#[pyclass(module = "kibitz._core", name = "GameScanner")]
pub struct PyGameScanner {
    /// The text read ahead, `buf[..filled]` (always whole UTF-8: bytes read are counted in
    /// `filled` only once checked), and room after it (bytes read in place: a chunk of the
    /// file goes straight from the system into `buf`).
    buf: Vec<u8>,
    filled: usize,
    /// Where the next game starts (a byte offset in the text).
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
    /// The descriptor of a plain file (`io.BufferedReader` over `io.FileIO`, where the caller
    /// asks for `pread`): its bytes are read at an offset straight into `buf`, without a
    /// Python bytes object, and `follows` asks it for the file's position.
    fd: Option<i32>,
    chunk: usize,
    /// Each known tag's value in the last game read, with the str made of it.
    last_values: Vec<(String, Option<Py<PyString>>)>,
    /// The places in `KNOWN_TAGS` of the last game's tags, and of those outside the roster
    /// (buffers kept from game to game).
    tag_places: Vec<u8>,
    others_places: Vec<u8>,
    /// A dict of the tags outside the roster for the sequence of places it was made for.
    others_template: Option<(Vec<u8>, Py<PyDict>)>,
    /// The binary buffer's `tell` and `seek`, looked up once.
    raw_tell: Option<Py<PyAny>>,
    raw_seek: Option<Py<PyAny>>,
}

impl PyGameScanner {
    /// Room for `n` more bytes after the text (the text scanned already dropped first).
    fn room(&mut self, n: usize) -> &mut [u8] {
        self.buf.copy_within(self.at..self.filled, 0);
        self.filled -= self.at;
        self.at = 0;
        if self.buf.len() < self.filled + n {
            self.buf.resize(self.filled + n, 0);
        }
        &mut self.buf[self.filled..self.filled + n]
    }

    /// Sets the file at byte offset `at`: through the text layer, or where it is clean (see
    /// `clean`) the binary buffer alone, which skips resetting the text layer's decoder.
    fn seek(&mut self, py: Python<'_>, file: &Bound<'_, PyAny>, at: u64) -> PyResult<()> {
        match &self.raw_seek {
            Some(seek) if self.clean => seek.bind(py).call1((at,))?,
            _ => file.call_method1(pyo3::intern!(py, "seek"), (at,))?,
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
        // SAFETY: `buf[..filled]` is UTF-8 (see `buf`), and `at` a character boundary in it.
        let text = unsafe { std::str::from_utf8_unchecked(&self.buf[self.at..self.filled]) };
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
                for i in 0..ROSTER_LEN {
                    d.set_item(tag_name(py, i), "")?;
                }
                Ok(d.unbind())
            })?;
            template.bind(py).copy()?
        } else {
            PyDict::new(py)
        };
        // Each tag's place in KNOWN_TAGS (UNKNOWN for other names), and the sequence of those
        // outside the roster: a game database gives every game the same sequence, and its dict
        // is then a copy of the last one made for it, its values replaced (no growing).
        self.tag_places.clear();
        self.tag_places.extend(tags.iter().map(|(name, _)| known_tag(name).map_or(UNKNOWN, |i| i as u8)));
        self.others_places.clear();
        self.others_places.extend(self.tag_places.iter().filter(|&&i| i as usize >= ROSTER_LEN));
        let others = match &self.others_template {
            Some((places, template)) if *places == self.others_places => template.bind(py).copy()?,
            _ => PyDict::new(py),
        };
        for (&(name, value), &place) in tags.iter().zip(&self.tag_places) {
            if place == UNKNOWN {
                others.set_item(name, PyString::new(py, value))?;
                continue;
            }
            let i = place as usize;
            // A known tag's value as the last game had it is that game's str again (game
            // databases repeat events, rounds, time controls, results).
            let (last_text, last) = &mut self.last_values[i];
            let value = match last {
                Some(s) if same_bytes(last_text.as_bytes(), value.as_bytes()) => s.clone_ref(py).into_bound(py),
                _ => {
                    let s = PyString::new(py, value);
                    last_text.clear();
                    last_text.push_str(value);
                    *last = Some(s.clone().unbind());
                    s
                }
            };
            let key = tag_name(py, i);
            if i < ROSTER_LEN {
                roster.set_item(key, value)?
            } else {
                others.set_item(key, value)?
            }
        }
        let reusable = !self.others_places.is_empty() && !self.others_places.contains(&UNKNOWN);
        if reusable && self.others_template.as_ref().is_none_or(|(places, _)| *places != self.others_places) {
            self.others_template = Some((self.others_places.clone(), others.copy()?.unbind()));
        }
        let chars = if !chars || text.as_bytes()[..end].is_ascii() { end } else { text[..end].chars().count() };
        self.at += end;
        Ok(Some(ScannedGame::Game { found, roster, others, bytes: end, chars }))
    }
}

/// How many of the leading bytes of `bytes` are whole UTF-8 characters, where the rest is a
/// character cut at the end (read again with the next chunk); None where bytes do not decode
/// (or the first character is cut). ASCII, the usual text, is checked 64 bytes at a time.
fn utf8_prefix(bytes: &[u8]) -> Option<usize> {
    let mut ascii = 0;
    while let Some(block) = bytes.get(ascii..).and_then(<[u8]>::first_chunk::<64>) {
        if !is_ascii_64(block) {
            break;
        }
        ascii += 64;
    }
    match std::str::from_utf8(&bytes[ascii..]) {
        Ok(_) => Some(bytes.len()),
        Err(e) if e.error_len().is_none() && ascii + e.valid_up_to() > 0 => Some(ascii + e.valid_up_to()),
        Err(_) => None,
    }
}

#[cfg(target_arch = "x86_64")]
fn is_ascii_64(b: &[u8; 64]) -> bool {
    use std::arch::x86_64::{_mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128};
    // SAFETY: SSE2 is part of x86-64; each load reads 16 bytes inside the 64 of `b`.
    unsafe {
        let v = |k: usize| _mm_loadu_si128(b.as_ptr().add(16 * k).cast());
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(v(0), v(1)), _mm_or_si128(v(2), v(3)))) == 0
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn is_ascii_64(b: &[u8; 64]) -> bool {
    b.is_ascii()
}

/// A `File` over the descriptor `fd` of a Python file object, never dropped (so never
/// closed here: the file object owns the descriptor).
#[cfg(unix)]
fn borrowed_file(fd: i32) -> std::mem::ManuallyDrop<std::fs::File> {
    use std::os::unix::io::FromRawFd;
    // SAFETY: `fd` is the descriptor a file object gave (its `fileno()`); wrapped in
    // ManuallyDrop the File never closes it, and the caller uses it only during the call.
    std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) })
}

/// Reads bytes of the open file `fd` from byte offset `at` into `buf` (until it is full or
/// the file ends), without moving the file's position; the count read (0 at the end).
#[cfg(unix)]
fn read_at(fd: i32, buf: &mut [u8], at: u64) -> PyResult<usize> {
    use std::os::unix::fs::FileExt;
    let file = borrowed_file(fd);
    let mut got = 0;
    // A short read is not the end of the file: read on until the chunk is full or one is 0.
    while got < buf.len() {
        match file.read_at(&mut buf[got..], at + got as u64) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(got)
}

/// The position of the open file `fd` (None where the system refuses: a closed descriptor).
#[cfg(unix)]
fn fd_position(fd: i32) -> Option<u64> {
    use std::io::Seek;
    let file = borrowed_file(fd);
    let mut handle: &std::fs::File = &file;
    handle.stream_position().ok()
}

#[cfg(not(unix))]
fn fd_position(_fd: i32) -> Option<u64> {
    None
}

#[cfg(not(unix))]
fn read_at(_fd: i32, _buf: &mut [u8], _at: u64) -> PyResult<usize> {
    Err(pyo3::exceptions::PyOSError::new_err("reading at an offset needs a Unix system"))
}

/// What `PyGameScanner::game` found.
enum ScannedGame<'py> {
    Game { found: bool, roster: Bound<'py, PyDict>, others: Bound<'py, PyDict>, bytes: usize, chars: usize },
    Unsure,
}

#[pymethods]
impl PyGameScanner {
    #[new]
    #[pyo3(signature = (file = None, start = 0, utf8 = true, chunk = 65536, pread = false))]
    fn new(
        py: Python<'_>,
        file: Option<&Bound<'_, PyAny>>,
        start: u64,
        utf8: bool,
        chunk: usize,
        pread: bool,
    ) -> PyResult<Self> {
        let raw = match file {
            Some(f) if utf8 => Some(f.getattr(pyo3::intern!(py, "buffer"))?.unbind()),
            _ => None,
        };
        let method = |name: &str| raw.as_ref().map(|r| r.getattr(py, name)).transpose();
        let (raw_tell, raw_seek) = (method("tell")?, method("seek")?);
        let fd = match &raw {
            Some(r) if pread && cfg!(unix) => Some(r.call_method0(py, "fileno")?.extract(py)?),
            _ => None,
        };
        let file = file.map(|f| PyWeakrefReference::new(f).map(Bound::unbind)).transpose()?;
        Ok(PyGameScanner {
            buf: Vec::new(),
            filled: 0,
            at: 0,
            file,
            raw,
            clean: false,
            next_game: start,
            text_end: start,
            utf8,
            fd,
            chunk: chunk.max(1),
            last_values: (0..KNOWN_TAGS.len()).map(|_| (String::new(), None)).collect(),
            tag_places: Vec::new(),
            others_places: Vec::new(),
            others_template: None,
            raw_tell,
            raw_seek,
        })
    }

    /// Appends text read from the file; returns its length in UTF-8 bytes.
    fn feed(&mut self, text: &str) -> usize {
        self.room(text.len()).copy_from_slice(text.as_bytes());
        self.filled += text.len();
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
        // which moves as soon as the text layer reads anything: the buffer is asked. A plain
        // file's buffer, emptied by the scanner's last seek, is where its descriptor is, and
        // any read through it moves the descriptor on: the system is asked, without the
        // buffer's Python call (a descriptor that fails, as a closed file's, is not followed;
        // the caller's tell() then says why).
        if let (Some(fd), true) = (self.fd, self.clean) {
            return Ok(fd_position(fd).is_some_and(|at| at == self.next_game));
        }
        let at = match &self.raw_tell {
            Some(tell) if self.clean => tell.bind(py).call0()?,
            _ => file.call_method0(pyo3::intern!(py, "tell"))?,
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
        self.next(py, file, headers)?.into_py_answer(py)
    }

    /// `read_headers`'s call for the file read game after game, when `follows(file)`: the
    /// next game's headers as a `headers_type` object (its `_tag_roster` and `_others` set,
    /// as python-chess's `Headers` keeps them), True at the end of the file; otherwise what
    /// `next_game_if_following` answers (False: not following, the file untouched; None or
    /// "translated": read line by line).
    fn next_headers_if_following<'py>(
        &mut self,
        py: Python<'py>,
        file: &Bound<'py, PyAny>,
        headers_type: &Bound<'py, pyo3::types::PyType>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if !self.follows(py, file)? {
            return Ok(pyo3::types::PyBool::new(py, false).to_owned().into_any());
        }
        match self.next(py, file, true)? {
            Next::Game { found: false, .. } => Ok(pyo3::types::PyBool::new(py, true).to_owned().into_any()),
            Next::Game { roster, others, .. } => {
                let headers = headers_type.call_method1(pyo3::intern!(py, "__new__"), (headers_type,))?;
                headers.setattr(pyo3::intern!(py, "_tag_roster"), roster)?;
                headers.setattr(pyo3::intern!(py, "_others"), others)?;
                Ok(headers)
            }
            other => other.into_py_answer(py),
        }
    }

    /// `skip_game`'s call for the file read game after game, when `follows(file)`: 1 when a
    /// game was skipped, 0 at the end of the file (ints, told from the other answers by their
    /// type); otherwise what `next_game_if_following` answers (False: not following, the file
    /// untouched; None or "translated": read line by line).
    fn skip_if_following<'py>(&mut self, py: Python<'py>, file: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if !self.follows(py, file)? {
            return Ok(pyo3::types::PyBool::new(py, false).to_owned().into_any());
        }
        match self.next(py, file, false)? {
            Next::Game { found, .. } => Ok(u8::from(found).into_pyobject(py)?.into_any()),
            other => other.into_py_answer(py),
        }
    }
}

impl PyGameScanner {
    /// `next_game`'s answer before it becomes Python's.
    fn next<'py>(&mut self, py: Python<'py>, file: &Bound<'py, PyAny>, headers: bool) -> PyResult<Next<'py>> {
        let mut at_eof = false;
        loop {
            match self.game(py, at_eof, headers, !self.utf8)? {
                Some(ScannedGame::Game { found, roster, others, bytes, chars }) => {
                    self.next_game += (if self.utf8 { bytes } else { chars }) as u64;
                    self.seek(py, file, self.next_game)?;
                    return Ok(Next::Game { found, roster, others });
                }
                Some(ScannedGame::Unsure) => {
                    self.seek(py, file, self.next_game)?;
                    // Read as bytes, the "\r" may be a newline the text layer translates.
                    return Ok(if self.raw.is_some() { Next::Translated } else { Next::LineByLine });
                }
                None => {}
            }
            if let Some(raw) = &self.raw {
                // UTF-8 (or ASCII): the bytes as the file holds them, checked here. A "\r" in
                // a game makes the scan unsure: the caller then reads through the text layer.
                let raw = raw.bind(py).clone();
                let read = if self.fd.is_some() {
                    // A plain file: its bytes read straight into the text, the file not moved
                    // (its descriptor asked again: a closed file's fails here).
                    let fd: i32 = raw.call_method0(pyo3::intern!(py, "fileno"))?.extract()?;
                    let (chunk, at) = (self.chunk, self.text_end);
                    read_at(fd, self.room(chunk), at)?
                } else {
                    self.seek(py, file, self.text_end)?;
                    let more = raw.call_method1(pyo3::intern!(py, "read"), (self.chunk,))?;
                    let more = more.cast_into::<PyBytes>()?;
                    let bytes = more.as_bytes();
                    self.room(bytes.len()).copy_from_slice(bytes);
                    bytes.len()
                };
                let Some(valid) = utf8_prefix(&self.buf[self.filled..self.filled + read]) else {
                    // Text that does not decode, read ahead: line by line, the error comes
                    // where python-chess's does.
                    self.seek(py, file, self.next_game)?;
                    return Ok(Next::LineByLine);
                };
                self.filled += valid;
                self.text_end += valid as u64;
                at_eof = read == 0;
                continue;
            }
            self.seek(py, file, self.text_end)?;
            let more = match file.call_method1(pyo3::intern!(py, "read"), (self.chunk,)) {
                Ok(more) => more,
                Err(e) if e.is_instance_of::<pyo3::exceptions::PyUnicodeDecodeError>(py) => {
                    self.seek(py, file, self.next_game)?;
                    return Ok(Next::LineByLine);
                }
                Err(e) => return Err(e),
            };
            let newlines = file.getattr(pyo3::intern!(py, "newlines"))?;
            if !(newlines.is_none() || newlines.eq("\n")?) {
                self.seek(py, file, self.next_game)?;
                return Ok(Next::Translated);
            }
            let more = more.cast_into::<PyString>()?;
            let more = more.to_cow()?;
            self.feed(&more);
            self.text_end += more.chars().count() as u64;
            at_eof = more.is_empty();
        }
    }
}

/// What `PyGameScanner::next` found: the game (`found`: whether there was one), or the file
/// to be read line by line (`Translated`: its text layer turns "\r\n" into "\n").
enum Next<'py> {
    Game { found: bool, roster: Bound<'py, PyDict>, others: Bound<'py, PyDict> },
    LineByLine,
    Translated,
}

impl<'py> Next<'py> {
    /// As `next_game` answers: `(found, roster, others)`, None or "translated".
    fn into_py_answer(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Next::Game { found, roster, others } => (found, roster, others).into_pyobject(py)?.into_any(),
            Next::LineByLine => py.None().into_bound(py),
            Next::Translated => PyString::new(py, "translated").into_any(),
        })
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGameScanner>()?;
    Ok(())
}
