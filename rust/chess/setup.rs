//! A position as plain data, python-chess's model of one: any placement, the side to move,
//! castling rights as rook squares (usable or not), any en-passant square, the clocks, the
//! Chess960 flag and the promoted pieces. It becomes a playable `Board` only as what the
//! core can play (`Board::from_setup`: the usable rights and en-passant square alone, the
//! board its `core_fen` text reads as, made without the text), the shape shakmaty gives
//! its `Setup`: lenient data first, validity when played.
//!
//! Both languages read positions through it: `kibitz.Board(fen)` for a FEN the strict
//! reader refuses (`from_fen`: python-chess's `set_fen` rules and messages), the board
//! editing of the bindings (`set_piece_at`, `set_board_fen`, `set_castling_fen`, `mirror`,
//! the writable attributes), a pseudo-legal `push` (`after_move`) and the PGN reader's FEN
//! tags. Its rules are python-chess's (`clean_castling_rights`, `_valid_ep_square`,
//! `push`), checked against python-chess by the differential tests.
//!
//! Squares here are 0..64 (a1 = 0), as python-chess numbers them.

use crate::chess::error::FenError;
use crate::chess::fen::COUNTER_MAX;
use crate::chess::types::{color_of, kind_of, make_piece, sq120, sq64, Square, BLACK, EMPTY, KING, PAWN, ROOK, WHITE};

pub const RANK_1: u64 = 0xff;
pub const RANK_8: u64 = 0xff << 56;
const SYMBOLS: &[u8; 15] = b".PNBRQK..pnbrqk";
const FILES: &[u8; 8] = b"abcdefgh";

/// A piece code from a python-chess piece symbol (`P`..`K` white, `p`..`k` black).
pub fn piece_of_symbol(symbol: &str) -> Option<u8> {
    match symbol.as_bytes() {
        &[c] => SYMBOLS.iter().position(|&s| s == c && s != b'.').map(|i| i as u8),
        _ => None,
    }
}

/// The symbol of a piece code.
pub fn symbol_of(p: u8) -> char {
    SYMBOLS[p as usize] as char
}

/// The highest set square of a non-empty mask.
pub fn msb(mask: u64) -> usize {
    63 - mask.leading_zeros() as usize
}

/// The name of square `s` (a1 = 0).
pub fn square_name(s: usize) -> String {
    format!("{}{}", FILES[s % 8] as char, s / 8 + 1)
}

/// A text as Python's `repr()` writes a str (python-chess's messages quote the FEN so).
pub fn py_repr(s: &str) -> String {
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
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (0x80..0xa0).contains(&(c as u32)) => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// python-chess's position state: what its `Board` stores besides the move stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Piece codes (or EMPTY) by square, a1 = 0.
    pub placement: [u8; 64],
    pub white_to_move: bool,
    /// python-chess's `castling_rights`: rook squares, usable or not.
    pub castling: u64,
    /// python-chess's `ep_square`: any square, capturable or not.
    pub ep: Option<u8>,
    pub halfmove: u32,
    pub fullmove: u32,
    pub chess960: bool,
    /// python-chess's `promoted`: the pieces that came from a promotion (a FEN marks them
    /// `Q~`); it never castles with a promoted king.
    pub promoted: u64,
}

impl Setup {
    /// An empty board, White to move, no rights, the clocks at 0 and 1.
    pub fn empty(chess960: bool) -> Setup {
        Setup {
            placement: [EMPTY; 64],
            white_to_move: true,
            castling: 0,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            chess960,
            promoted: 0,
        }
    }

    /// The squares holding piece code `p`.
    pub fn mask(&self, p: u8) -> u64 {
        self.placement.iter().enumerate().filter(|&(_, &q)| q == p).fold(0, |m, (s, _)| m | 1 << s)
    }

