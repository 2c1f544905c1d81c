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

// ---- SAN as python-chess reads it ----
//
// python-chess's `parse_san` has its own spellings (castling as O-O or 0-0 with a check
// sign, the null move), its own leniencies (a missing capture sign, a redundant file or rank,
// a fully given move of any piece: "g1f3") and its own messages. `kibitz.Board`'s
// `parse_san` and `push_san` and its PGN movetext reading take this dialect; the engine's
// tools, the PGN reader of game collections and the terminal game take `parse_san` above.

/// The spellings of the null move python-chess's `parse_san` accepts.
pub const NULL_SANS: [&str; 4] = ["--", "Z0", "0000", "@@@@"];

/// The castling spellings python-chess's `parse_san` accepts (king side first).
const CASTLING_SANS: [&str; 12] =
    ["O-O", "O-O+", "O-O#", "0-0", "0-0+", "0-0#", "O-O-O", "O-O-O+", "O-O-O#", "0-0-0", "0-0-0+", "0-0-0#"];

/// What is wrong with a SAN text in python-chess's reading: the kind of its error
/// (`InvalidMoveError`, `IllegalMoveError`, `AmbiguousMoveError` there) and its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanFault {
    Invalid(String),
    Illegal(String),
    Ambiguous(String),
}

/// The parts of a SAN text as python-chess's SAN pattern splits it: piece letter, from-file,
/// from-rank, target square (0..64), promotion kind; None when the text does not have the
/// shape (an annotation like "!?" included), which is an InvalidMoveError there.
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

/// The name of square `s` (0..64, a1 = 0).
fn name64(s: u8) -> String {
    crate::chess::setup::square_name(s as usize)
}

impl Board {
    /// The move `san` names, read as python-chess's `parse_san` reads it: the null move's
    /// spellings (`Move::NULL`), castling as O-O / O-O-O, a fully specified move without
    /// piece letter looked up by its squares (castling king to g1/c1 included), else the
    /// legal moves filtered by piece, from-file, from-rank, target and promotion (a pawn
    /// without from-file stays on its file; the capture sign is not checked). `legal`: the
    /// position's legal moves where the caller has them at hand (else made when needed).
    /// The fault's message is python-chess's; `quote` writes the text in it as python-chess
    /// does (Python's `repr`).
    pub fn parse_san_python_chess(
        &self,
        san: &str,
        legal: Option<&[Move]>,
        quote: fn(&str) -> String,
    ) -> Result<Move, SanFault> {
        if NULL_SANS.contains(&san) {
            return Ok(Move::NULL);
        }
        let illegal = || SanFault::Illegal(format!("illegal san: {} in {}", quote(san), self.fen()));
        let mut made = MoveList::new();
        let mut moves = |board: &Board| -> Vec<Move> {
            match legal {
                Some(l) => l.to_vec(),
                None => {
                    board.generate_legal(&mut made);
                    made.as_slice().to_vec()
                }
            }
        };
        if let Some(i) = CASTLING_SANS.iter().position(|&c| c == san) {
            let kingside = i < 6;
            return moves(self)
                .into_iter()
                .find(|m| m.is_castle() && (file_of(m.to()) == 6) == kingside)
                .ok_or_else(illegal);
        }
        let Some(p) = san_parts(san) else {
            if san.contains(',') {
                return Err(SanFault::Invalid(format!("unsupported multi-leg move: {}", quote(san))));
            }
            return Err(SanFault::Invalid(format!("invalid san: {}", quote(san))));
        };
        if let (None, Some(file), Some(rank)) = (p.piece, p.file, p.rank) {
            // python-chess's find_move: a pawn reaching the last rank without a promotion
            // letter is taken as a queen promotion (which then does not match the text), and
            // on a standard board the king taking its own rook is castling.
            let from = rank * 8 + file;
            let piece = self.piece_at(sq120(file as usize, rank as usize));
            let kind = if piece == EMPTY { 0 } else { kind_of(piece) };
            let mut promo = p.promo;
            if promo == 0 && kind == PAWN && (p.to / 8 == 0 || p.to / 8 == 7) {
                promo = QUEEN;
            }
            let mut to = p.to;
            if promo == 0 && !self.is_chess960() && kind == KING && (from == 4 || from == 60) {
                if to == from + 3 {
                    to = from + 2;
                } else if to + 4 == from {
                    to = from - 2;
                }
            }
            let letter = ["", "p", "n", "b", "r", "q", "k"][promo as usize];
            let uci = format!("{}{}{letter}", name64(from), name64(to));
            let Ok(m) = self.parse_uci_among(&uci, &moves(self)) else {
                return Err(SanFault::Illegal(format!(
                    "no matching legal move for {uci} ({} -> {}) in {}",
                    name64(from),
                    name64(p.to),
                    self.fen()
                )));
            };
            if promo != p.promo {
                return Err(SanFault::Illegal(format!(
                    "missing promotion piece type: {} in {}",
                    quote(san),
                    self.fen()
                )));
            }
            return Ok(m);
        }
        if let Some(m) = self.quick_san(&p) {
            return Ok(m);
        }
        let to_cell = sq120(p.to as usize % 8, p.to as usize / 8);
        let mut found: Option<Move> = None;
        for m in moves(self) {
            if m.is_castle() || m.to() != to_cell || m.promo() != p.promo {
                continue;
            }
            let kind = kind_of(self.piece_at(m.from()));
            let (ff, fr) = (file_of(m.from()) as u8, rank_of(m.from()) as u8);
            match p.piece {
                Some(k) if k != kind => continue,
                None if kind != PAWN || (p.file.is_none() && ff != p.to % 8) => continue,
                _ => {}
            }
            if p.file.is_some_and(|f| f != ff) || p.rank.is_some_and(|r| r != fr) {
                continue;
            }
            if found.is_some() {
                return Err(SanFault::Ambiguous(format!("ambiguous san: {} in {}", quote(san), self.fen())));
            }
            found = Some(m);
        }
        found.ok_or_else(illegal)
    }

