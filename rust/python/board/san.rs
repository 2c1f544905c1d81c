//! SAN read as python-chess reads it (`parse_san`, `push_san`): its spellings of castling
//! and the null move, its leniencies (a missing capture sign, a redundant file or rank)
//! and its error messages, checked move by move against python-chess. The core's own SAN
//! (`rust/chess/san.rs`) writes SAN and reads the strict form; this is the Python API's
//! reading, kept beside the board it works on.

use super::*;
use crate::python::errors::{AmbiguousMoveError, InvalidMoveError};
use crate::{rank_of, KNIGHT, QUEEN};

/// The spellings of the null move `parse_san` accepts (python-chess's list).
pub(super) const NULL_SANS: [&str; 4] = ["--", "Z0", "0000", "@@@@"];

/// A text as Python's `repr` writes it (python-chess puts SAN in its messages that way):
/// single quotes unless only double ones avoid escaping, backslash escapes for the quote,
/// the backslash and control characters.
pub(super) fn py_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f || (0x80..0xa0).contains(&(c as u32)) => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The castling spellings python-chess's `parse_san` accepts.
const CASTLING_SANS: [&str; 12] =
    ["O-O", "O-O+", "O-O#", "0-0", "0-0+", "0-0#", "O-O-O", "O-O-O+", "O-O-O#", "0-0-0", "0-0-0+", "0-0-0#"];

/// The parts of a SAN text as python-chess's SAN pattern splits it: piece letter, from-file,
/// from-rank, target square (0..64), promotion kind; None when the text does not have the
/// shape (an annotation like "!?" included), which is an InvalidMoveError there and here.
struct SanParts {
    piece: Option<u8>,
    file: Option<u8>,
    rank: Option<u8>,
    to: u8,
    promo: u8,
}

fn san_parts(san: &str) -> Option<SanParts> {
    let kind_of_letter = |c: u8| b"pnbrqk".iter().position(|&l| l == c.to_ascii_lowercase()).map(|k| k as u8 + 1);
    let mut b = san.as_bytes();
    if let [rest @ .., b'+' | b'#'] = b {
        b = rest;
    }
    let mut promo = 0;
    if let [rest @ .., p] = b {
        if b"nbrqkNBRQK".contains(p) {
            promo = kind_of_letter(*p)?;
            b = rest;
            if let [rest @ .., b'='] = b {
                b = rest;
            }
        }
    }
    let [prefix @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] = b else { return None };
    let to = (r - b'1') * 8 + (f - b'a');
    let mut rest = prefix;
    let mut take = |class: &[u8]| -> Option<u8> {
        if let [c, tail @ ..] = rest {
            if class.contains(c) {
                rest = tail;
                return Some(*c);
            }
        }
        None
    };
    let piece = take(b"NBKRQ").and_then(kind_of_letter);
    let file = take(b"abcdefgh").map(|c| c - b'a');
    let rank = take(b"12345678").map(|c| c - b'1');
    take(b"-x");
    if !rest.is_empty() {
        return None;
    }
    Some(SanParts { piece, file, rank, to, promo })
}

