//! FEN for variant boards, as Fairy-Stockfish writes it: ranks from the top with counts
//! of empty squares (10, 11, 12 allowed), castling as KQkq or rook files, the en passant
//! square only where a capture is possible.

use super::board::VBoard;
use super::def::Variant;
use super::geometry::{code, color, kind, CASTLE_BITS, EMPTY};
use super::tables::Compiled;
use std::sync::Arc;

impl VBoard {
    /// Reads a FEN in Fairy-Stockfish's form: ranks from the top with counts of empty
    /// squares (10, 12 allowed), side, castling (KQkq or rook files), en passant square,
    /// halfmove clock, fullmove number (the last four optional).
    pub fn from_fen(variant: &Variant, fen: &str) -> Result<VBoard, String> {
        VBoard::from_fen_compiled(Arc::new(Compiled::new(variant.clone())), fen)
    }

    pub fn from_fen_compiled(c: Arc<Compiled>, fen: &str) -> Result<VBoard, String> {
        let mut b = VBoard::empty(c.clone());
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() || fields.len() > 6 {
            return Err(format!("expected 1 to 6 space-separated fields, found {}", fields.len()));
        }
        if fields[0].contains('[') {
            return Err("pieces in hand ('[...]') are not supported".into());
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != c.ranks {
            return Err(format!("board field has {} ranks, this variant has {}", rows.len(), c.ranks));
        }
        for (i, row) in rows.iter().enumerate() {
            let r = c.ranks - 1 - i;
            let mut f = 0usize;
            let bytes = row.as_bytes();
            let mut j = 0;
            while j < bytes.len() {
                let ch = bytes[j];
                if ch.is_ascii_digit() {
                    let mut n = 0usize;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        n = n.saturating_mul(10).saturating_add((bytes[j] - b'0') as usize);
                        j += 1;
                    }
                    if n == 0 {
                        return Err(format!("rank {} has an empty-square count of 0", r + 1));
                    }
                    f += n;
                    continue;
                }
                let Some(t) = c.variant.type_of_letter(ch as char) else {
                    return Err(format!("'{}' is not a piece of {}", ch as char, c.variant.name));
                };
                if f >= c.files {
                    return Err(format!("rank {} describes more than {} squares", r + 1, c.files));
                }
                let col = if ch.is_ascii_uppercase() { 0 } else { 1 };
                if b.pcount[col] >= 120 {
                    return Err("too many pieces".into()); // cannot happen: 120 squares at most
                }
                b.put(c.square(f, r), code(t, col));
                f += 1;
                j += 1;
            }
            if f != c.files {
                return Err(format!("rank {} describes {} squares, expected {}", r + 1, f, c.files));
            }
        }
        if let Some(k) = c.royal {
            for (col, name) in [(0, "White"), (1, "Black")] {
                let n = b.tcount[col][k];
                if n != 1 {
                    let letter = c.variant.pieces[k].letter;
                    return Err(format!("{name} has {n} royal pieces ('{letter}'), expected exactly one"));
                }
            }
        }
        b.side = match fields.get(1).copied().unwrap_or("w") {
            "w" => 0,
            "b" => 1,
            s => return Err(format!("side to move must be 'w' or 'b', found {s:?}")),
        };
        // Castling: K/Q take the outermost rook of the castling type, letters name its file.
        let cast = fields.get(2).copied().unwrap_or("-");
        if cast != "-" {
            for ch in cast.chars() {
                let col = if ch.is_ascii_uppercase() { 0 } else { 1 };
                let rank = if col == 0 {
                    c.variant.castling_rank as usize - 1
                } else {
                    c.ranks - c.variant.castling_rank as usize
                };
                let Some(rt) = c.variant.castling_rook else {
                    return Err(format!("castling right '{ch}' but the variant has no castling rook"));
                };
                let rook = code(rt, col);
                let up = ch.to_ascii_uppercase();
                let rsq = match up {
                    'K' => (0..c.files).rev().map(|f| c.square(f, rank)).find(|&s| b.cells[s as usize] == rook),
                    'Q' => (0..c.files).map(|f| c.square(f, rank)).find(|&s| b.cells[s as usize] == rook),
                    'A'..='L' if ((up as u8 - b'A') as usize) < c.files => {
                        let s = c.square((up as u8 - b'A') as usize, rank);
                        (b.cells[s as usize] == rook).then_some(s)
                    }
                    _ => return Err(format!("bad castling field {cast:?}: unexpected {ch:?}")),
                };
                let Some(rsq) = rsq else {
                    return Err(format!("bad castling field {cast:?}: no rook for '{ch}'"));
                };
                if !c.variant.castling {
                    continue;
                }
                let ksq = b.royal_sq[col];
                if ksq == 0 || c.rank_of[ksq as usize] as usize != rank {
                    return Err(format!("bad castling field {cast:?}: the king is not on the castling rank"));
                }
                let side = if rsq > ksq { 0 } else { 1 };
                let bit = CASTLE_BITS[col][side];
                b.castling |= bit;
                b.castle_rook[col][side] = rsq;
                let kfile = if side == 0 { c.variant.castling_kingside_file } else { c.variant.castling_queenside_file }
                    as usize;
                let kto = c.square(kfile, rank);
                let rto = if side == 0 { kto - 1 } else { kto + 1 };
                let span = |a: u8, b: u8| if a < b { a..=b } else { b..=a };
                b.castle_path[col][side] = span(rsq, rto)
                    .chain(span(ksq, kto))
                    .filter(|&s| s != ksq && s != rsq)
                    .fold(0, |acc, s| acc | c.sqbb[s as usize]);
                b.castle_safe[col][side] =
                    span(ksq, kto).filter(|&s| s != ksq).fold(0, |acc, s| acc | c.sqbb[s as usize]);
                b.castle_mask[ksq as usize] |= bit;
                b.castle_mask[rsq as usize] |= bit;
            }
        }
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let Some((s, n)) = c.parse_square(ep.as_bytes()) else {
                return Err(format!("bad en passant square {ep:?}"));
            };
            if n != ep.len() {
                return Err(format!("bad en passant square {ep:?}"));
            }
            // Kept only if a pawn of the side to move attacks it and the enemy pawn stands
            // in front of it (Fairy-Stockfish ignores it otherwise).
            if let Some(p) = c.pawn {
                let us = b.side;
                let fwd = b.forward(us);
                let ours = code(p, us);
                let theirs = code(p, 1 - us);
                let behind = (s as i16 - fwd) as usize;
                let attackers = [(s as i16 - fwd - 1) as usize, (s as i16 - fwd + 1) as usize];
                if b.cells[behind] == theirs
                    && attackers.iter().any(|&a| b.cells[a] == ours)
                    && b.cells[s as usize] == EMPTY
                {
                    b.ep = s;
                }
            }
        }
        if let Some(h) = fields.get(4) {
            b.halfmove =
                h.parse().map_err(|_| format!("halfmove clock must be a non-negative integer, found {h:?}"))?;
        }
        if let Some(fm) = fields.get(5) {
            b.fullmove = fm
                .parse()
                .ok()
                .filter(|&n: &u32| n > 0)
                .ok_or_else(|| format!("fullmove number must be a positive integer, found {fm:?}"))?;
        }
        let them = 1 - b.side;
        if b.royal_sq[them] != 0 && b.attacked(b.royal_sq[them], b.side) {
            return Err(format!("the side not to move ({}) is in check", if them == 0 { "White" } else { "Black" }));
        }
        Ok(b)
    }

    /// The position as FEN, as Fairy-Stockfish writes it.
    pub fn fen(&self) -> String {
        let c = &self.c;
        let mut s = String::new();
        for r in (0..c.ranks).rev() {
            let mut empty = 0;
            for f in 0..c.files {
                let cell = self.cells[c.square(f, r) as usize];
                if cell == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                let l = c.variant.pieces[kind(cell)].letter;
                s.push(if color(cell) == 0 { l.to_ascii_uppercase() } else { l });
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s += if self.side == 0 { " w " } else { " b " };
        let mut cast = String::new();
        for (bit, ch) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.castling & bit != 0 {
                cast.push(ch);
            }
        }
        s += if cast.is_empty() { "-" } else { &cast };
        s += " ";
        s += &if self.ep == 0 { "-".to_string() } else { c.square_name(self.ep) };
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
    }
}