    /// The move of a piece or pawn SAN (not castling, not fully given) found without
    /// generating the move list: every piece of the named kind on the squares the text
    /// allows is tried as a move to the target (with the flags its shape gives it) and
    /// checked by `is_legal_quick`. Some only when exactly one is legal and no en-passant
    /// capture could be meant; anything else (none, several, a possible en passant) is left
    /// to the general path, which gives python-chess's answer and error.
    fn quick_san(&self, p: &SanParts) -> Option<Move> {
        let us = self.side_to_move();
        let kind = p.piece.unwrap_or(PAWN);
        let to = sq120(p.to as usize % 8, p.to as usize / 8);
        let (to_file, to_rank) = (p.to % 8, p.to / 8);
        let mut from_mask = self.bb[make_piece(kind, us) as usize];
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
                if f % 8 != to_file && self.piece_at(to) == EMPTY {
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
            if self.is_legal_quick(m) {
                if found.is_some() {
                    return None; // ambiguous: the general path says so
                }
                found = Some(m);
            }
        }
        debug_assert!(found.is_none_or(|m| self.is_legal(m)));
        found
    }
}

// ---- python-chess's SAN for positions the core cannot play ----
//
// A `Setup` (no king, several kings, ...) has python-chess's moves (`SetupMoves`); its SAN is
// written and read by python-chess's rules over them, with its messages.

use crate::chess::setup::Setup;
use crate::chess::setup_moves::{SetupMove, SetupMoves};

impl SetupMove {
    /// The null move (a1a1 with no promotion), as python-chess's `Move.null()`.
    pub const NULL: SetupMove = SetupMove { from: 0, to: 0, promotion: 0 };

    pub fn is_null(&self) -> bool {
        *self == SetupMove::NULL
    }

    /// The move in UCI text ("0000" for the null move).
    pub fn uci(&self) -> String {
        if self.is_null() {
            return "0000".into();
        }
        let letter = ["", "p", "n", "b", "r", "q", "k"][self.promotion as usize % 7];
        format!("{}{}{letter}", name64(self.from), name64(self.to))
    }
}

impl SetupMoves<'_> {
    fn legal_between(&self, from_mask: u64, to_mask: u64) -> Vec<SetupMove> {
        let mut out = Vec::new();
        self.legal_moves(from_mask, to_mask, &mut out);
        out
    }

    fn is_capture(&self, m: SetupMove) -> bool {
        let target = self.piece(m.to as usize);
        (target != EMPTY && color_of(target) != self.side()) || self.is_en_passant(m)
    }
}

impl Setup {
    /// The SAN (`long`: the long algebraic notation, python-chess's `lan`) of move `m` with
    /// the castling rights `castling` (see `Setup::moves`), as python-chess writes it: "--"
    /// for the null move, "+" or "#" from the position after it.
    pub fn san(&self, castling: u64, m: SetupMove, long: bool) -> String {
        if m.is_null() {
            return "--".into();
        }
        let moves = self.moves(castling);
        let (from, to) = (m.from as usize, m.to as usize);
        let mut san = if moves.is_castling(m) {
            if to % 8 < from % 8 {
                "O-O-O".to_string()
            } else {
                "O-O".to_string()
            }
        } else {
            let kind = kind_of(self.placement[from]);
            let capture = moves.is_capture(m);
            let mut s = String::new();
            if kind != PAWN {
                s.push(b"  NBRQK"[kind as usize] as char);
            }
            if long {
                s.push_str(&name64(m.from));
            } else if kind != PAWN {
                let same = self.mask(self.placement[from]) & !(1u64 << from);
                let others = moves.legal_between(same, 1u64 << to).iter().fold(0u64, |o, c| o | 1u64 << c.from);
                if others != 0 {
                    let (mut file, mut rank) = (false, false);
                    if others & (0xffu64 << (from / 8 * 8)) != 0 {
                        file = true;
                    }
                    if others & (0x0101_0101_0101_0101u64 << (from % 8)) != 0 {
                        rank = true;
                    } else {
                        file = true;
                    }
                    if file {
                        s.push((b'a' + (from % 8) as u8) as char);
                    }
                    if rank {
                        s.push((b'1' + (from / 8) as u8) as char);
                    }
                }
            } else if capture {
                s.push((b'a' + (from % 8) as u8) as char);
            }
            if capture {
                s.push('x');
            } else if long {
                s.push('-');
            }
            s.push_str(&name64(m.to));
            if m.promotion != 0 {
                s.push('=');
                s.push(b"  NBRQK"[m.promotion as usize % 7] as char);
            }
            s
        };
        if let Some(after) = self.after_move(from, to, m.promotion) {
            let next = after.moves(after.castling);
            if next.checkers() != 0 {
                san.push(if next.has_legal_move() { '+' } else { '#' });
            }
        }
        san
    }