/// The move `san` names, read as python-chess's `parse_san` reads it: the null move's
/// spellings, castling as O-O / O-O-O, a fully specified move without piece letter looked up
/// by its squares (castling king to g1/c1 included), else the legal moves filtered by piece,
/// from-file, from-rank, target and promotion (a pawn without from-file stays on its file;
/// the capture sign is not checked). InvalidMoveError when the text has no SAN shape,
/// IllegalMoveError when no move fits, AmbiguousMoveError when several do.
pub(super) fn parse_san_like_python_chess(st: &mut State, san: &str) -> PyResult<Move> {
    if NULL_SANS.contains(&san) {
        return Ok(Move::NULL);
    }
    let illegal =
        |core: &CoreBoard| IllegalMoveError::new_err(format!("illegal san: {} in {}", py_repr(san), core.fen()));
    if let Some(i) = CASTLING_SANS.iter().position(|&c| c == san) {
        let kingside = i < 6;
        let moves = st.legal_moves().to_vec();
        return moves
            .into_iter()
            .find(|m| m.is_castle() && (file_of(m.to()) == 6) == kingside)
            .ok_or_else(|| illegal(&st.core));
    }
    let Some(p) = san_parts(san) else {
        if san.contains(',') {
            return Err(InvalidMoveError::new_err(format!("unsupported multi-leg move: {}", py_repr(san))));
        }
        return Err(InvalidMoveError::new_err(format!("invalid san: {}", py_repr(san))));
    };
    if let (None, Some(file), Some(rank)) = (p.piece, p.file, p.rank) {
        // python-chess's find_move: a pawn reaching the last rank without a promotion
        // letter is taken as a queen promotion (which then does not match the text), and on
        // a standard board the king taking its own rook is castling.
        let from = rank * 8 + file;
        let piece = st.core.piece_at(sq120(file as usize, rank as usize));
        let kind = if piece == EMPTY { 0 } else { kind_of(piece) };
        let mut promo = p.promo;
        if promo == 0 && kind == PAWN && (p.to / 8 == 0 || p.to / 8 == 7) {
            promo = QUEEN;
        }
        let mut to = p.to;
        if promo == 0 && !st.core.is_chess960() && kind == KING && (from == 4 || from == 60) {
            if to == from + 3 {
                to = from + 2;
            } else if to + 4 == from {
                to = from - 2;
            }
        }
        let Ok(m) = st.resolve_fields(from, to, promo, false) else {
            let letter = ["", "p", "n", "b", "r", "q", "k"][promo as usize];
            return Err(IllegalMoveError::new_err(format!(
                "no matching legal move for {}{}{letter} ({} -> {}) in {}",
                name64(from),
                name64(to),
                name64(from),
                name64(p.to),
                st.core.fen()
            )));
        };
        if promo != p.promo {
            return Err(IllegalMoveError::new_err(format!(
                "missing promotion piece type: {} in {}",
                py_repr(san),
                st.core.fen()
            )));
        }
        return Ok(m);
    }
    if let Some(m) = quick_san(&st.core, &p) {
        return Ok(m);
    }
    let to_cell = sq120(p.to as usize % 8, p.to as usize / 8);
    let us = st.core.side_to_move();
    let mut found: Option<Move> = None;
    let moves = st.legal_moves().to_vec();
    for &m in &moves {
        if m.is_castle() || m.to() != to_cell || m.promo() != p.promo {
            continue;
        }
        let kind = kind_of(st.core.piece_at(m.from()));
        let (ff, fr) = (file_of(m.from()) as u8, rank_of(m.from()) as u8);
        match p.piece {
            Some(k) if k != kind => continue,
            None if kind != PAWN || (p.file.is_none() && ff != p.to % 8) => continue,
            _ => {}
        }
        if p.file.is_some_and(|f| f != ff) || p.rank.is_some_and(|r| r != fr) {
            continue;
        }
        debug_assert!(color_of(st.core.piece_at(m.from())) == us);
        if found.is_some() {
            return Err(AmbiguousMoveError::new_err(format!("ambiguous san: {} in {}", py_repr(san), st.core.fen())));
        }
        found = Some(m);
    }
    found.ok_or_else(|| illegal(&st.core))
}

/// The move of a piece or pawn SAN (not castling, not fully given) found without
/// generating the move list: every piece of the named kind on the squares the text allows
/// is tried as a move to the target (with the flags its shape gives it) and checked by
/// `is_legal_quick`. Some only when exactly one is legal and no en-passant capture could be
/// meant; anything else (none, several, a possible en passant) is left to the general
/// path, which gives python-chess's answer and error.
fn quick_san(core: &CoreBoard, p: &SanParts) -> Option<Move> {
    let us = core.side_to_move();
    let kind = p.piece.unwrap_or(PAWN);
    let to = sq120(p.to as usize % 8, p.to as usize / 8);
    let (to_file, to_rank) = (p.to % 8, p.to / 8);
    let mut from_mask = core.bb[crate::make_piece(kind, us) as usize];
    let file = if kind == PAWN && p.piece.is_none() { Some(p.file.unwrap_or(to_file)) } else { p.file };
    if let Some(f) = file {
        from_mask &= 0x0101_0101_0101_0101 << f;
    }
    if let Some(r) = p.rank {
        from_mask &= 0xff << (8 * r);
    }
    let last_rank = to_rank == 0 || to_rank == 7;
    let mut found = None;
    while from_mask != 0 {
        let f = from_mask.trailing_zeros() as u8;
        from_mask &= from_mask - 1;
        let from = sq120(f as usize % 8, f as usize / 8);
        let m = if kind == PAWN {
            if f % 8 != to_file && core.piece_at(to) == EMPTY {
                return None; // perhaps en passant
            }
            match (p.promo, last_rank) {
                (0, false) if f.abs_diff(p.to) == 16 => Move::with_flags(from, to, Move::DOUBLE_PUSH),
                (0, false) => Move::new(from, to),
                (KNIGHT..=QUEEN, true) => Move::promotion(from, to, p.promo),
                _ => return None,
            }
        } else if p.promo != 0 {
            return None;
        } else {
            Move::new(from, to)
        };
        if core.is_legal_quick(m) {
            if found.is_some() {
                return None; // ambiguous: the general path says so
            }
            found = Some(m);
        }
    }
    debug_assert!(found.is_none_or(|m| core.is_legal(m)));
    found
}
