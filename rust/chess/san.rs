//! Standard algebraic notation (<https://www.chessprogramming.org/Algebraic_Chess_Notation>),
//! out and in: for the terminal game, PGN reading and book building.

use crate::chess::board::Board;
use crate::chess::error::MoveError;
use crate::chess::types::*;

const PIECE_LETTERS: [u8; 7] = *b" PNBRQK";

impl Board {
    /// The SAN of a legal move, with `+` or `#` when it checks or mates.
    pub fn move_to_san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        // The position alone: cloning the move history too made a game's SAN quadratic.
        let mut after = self.position_only();
        after.make_move(m);
        if after.in_check() {
            s.push(if after.has_legal_move() { '+' } else { '#' });
        }
        s
    }

    /// A copy of the position without the move history (which `in_check` and
    /// `has_legal_move` do not look at).
    fn position_only(&self) -> Board {
        Board {
            cells: self.cells,
            index: self.index,
            list: self.list,
            count: self.count,
            bb: self.bb,
            occ: self.occ,
            side: self.side,
            castling: self.castling,
            castle_rook: self.castle_rook,
            castle_mask: self.castle_mask,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            key: self.key,
            chess960: self.chess960,
            history: Vec::with_capacity(1),
        }
    }

    fn san_without_suffix(&self, m: Move) -> String {
        if m.is_castle() {
            return if file_of(m.to()) == 6 { "O-O".to_string() } else { "O-O-O".to_string() };
        }
        let from = m.from();
        let to = m.to();
        let kind = kind_of(self.cells[from]);
        let capture = self.cells[to] != EMPTY || m.is_en_passant();
        let mut s = String::with_capacity(8);
        if kind == PAWN {
            if capture {
                s.push((b'a' + file_of(from) as u8) as char);
            }
        } else {
            s.push(PIECE_LETTERS[kind as usize] as char);
            // Disambiguate among other pieces of the same kind that can reach `to`.
            let mut ml = MoveList::new();
            self.generate_legal(&mut ml);
            let rivals: Vec<Square> = ml
                .iter()
                .filter(|o| o.to() == to && o.from() != from && !o.is_castle() && kind_of(self.cells[o.from()]) == kind)
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|&r| file_of(r) == file_of(from));
                let same_rank = rivals.iter().any(|&r| rank_of(r) == rank_of(from));
                if !same_file {
                    s.push((b'a' + file_of(from) as u8) as char);
                } else if !same_rank {
                    s.push((b'1' + rank_of(from) as u8) as char);
                } else {
                    s.push_str(&square_name(from));
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&square_name(to));
        if m.is_promotion() {
            s.push('=');
            s.push(PIECE_LETTERS[m.promo() as usize] as char);
        }
        s
    }

    /// Parses SAN into a legal move. Accepts the usual variants: `+`/`#`/`!`/`?` suffixes,
    /// `0-0` for `O-O`, promotion with or without `=`, and a redundant `x` or disambiguation.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let invalid = |why| MoveError::Invalid(text.to_string(), why);
        let core = text.trim_end_matches(['+', '#', '!', '?']);
        if core.is_empty() || !core.is_ascii() {
            return Err(invalid("expected a move in SAN like e4, Nf3, exd5, O-O or e8=Q"));
        }
        let mut ml = MoveList::new();
        self.generate_legal(&mut ml);
        if matches!(core, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let file = if core.len() == 3 { 6 } else { 2 };
            return ml
                .iter()
                .copied()
                .find(|m| m.is_castle() && file_of(m.to()) == file)
                .ok_or_else(|| MoveError::Illegal(text.to_string(), self.fen()));
        }
        let b = core.as_bytes();
        let (kind, rest) = match b[0] {
            b'N' => (KNIGHT, &b[1..]),
            b'B' => (BISHOP, &b[1..]),
            b'R' => (ROOK, &b[1..]),
            b'Q' => (QUEEN, &b[1..]),
            b'K' => (KING, &b[1..]),
            b'a'..=b'h' => (PAWN, b),
            _ => return Err(invalid("must start with a piece letter N, B, R, Q, K or a pawn's file a-h")),
        };
        // Promotion suffix: "=Q" or "Q".
        let mut rest = rest;
        let mut promo = 0;
        if let Some(&last) = rest.last() {
            let p = match last {
                b'Q' => QUEEN,
                b'R' => ROOK,
                b'B' => BISHOP,
                b'N' => KNIGHT,
                // Never legal, but a promotion all the same: such a move is illegal, not
                // malformed (as python-chess reads it).
                b'K' => KING,
                _ => 0,
            };
            if p != 0 {
                promo = p;
                rest = &rest[..rest.len() - 1];
                if rest.last() == Some(&b'=') {
                    rest = &rest[..rest.len() - 1];
                }
            }
        }
        if rest.len() < 2 {
            return Err(invalid("no destination square"));
        }
        let to_text = std::str::from_utf8(&rest[rest.len() - 2..]).unwrap_or("");
        let to = parse_square(to_text).ok_or_else(|| invalid("the destination is not a square a1..h8"))?;
        let mut hint = &rest[..rest.len() - 2];
        // "x" (or ":") before a capture's destination; "-" in long algebraic (Ng1-f3, e2-e4).
        if matches!(hint.last(), Some(&b'x') | Some(&b':') | Some(&b'-')) {
            hint = &hint[..hint.len() - 1];
        }
        let (mut hint_file, mut hint_rank) = (None, None);
        for &c in hint {
            match c {
                b'a'..=b'h' if hint_file.is_none() => hint_file = Some((c - b'a') as usize),
                b'1'..=b'8' if hint_rank.is_none() => hint_rank = Some((c - b'1') as usize),
                _ => return Err(invalid("unexpected characters before the destination square")),
            }
        }
        // Without a piece letter: a pawn move, from the destination's file unless a file is
        // given (a capture names it: "d4" is never "cxd4"); with both file and rank given, a
        // fully specified move of any piece ("g1f3"), as python-chess reads it.
        let fully_specified = kind == PAWN && hint_file.is_some() && hint_rank.is_some();
        let pawn_file = if kind == PAWN && hint_file.is_none() { Some(file_of(to)) } else { None };
        let candidates: Vec<Move> = ml
            .iter()
            .copied()
            .filter(|m| {
                !m.is_castle()
                    && m.to() == to
                    && (fully_specified || kind_of(self.cells[m.from()]) == kind)
                    && m.promo() == promo
                    && hint_file.is_none_or(|f| file_of(m.from()) == f)
                    && hint_rank.is_none_or(|r| rank_of(m.from()) == r)
                    && pawn_file.is_none_or(|f| file_of(m.from()) == f)
            })
            .collect();
        match candidates.len() {
            1 => Ok(candidates[0]),
            0 => Err(MoveError::Illegal(text.to_string(), self.fen())),
            _ => Err(MoveError::Ambiguous(text.to_string(), self.fen())),
        }
    }
}