    /// The squares of `among` holding piece code `p`.
    fn squares_of(&self, among: u64, p: u8) -> u64 {
        let (mut out, mut m) = (0u64, among);
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            out |= u64::from(self.placement[s] == p) << s;
        }
        out
    }

    /// The squares holding pieces of colour `c`.
    pub(crate) fn color_mask(&self, c: usize) -> u64 {
        self.placement
            .iter()
            .enumerate()
            .filter(|&(_, &q)| q != EMPTY && color_of(q) == c)
            .fold(0, |m, (s, _)| m | 1 << s)
    }

    /// python-chess's `clean_castling_rights` (of a board without move stack).
    pub fn clean_castling(&self) -> u64 {
        // Only the back ranks matter: the rooks of the rights and the kings there.
        let mut white = self.squares_of(self.castling & RANK_1, make_piece(ROOK, WHITE));
        let mut black = self.squares_of(self.castling & RANK_8, make_piece(ROOK, BLACK));
        let white_kings = self.squares_of(RANK_1, make_piece(KING, WHITE)) & !self.promoted;
        let black_kings = self.squares_of(RANK_8, make_piece(KING, BLACK)) & !self.promoted;
        if !self.chess960 {
            white &= 1 | 1 << 7;
            black &= 1 << 56 | 1 << 63;
            if white_kings & 1 << 4 == 0 {
                white = 0;
            }
            if black_kings & 1 << 60 == 0 {
                black = 0;
            }
            return white | black;
        }
        let mut out = 0;
        for (rights, king_mask) in [(white, white_kings & RANK_1), (black, black_kings & RANK_8)] {
            if king_mask == 0 || rights == 0 {
                continue;
            }
            let king = msb(king_mask);
            let (a_side, h_side) = (rights & rights.wrapping_neg(), 1u64 << msb(rights));
            if msb(a_side) < king {
                out |= a_side;
            }
            if msb(h_side) > king {
                out |= h_side;
            }
        }
        out
    }

    /// python-chess's `_valid_ep_square`: the en-passant square if a pawn can have just
    /// crossed it (whether or not it can be taken). Square 0 counts as none, as there.
    pub fn valid_ep(&self) -> Option<u8> {
        let ep = self.ep.filter(|&e| e != 0)? as usize;
        let (rank, pawn, origin, theirs) = if self.white_to_move {
            (5, ep.checked_sub(8)?, ep + 8, make_piece(PAWN, BLACK))
        } else {
            (2, ep + 8, ep.checked_sub(8)?, make_piece(PAWN, WHITE))
        };
        if ep / 8 != rank || origin >= 64 || self.placement[pawn] != theirs {
            return None;
        }
        if self.placement[ep] != EMPTY || self.placement[origin] != EMPTY {
            return None;
        }
        Some(ep as u8)
    }

    /// The FEN's first field with python-chess's `~` after each promoted piece
    /// (`board_fen(promoted=True)`).
    pub fn board_fen_promoted(&self) -> String {
        let plain = self.board_fen();
        if self.promoted == 0 {
            return plain;
        }
        let mut out = String::with_capacity(plain.len() + 8);
        let (mut rank, mut file) = (7usize, 0usize);
        for c in plain.chars() {
            out.push(c);
            match c {
                '/' => {
                    rank -= 1;
                    file = 0;
                }
                '1'..='8' => file += c as usize - '0' as usize,
                _ => {
                    if self.promoted >> (rank * 8 + file) & 1 != 0 {
                        out.push('~');
                    }
                    file += 1;
                }
            }
        }
        out
    }

    /// The FEN's first field.
    pub fn board_fen(&self) -> String {
        let mut out = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0u8;
            for file in 0..8 {
                let p = self.placement[rank * 8 + file];
                if p == EMPTY {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(symbol_of(p));
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The FEN the core reads: only the usable castling rights (`clean`, from
    /// `clean_castling`) and the en-passant square if a pawn can have crossed it.
    pub fn core_fen(&self, clean: u64) -> String {
        let (field, n) = self.castling_field(clean);
        let castling = std::str::from_utf8(&field[..n]).expect("ASCII letters");
        let ep = self.valid_ep().map_or_else(|| "-".to_string(), |e| square_name(e as usize));
        let turn = if self.white_to_move { 'w' } else { 'b' };
        format!("{} {turn} {castling} {ep} {} {}", self.board_fen(), self.halfmove, self.fullmove)
    }

    /// The castling field of `core_fen` for the usable rights `clean` (at most one rook on
    /// each side of each king): `KQkq` letters, or Shredder-FEN files in Chess960; `-` for
    /// none. The bytes and how many of them are used.
    fn castling_field(&self, clean: u64) -> ([u8; 4], usize) {
        let (mut out, mut n) = ([b'-'; 4], 0);
        if self.chess960 {
            for (rank, upper) in [(RANK_1, true), (RANK_8, false)] {
                let mut m = clean & rank;
                while m != 0 && n < 4 {
                    let s = m.trailing_zeros() as usize;
                    m &= m - 1;
                    out[n] = if upper { FILES[s % 8].to_ascii_uppercase() } else { FILES[s % 8] };
                    n += 1;
                }
            }
        } else {
            for (c, q) in [(b'K', 7), (b'Q', 0), (b'k', 63), (b'q', 56)] {
                if clean >> q & 1 != 0 {
                    out[n] = c;
                    n += 1;
                }
            }
        }
        (out, n.max(1))
    }

    /// python-chess's `transform(f)`: every piece mask, the castling rights and the
    /// en-passant square mapped by the square-mask function `f` (a piece mapped onto an
    /// occupied square is dropped, pawns first, as python-chess's `piece_at` reads it).
    pub fn transformed<E>(&self, mut f: impl FnMut(u64) -> Result<u64, E>) -> Result<Setup, E> {
        let mut out = self.clone();
        out.placement = [EMPTY; 64];
        for kind in PAWN..=KING {
            for c in [WHITE, BLACK] {
                let p = make_piece(kind, c);
                let mut m = f(self.mask(p))?;
                while m != 0 {
                    let s = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if out.placement[s] == EMPTY {
                        out.placement[s] = p;
                    }
                }
            }
        }
        out.castling = f(self.castling)?;
        out.ep = match self.ep {
            Some(e) => Some(f(1 << e)?).filter(|&m| m != 0).map(|m| msb(m) as u8),
            None => None,
        };
        out.promoted = f(self.promoted)?;
        Ok(out)
    }

    /// python-chess's `mirror()`: ranks reversed, colours swapped, the other side to move;
    /// castling rights and the en-passant square flipped as they are (not cleaned).
    pub fn mirrored(&self) -> Setup {
        let mut m = self.clone();
        for s in 0..64 {
            let p = self.placement[s ^ 56];
            m.placement[s] = if p == EMPTY { EMPTY } else { make_piece(kind_of(p), color_of(p) ^ 1) };
        }
        m.white_to_move = !self.white_to_move;
        m.castling = self.castling.swap_bytes();
        m.ep = self.ep.map(|e| e ^ 56);
        m.promoted = self.promoted.swap_bytes();
        m
    }

    /// The position after `from`-`to` (promotion kind `promo`, 0 for none; all zero for the
    /// null move) as python-chess's `push` makes it, for a move that is pseudo-legal but not
    /// legal (it leaves the own king attacked) or a move in a position kibitz cannot play.
    /// Castling is the king onto its own rook, or e1g1 / e1c1 (e8g8 / e8c8) with the king on
    /// e1 (e8) and no rook on the target; the clocks, castling rights and en-passant square
    /// follow python-chess's rules. None when no piece of the side to move is on `from`.
    pub fn after_move(&self, from: usize, mut to: usize, promo: u8) -> Option<Setup> {
        let mut s = self.clone();
        let us = if self.white_to_move { WHITE } else { BLACK };
        let ep = s.ep.take();
        s.halfmove += 1;
        if !self.white_to_move {
            s.fullmove += 1;
        }
        s.white_to_move = !self.white_to_move;
        if from == 0 && to == 0 && promo == 0 {
            return Some(s);
        }
        let piece = self.placement[from];
        if piece == EMPTY || color_of(piece) != us {
            return None;
        }
        let kind = kind_of(piece);
        let home = if us == WHITE { 0 } else { 56 };
        let own_rook = make_piece(ROOK, us);
        // Standard-chess castling written as the king's two-square step.
        if kind == KING && from == home + 4 && (to == home + 6 || to == home + 2) && self.placement[to] != own_rook {
            to = if to == home + 6 { home + 7 } else { home };
        }
        let target = self.placement[to];
        let castling = kind == KING && target != EMPTY && color_of(target) == us;
        if kind == PAWN || (target != EMPTY && !castling) {
            s.halfmove = 0;
        }
        s.castling &= !(1u64 << to) & !(1u64 << from);
        // python-chess's `promoted`: the piece keeps its mark to its target, a promotion
        // makes one; whatever stood on the target loses its mark.
        let was_promoted = self.promoted >> from & 1 != 0;
        s.promoted &= !(1u64 << to) & !(1u64 << from);
        if kind == KING {
            s.castling &= !(if us == WHITE { RANK_1 } else { RANK_8 });
        } else if target != EMPTY && kind_of(target) == KING && color_of(target) != us {
            // python-chess: taking a king on its back rank takes its side's rights.
            if us == WHITE && to / 8 == 7 {
                s.castling &= !RANK_8;
            } else if us == BLACK && to / 8 == 0 {
                s.castling &= !RANK_1;
            }
        }
        s.placement[from] = EMPTY;
        let mut put = piece;
        if kind == PAWN {
            let diff = to as i32 - from as i32;
            if diff == 16 && from / 8 == 1 {
                s.ep = Some(from as u8 + 8);
            } else if diff == -16 && from / 8 == 6 {
                s.ep = Some(from as u8 - 8);
            } else if Some(to as u8) == ep && (diff.abs() == 7 || diff.abs() == 9) && target == EMPTY {
                let taken = if us == WHITE { to - 8 } else { to + 8 };
                s.placement[taken] = EMPTY;
                s.promoted &= !(1u64 << taken);
            }
        }
        if promo != 0 {
            put = make_piece(promo, us);
        }
        if castling {
            s.placement[to] = EMPTY;
            let a_side = to % 8 < from % 8;
            let (king_to, rook_to) = if a_side { (home + 2, home + 3) } else { (home + 6, home + 5) };
            s.placement[king_to] = piece;
            s.placement[rook_to] = own_rook;
            s.promoted &= !(1u64 << king_to | 1u64 << rook_to);
        } else {
            s.placement[to] = put;
            if was_promoted || promo != 0 {
                s.promoted |= 1u64 << to;
            }
        }
        Some(s)
    }

    /// python-chess's `has_chess960_castling_rights` of a board without move stack: whether
    /// a right usable in Chess960 is not a standard one (king on e1 or e8, rook on a corner).
    pub fn has_chess960_castling_rights(&self) -> bool {
        let rights = Setup { chess960: true, ..self.clone() }.clean_castling();
        if rights & !(1 | 1 << 7 | 1 << 56 | 1 << 63) != 0 {
            return true;
        }
        (rights & RANK_1 != 0 && self.mask(make_piece(KING, WHITE)) & 1 << 4 == 0)
            || (rights & RANK_8 != 0 && self.mask(make_piece(KING, BLACK)) & 1 << 60 == 0)
    }

    /// python-chess's reading of a castling field into rook squares, usable or not (its
    /// `set_castling_fen`); the message of `ValueError` for a field it refuses.
    pub fn castling_mask(&self, field: &str) -> Result<u64, String> {
        if field.is_empty() || field == "-" {
            return Ok(0);
        }
        if !castling_field_ok(field) {
            return Err(format!("invalid castling fen: {}", py_repr(field)));
        }
        let mut rights = 0u64;
        for flag in field.chars() {
            let white = flag.is_ascii_uppercase();
            let (backrank, c) = if white { (RANK_1, WHITE) } else { (RANK_8, BLACK) };
            let rooks = self.mask(make_piece(ROOK, c)) & backrank;
            let kings = self.mask(make_piece(KING, c)) & !self.promoted;
            let king = (kings != 0).then(|| msb(kings));
            let file_mask = |f: usize| 0x0101_0101_0101_0101u64 << f & backrank;
            match flag.to_ascii_lowercase() {
                'q' => {
                    // python-chess's lsb of no squares is -1: the right then names no rook.
                    let lowest = if rooks != 0 { rooks.trailing_zeros() as i64 } else { -1 };
                    if king.is_some_and(|k| lowest < k as i64) {
                        rights |= rooks & rooks.wrapping_neg();
                    } else {
                        rights |= file_mask(0);
                    }
                }
                'k' => {
                    if king.is_some_and(|k| rooks != 0 && k < msb(rooks)) {
                        rights |= 1 << msb(rooks);
                    } else {
                        rights |= file_mask(7);
                    }
                }
                f => rights |= file_mask(f as usize - 'a' as usize),
            }
        }
        Ok(rights)
    }

    /// A FEN read as python-chess's `set_fen` reads it (fields may be missing; any
    /// placement, castling rights and en-passant square): the position, or the message of
    /// python-chess's `ValueError` for one it refuses.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Setup, String> {
        let mut parts = fen.split_whitespace();
        let Some(board_part) = parts.next() else { return Err("empty fen: no fields".to_string()) };
        let mut s = Setup::empty(chess960);
        if let Some(turn) = parts.next() {
            s.white_to_move = match turn {
                "w" => true,
                "b" => false,
                _ => return Err(format!("expected 'w' or 'b' for turn part of fen: {}", py_repr(fen))),
            };
        }
        let castling = parts.next().unwrap_or("-");
        if !castling_field_ok(castling) {
            return Err(format!("invalid castling part in fen: {}", py_repr(fen)));
        }
        if let Some(ep) = parts.next() {
            if ep != "-" {
                let b = ep.as_bytes();
                if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
                    return Err(format!("invalid en passant part in fen: {}", py_repr(fen)));
                }
                s.ep = Some((b[1] - b'1') * 8 + (b[0] - b'a'));
            }
        }
        if let Some(h) = parts.next() {
            let h = py_int(h).ok_or_else(|| format!("invalid half-move clock in fen: {}", py_repr(fen)))?;
            if h < 0 {
                return Err(format!("half-move clock cannot be negative: {}", py_repr(fen)));
            }
            s.halfmove = h.min(u32::MAX as i128) as u32;
        }
        if let Some(f) = parts.next() {
            let f = py_int(f).ok_or_else(|| format!("invalid fullmove number in fen: {}", py_repr(fen)))?;
            if f < 0 {
                return Err(format!("fullmove number cannot be negative: {}", py_repr(fen)));
            }
            s.fullmove = f.clamp(1, u32::MAX as i128) as u32;
        }
        if parts.next().is_some() {
            return Err(format!("fen string has more parts than expected: {}", py_repr(fen)));
        }
        let (placement, promoted) = parse_board_fen(board_part)?;
        s.placement = placement;
        s.promoted = promoted;
        s.castling = s.castling_mask(castling)?;
        Ok(s)
    }
}

impl crate::chess::board::Board {
    /// The playable board of `setup` with the usable castling rights `clean` (its
    /// `clean_castling`): what `from_fen_with(&setup.core_fen(clean), setup.chess960)` reads,
    /// the same board or the same error, without writing and reading the text (the board
    /// editing of the bindings makes one at every edit).
    pub fn from_setup(setup: &Setup, clean: u64) -> Result<Self, FenError> {
        let mut squares = [EMPTY; 64];
        for (i, q) in squares.iter_mut().enumerate() {
            // FEN order: rank 8 first, files a to h.
            *q = setup.placement[i ^ 56];
        }
        let mut b = Self::empty();
        b.chess960 = setup.chess960;
        b.place_squares(&squares)?;
        b.side = if setup.white_to_move { WHITE } else { BLACK };
        let (field, n) = setup.castling_field(clean);
        b.parse_castling(std::str::from_utf8(&field[..n]).expect("ASCII letters"))?;
        if let Some(e) = setup.valid_ep() {
            let name = [b'a' + e % 8, b'1' + e / 8];
            b.parse_ep(std::str::from_utf8(&name).expect("ASCII letters"))?;
        }
        // As the FEN reader takes the clocks' decimal text.
        b.halfmove = setup.halfmove.min(COUNTER_MAX);
        b.fullmove = setup.fullmove.clamp(1, COUNTER_MAX);
        b.finish_position()?;
        Ok(b)
    }

    /// The loose board of `setup` (any placement; see `from_fen_loose`) with the castling
    /// rights `clean`: what `from_fen_loose(&setup.core_fen(clean), ..)` and then
    /// `set_loose_castling(clean)` make, for a position the core cannot play.
    pub fn from_setup_loose(setup: &Setup, clean: u64) -> Self {
        let mut b = Self::empty();
        b.chess960 = setup.chess960;
        for i in 0..64 {
            // FEN order, as the FEN reader puts the pieces.
            let s = i ^ 56;
            let p = setup.placement[s];
            if p != EMPTY {
                b.put_loose(sq120(s % 8, s / 8), p);
            }
        }
        b.side = if setup.white_to_move { WHITE } else { BLACK };
        b.halfmove = setup.halfmove.min(COUNTER_MAX);
        b.fullmove = setup.fullmove.clamp(1, COUNTER_MAX);
        b.key = b.compute_key();
        b.set_loose_castling(clean);
        b
    }

    /// python-chess's `promoted` after the first `count` moves of this board's history (all
    /// of them when `count` is larger), from `root`, the mask at its set-up: a moved piece
    /// keeps its mark, a promotion makes one, a capture (en passant too) and castling clear
    /// the squares they touch.
    pub fn promoted_after(&self, root: u64, count: usize) -> u64 {
        let mut promoted = root;
        if promoted == 0 && !self.history.iter().take(count).any(|u| u.mv.is_promotion()) {
            return 0;
        }
        for m in self.history.iter().take(count).map(|u| u.mv) {
            if m.is_null() {
                continue;
            }
            let (from, to) = (sq64(m.from()), sq64(m.to()));
            let was = promoted >> from & 1 != 0;
            promoted &= !(1u64 << from | 1u64 << to);
            if m.is_castle() {
                let color = if from / 8 == 0 { WHITE } else { BLACK };
                let kingside = to % 8 == 6;
                let rook_from = sq64(self.castle_rook[2 * color + usize::from(!kingside)] as Square);
                let rook_to = if kingside { to - 1 } else { to + 1 };
                promoted &= !(1u64 << rook_from | 1u64 << rook_to);
            } else {
                if m.is_en_passant() {
                    promoted &= !(1u64 << (from / 8 * 8 + to % 8));
                }
                if was || m.is_promotion() {
                    promoted |= 1u64 << to;
                }
            }
        }
        promoted
    }
}

/// python-chess's `FEN_CASTLING_REGEX`: `-`, or up to two of `KQA..H` then up to two of `kqa..h`.
pub fn castling_field_ok(field: &str) -> bool {
    if field == "-" {
        return true;
    }
    let white = field.bytes().take_while(|b| b"KQABCDEFGH".contains(b)).count();
    let black = field[white..].bytes().take_while(|b| b"kqabcdefgh".contains(b)).count();
    white <= 2 && black <= 2 && white + black == field.len()
}

/// An integer as Python's `int(text)` reads one (sign, digits, underscores between digits,
/// surrounding whitespace), or None.
fn py_int(text: &str) -> Option<i128> {
    let t = text.trim();
    let (neg, digits) = match t.as_bytes().first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return None;
    }
    let mut v: i128 = 0;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(10)? as i128;
        v = v.saturating_mul(10).saturating_add(d);
    }
    Some(if neg { -v } else { v })
}

