//! Plain movetext lines, read as python-chess's movetext pattern splits them: the fast path
//! of the PGN readers (`kibitz.pgn` and the board's `read_plain_movetext`), which need no
//! general tokenizer for a line of move numbers, SAN, results, NAGs, glyphs and comments
//! closed on the line. Text in, tokens out: no board, no Python.

/// Python's `str.isspace` for one character (Rust's whitespace lacks U+001C..U+001F).
pub(crate) fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `line.isspace()`: not empty, and whitespace only.
pub(crate) fn is_blank(line: &str) -> bool {
    !line.is_empty() && line.chars().all(is_py_space)
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
    /// `(` and `)` standing alone (only when asked for: see `plain_tokens`).
    Open,
    Close,
}

/// The ASCII characters `str.split()` separates chunks at (Python's whitespace; callers
/// pass bytes of ASCII text only).
fn is_space(b: u8) -> bool {
    is_py_space(char::from(b))
}

/// The tokens of a plain line, or None when the line is not plain (or not ASCII outside
/// its comments, where Python's whitespace differs). With `parens`, a `(` or `)` standing
/// alone between spaces (as python-chess's exporter writes variations) is a token too.
pub(crate) fn plain_tokens(line: &str, parens: bool) -> Option<Vec<Plain<'_>>> {
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
            match chunk {
                b"(" if parens => out.push(Plain::Open),
                b")" if parens => out.push(Plain::Close),
                _ => plain_chunk(std::str::from_utf8(chunk).ok()?, &mut out)?,
            }
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