    /// python-chess's `parse_san` over this position's moves (see `Board::parse_san_python_chess`
    /// for the rules); `fen` gives the position's FEN for the messages.
    pub fn parse_san_python_chess(
        &self,
        castling: u64,
        san: &str,
        fen: &dyn Fn() -> String,
        quote: fn(&str) -> String,
    ) -> Result<SetupMove, SanFault> {
        let moves = self.moves(castling);
        let illegal = || SanFault::Illegal(format!("illegal san: {} in {}", quote(san), fen()));
        if let Some(i) = CASTLING_SANS.iter().position(|&c| c == san) {
            let kingside = i < 6;
            let mut castles = Vec::new();
            moves.castling_moves(u64::MAX, u64::MAX, &mut castles);
            return castles
                .into_iter()
                .find(|m| moves.is_castling(*m) && ((m.to % 8) > (m.from % 8)) == kingside)
                .ok_or_else(illegal);
        }
        let Some(p) = san_parts(san) else {
            if NULL_SANS.contains(&san) {
                return Ok(SetupMove::NULL);
            }
            if san.contains(',') {
                return Err(SanFault::Invalid(format!("unsupported multi-leg move: {}", quote(san))));
            }
            return Err(SanFault::Invalid(format!("invalid san: {}", quote(san))));
        };
        let us = if self.white_to_move { WHITE } else { BLACK };
        let to_mask = (1u64 << p.to) & !self.color_mask(us);
        let mut from_mask = u64::MAX;
        if let Some(f) = p.file {
            from_mask &= 0x0101_0101_0101_0101u64 << f;
        }
        if let Some(r) = p.rank {
            from_mask &= 0xffu64 << (8 * r);
        }
        match (p.piece, p.file, p.rank) {
            (Some(kind), _, _) => from_mask &= self.mask(make_piece(kind, us)),
            (None, Some(file), Some(rank)) => {
                // python-chess's find_move: any piece, castling included; a pawn reaching a
                // back rank without a promotion letter is read as a queen promotion.
                let from = (rank * 8 + file) as usize;
                let mut promo = p.promo;
                let back = p.to / 8 == 0 || p.to / 8 == 7;
                if promo == 0 && kind_of(self.placement[from]) == PAWN && self.placement[from] != EMPTY && back {
                    promo = QUEEN;
                }
                let mut to = p.to;
                let kings = self.mask(make_piece(KING, WHITE)) | self.mask(make_piece(KING, BLACK));
                if promo == 0 && !self.chess960 && (from == 4 || from == 60) && kings >> from & 1 != 0 {
                    if to as usize == from + 3 {
                        to -= 1;
                    } else if to as usize + 4 == from {
                        to += 2;
                    }
                }
                let m = SetupMove { from: from as u8, to, promotion: promo };
                if !moves.is_legal(m) {
                    return Err(SanFault::Illegal(format!(
                        "no matching legal move for {} ({} -> {}) in {}",
                        m.uci(),
                        name64(from as u8),
                        name64(p.to),
                        fen()
                    )));
                }
                if promo != p.promo {
                    return Err(SanFault::Illegal(format!(
                        "missing promotion piece type: {} in {}",
                        quote(san),
                        fen()
                    )));
                }
                return Ok(m);
            }
            (None, file, _) => {
                from_mask &= self.mask(make_piece(PAWN, us));
                if file.is_none() {
                    from_mask &= 0x0101_0101_0101_0101u64 << (p.to % 8);
                }
            }
        }
        let mut found = None;
        for m in moves.legal_between(from_mask, to_mask) {
            if m.promotion != p.promo {
                continue;
            }
            if found.is_some() {
                return Err(SanFault::Ambiguous(format!("ambiguous san: {} in {}", quote(san), fen())));
            }
            found = Some(m);
        }
        found.ok_or_else(illegal)
    }
}