/// python-chess's reading of a FEN's board part: the placement and the mask of the pieces
/// marked promoted (`Q~`), or the message of its `ValueError`.
pub fn parse_board_fen(text: &str) -> Result<([u8; 64], u64), String> {
    let fen = text.trim();
    if fen.contains(' ') {
        return Err(format!("expected position part of fen, got multiple parts: {}", py_repr(fen)));
    }
    let rows: Vec<&str> = fen.split('/').collect();
    if rows.len() != 8 {
        return Err(format!("expected 8 rows in position part of fen: {}", py_repr(fen)));
    }
    let mut placement = [EMPTY; 64];
    let mut promoted = 0u64;
    for (i, row) in rows.iter().enumerate() {
        let (mut file, mut after_digit, mut after_piece) = (0usize, false, false);
        for c in row.chars() {
            if ('1'..='8').contains(&c) {
                if after_digit {
                    return Err(format!("two subsequent digits in position part of fen: {}", py_repr(fen)));
                }
                file += c as usize - '0' as usize;
                (after_digit, after_piece) = (true, false);
            } else if c == '~' {
                if !after_piece {
                    return Err(format!("'~' not after piece in position part of fen: {}", py_repr(fen)));
                }
                if file <= 8 {
                    promoted |= 1 << ((7 - i) * 8 + file - 1);
                }
                (after_digit, after_piece) = (false, false);
            } else if let Some(p) = piece_of_symbol(c.encode_utf8(&mut [0; 4])) {
                if file < 8 {
                    placement[(7 - i) * 8 + file] = p;
                }
                file += 1;
                (after_digit, after_piece) = (false, true);
            } else {
                return Err(format!("invalid character in position part of fen: {}", py_repr(fen)));
            }
        }
        if file != 8 {
            return Err(format!("expected 8 columns per row in position part of fen: {}", py_repr(fen)));
        }
    }
    Ok((placement, promoted))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::board::Board;

    /// Whether two boards hold the same position, piece lists and key (the slot of an empty
    /// cell is stale, so not compared).
    fn same_board(a: &Board, b: &Board) -> bool {
        let slots = (0..120).filter(|&c| a.cells[c] != EMPTY).all(|c| a.index[c] == b.index[c]);
        a.cells == b.cells
            && slots
            && a.list == b.list
            && a.count == b.count
            && a.bb == b.bb
            && a.occ == b.occ
            && a.side == b.side
            && a.castling == b.castling
            && a.castle_rook == b.castle_rook
            && a.castle_mask == b.castle_mask
            && a.ep == b.ep
            && (a.halfmove, a.fullmove) == (b.halfmove, b.fullmove)
            && a.key == b.key
            && a.chess960 == b.chess960
    }

    /// Random lenient positions, often playable, often not: kings (one a side, sometimes none
    /// or two), up to 20 other pieces with pawns now and then on a back rank, castling rights
    /// on corners and on any back-rank square, en-passant squares that fit or not, clocks up
    /// to beyond the counters' range.
    fn random_setups(n: usize) -> Vec<Setup> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let pieces = [b'P', b'N', b'B', b'R', b'Q', b'p', b'n', b'b', b'r', b'q'];
        (0..n)
            .map(|_| {
                let mut s = Setup::empty(next(3) == 0);
                for (king, home) in [(b'K', 4u64), (b'k', 60u64)] {
                    let copies = [1, 1, 1, 1, 1, 1, 0, 2][next(8) as usize];
                    for j in 0..copies {
                        let sq = if j == 0 && next(2) == 0 { home } else { next(64) };
                        s.placement[sq as usize] = piece_of_symbol(&(king as char).to_string()).unwrap();
                    }
                }
                for _ in 0..next(21) {
                    let sq = next(64) as usize;
                    let p = pieces[next(pieces.len() as u64) as usize];
                    if s.placement[sq] == EMPTY
                        && (!p.eq_ignore_ascii_case(&b'p') || (8..56).contains(&sq) || next(10) == 0)
                    {
                        s.placement[sq] = piece_of_symbol(&(p as char).to_string()).unwrap();
                    }
                }
                for corner in [0u64, 7, 56, 63] {
                    if next(2) == 0 {
                        s.placement[corner as usize] = make_piece(ROOK, if corner < 8 { WHITE } else { BLACK });
                        s.castling |= 1 << corner;
                    }
                }
                if next(3) == 0 {
                    s.castling |= 1 << (next(8) + if next(2) == 0 { 0 } else { 56 });
                }
                s.white_to_move = next(2) == 0;
                s.ep = match next(4) {
                    0 => Some(next(64) as u8),
                    1 | 2 => {
                        // A pawn that has just advanced two squares past it, mostly.
                        let f = next(8) as usize;
                        let (ep, pawn, origin, them) = if s.white_to_move {
                            (40 + f, 32 + f, 48 + f, BLACK)
                        } else {
                            (16 + f, 24 + f, 8 + f, WHITE)
                        };
                        if next(4) != 0 {
                            s.placement[pawn] = make_piece(PAWN, them);
                            s.placement[ep] = EMPTY;
                            s.placement[origin] = EMPTY;
                            // And a pawn of the side to move beside it, which can take.
                            let beside = if f == 0 || (f < 7 && next(2) == 0) { pawn + 1 } else { pawn - 1 };
                            if next(3) != 0 {
                                s.placement[beside] = make_piece(PAWN, them ^ 1);
                            }
                        }
                        Some(ep as u8)
                    }
                    _ => None,
                };
                s.halfmove = [0, 3, 99, u32::MAX][next(4) as usize];
                s.fullmove = [0, 1, 47, u32::MAX][next(4) as usize];
                s.promoted = if next(5) == 0 { 1 << next(64) } else { 0 };
                s
            })
            .collect()
    }

    #[test]
    fn a_setup_becomes_the_board_its_core_fen_reads_as() {
        let (mut played, mut refused, mut with_ep) = (0, 0, 0);
        for s in random_setups(20_000) {
            let clean = s.clean_castling();
            let text = s.core_fen(clean);
            match (Board::from_setup(&s, clean), Board::from_fen_with(&text, s.chess960)) {
                (Ok(a), Ok(b)) => {
                    assert!(same_board(&a, &b), "{text}");
                    played += 1;
                    with_ep += usize::from(a.ep != 0);
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a.to_string(), b.to_string(), "{text}");
                    refused += 1;
                    let mut loose = Board::from_fen_loose(&text, s.chess960).unwrap();
                    loose.set_loose_castling(clean);
                    assert!(same_board(&Board::from_setup_loose(&s, clean), &loose), "{text}");
                }
                (a, b) => panic!("{text}: from_setup {:?}, from_fen_with {:?}", a.err(), b.err()),
            }
        }
        // Both kinds are well represented.
        assert!(played > 2_000 && refused > 2_000, "{played} played, {refused} refused");
        assert!(with_ep > 300, "{with_ep} with an en-passant square");
    }

    #[test]
    fn a_fen_with_fields_missing_reads_as_python_chess_does() {
        let s = Setup::from_fen("8/8/8/8/8/8/8/4K3", false).unwrap();
        assert!(s.white_to_move && s.castling == 0 && s.ep.is_none() && (s.halfmove, s.fullmove) == (0, 1));
        assert_eq!(s.placement[4], make_piece(KING, WHITE));
        assert_eq!(s.board_fen(), "8/8/8/8/8/8/8/4K3");
    }

    #[test]
    fn castling_rights_name_rooks_usable_or_not() {
        let s = Setup::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        assert_eq!(s.castling, 1 | 1 << 7 | 1 << 56 | 1 << 63);
        assert_eq!(s.clean_castling(), s.castling);
        // Rights without their rook are kept as python-chess reads them (K names h1; Q names
        // no square, as python-chess's lsb of no rooks is -1) and cleaned away.
        let s = Setup::from_fen("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", false).unwrap();
        assert_eq!((s.castling, s.clean_castling()), (1 << 7, 0));
        assert_eq!(s.core_fen(s.clean_castling()), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn refusals_carry_python_chess_messages() {
        assert_eq!(Setup::from_fen("", false).unwrap_err(), "empty fen: no fields");
        assert_eq!(Setup::from_fen("8/8/8 w", false).unwrap_err(), "expected 8 rows in position part of fen: '8/8/8'");
        assert_eq!(
            Setup::from_fen("8/8/8/8/8/8/8/8 x", false).unwrap_err(),
            "expected 'w' or 'b' for turn part of fen: '8/8/8/8/8/8/8/8 x'"
        );
        assert_eq!(py_repr("it's"), "\"it's\"");
        assert_eq!(py_repr("a\tb\\"), "'a\\tb\\\\'");
    }

    #[test]
    fn symbols_map_to_piece_codes_and_back() {
        for s in ["P", "N", "B", "R", "Q", "K", "p", "n", "b", "r", "q", "k"] {
            let p = piece_of_symbol(s).expect("a piece symbol");
            assert_eq!(symbol_of(p), s.chars().next().unwrap());
        }
        assert_eq!(piece_of_symbol("."), None);
        assert_eq!(piece_of_symbol("x"), None);
        assert_eq!(piece_of_symbol("PP"), None);
    }

    #[test]
    fn python_ints_allow_signs_spaces_and_underscores() {
        assert_eq!(py_int("1_000"), Some(1000));
        assert_eq!(py_int("+7"), Some(7));
        assert_eq!(py_int("-3"), Some(-3));
        assert_eq!(py_int("1__0"), None);
        assert_eq!(py_int("x"), None);
    }
}
