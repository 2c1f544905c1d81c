//! FEN in and out (<https://www.chessprogramming.org/Forsyth-Edwards_Notation>), with
//! Shredder-FEN and X-FEN castling fields for Chess960. Parsing validates everything the
//! move generator relies on, so a board that parses is one the engine handles correctly.

use crate::chess::board::{cells, Board};
use crate::chess::error::FenError;
use crate::chess::geometry::SQ120;
use crate::chess::types::*;
use crate::chess::zobrist::{CASTLE_KEY, EP_KEY, PIECE_KEY, WHITE_TO_MOVE_KEY};

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The piece code of each byte that is a FEN piece letter, 0 for every other byte.
const PLACEMENT_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let letters = *b"pnbrqk";
    let mut i = 0;
    while i < 6 {
        t[letters[i] as usize] = make_piece(PAWN + i as u8, BLACK);
        t[letters[i].to_ascii_uppercase() as usize] = make_piece(PAWN + i as u8, WHITE);
        i += 1;
    }
    t
};

/// Reads a FEN board field, checking its syntax (8 ranks of 8 squares, digits 1-8 never two
/// in a row, piece letters) and nothing else, and hands each piece to `put` as (file, rank,
/// piece code), in reading order. Errors come in reading order too. One pass over the bytes
/// and a table load per piece, no allocation: a FEN is parsed millions of times when nets are
/// trained.
fn read_placement(field: &str, mut put: impl FnMut(usize, usize, u8)) -> Result<(), FenError> {
    let bytes = field.as_bytes();
    let nranks = 1 + bytes.iter().filter(|&&c| c == b'/').count();
    if nranks != 8 {
        return Err(FenError::RankCount(nranks));
    }
    let (mut rank, mut file, mut after_digit, mut rank_start) = (7usize, 0usize, false, 0usize);
    let mut i = 0;
    while i <= bytes.len() {
        let c = if i < bytes.len() { bytes[i] } else { b'/' };
        let p = PLACEMENT_BYTE[c as usize];
        if p != 0 {
            // A piece letter (the common case).
            after_digit = false;
            if file < 8 {
                put(file, rank, p);
            }
            file += 1;
            i += 1;
            continue;
        }
        match c {
            b'/' => {
                if file != 8 {
                    return Err(FenError::RankLength(rank + 1, file));
                }
                if rank == 0 {
                    break;
                }
                (rank, file, after_digit, rank_start) = (rank - 1, 0, false, i + 1);
            }
            b'1'..=b'8' => {
                // "44" for eight empty squares: python-chess rejects it, and so do we.
                if after_digit {
                    let end = bytes[i..].iter().position(|&c| c == b'/').map_or(bytes.len(), |n| i + n);
                    return Err(FenError::ConsecutiveDigits(rank + 1, field[rank_start..end].to_string()));
                }
                after_digit = true;
                file += (c - b'0') as usize;
            }
            _ => {
                // A byte that starts no piece letter: the character it begins.
                let ch = field[i..].chars().next().unwrap_or('\u{fffd}');
                return Err(FenError::PieceLetter(ch));
            }
        }
        i += 1;
    }
    Ok(())
}

/// What each byte of a board field is to the branch-free reader (`read_placement_fast`):
/// the piece code in the low byte; in the second, how many squares the byte covers (a letter
/// 1, a digit its value, any byte that has no place in a board field more than the board
/// holds); a bit for a digit, and the top bit for a slash.
const FAST_DIGIT: u32 = 1 << 16;
const FAST_SLASH: u32 = 1 << 31;
const FAST_BYTE: [u32; 256] = {
    let mut t = [65 << 8; 256];
    let mut c = 0;
    while c < 256 {
        if PLACEMENT_BYTE[c] != 0 {
            t[c] = PLACEMENT_BYTE[c] as u32 | 1 << 8;
        }
        c += 1;
    }
    let mut d = 1;
    while d <= 8 {
        t[b'0' as usize + d] = FAST_DIGIT | (d as u32) << 8;
        d += 1;
    }
    t[b'/' as usize] = FAST_SLASH;
    t
};

/// `read_placement` for the common case, without a branch on what each byte is (the mix of
/// letters, digits and slashes of a real FEN defeats a branch predictor): every byte writes
/// its piece code (0 for a digit or a slash, whose square is empty or written again by the
/// next byte) at the square count so far, in FEN order (a8, b8, ... h1). The syntax is
/// checked on the way: each slash after a whole rank, no two digits in a row, no other
/// byte (it jumps past the board). None when anything is wrong (the caller then asks
/// `read_placement` what).
#[inline(always)]
fn read_placement_fast(field: &[u8]) -> Option<[u8; 72]> {
    let mut out = [0u8; 72];
    // `rank_end`: where the next slash belongs; `faults`: nonzero once anything is wrong.
    let (mut idx, mut rank_end, mut faults, mut prev) = (0usize, 8usize, 0usize, 0u32);
    for &c in field {
        if idx > 64 {
            return None;
        }
        let e = FAST_BYTE[c as usize];
        out[idx] = e as u8;
        // All ones for a slash, else zero.
        let slash = (e as i32 >> 31) as usize;
        faults |= (idx ^ rank_end) & slash | (e & prev & FAST_DIGIT) as usize;
        rank_end += slash & 8;
        prev = e;
        idx += (e >> 8) as u8 as usize;
    }
    (faults == 0 && rank_end == 64 && idx == 64).then_some(out)
}

/// The whitespace-separated fields of a FEN (4 to 6 of them), without allocating.
fn split_fields(fen: &str) -> Result<([&str; 6], usize), FenError> {
    let (fields, n) = fen_fields(fen);
    if !(4..=6).contains(&n) {
        return Err(FenError::FieldCount(n));
    }
    Ok((fields, n))
}

/// The first six whitespace-separated fields of a FEN and how many fields it has, as
/// `split_whitespace` finds them. An ASCII FEN of up to 128 bytes (every real one) is split
/// eight bytes at a time: a bit mask of its whitespace, then the runs between; a longer
/// one byte by byte; text that is not ASCII as Unicode.
pub(crate) fn fen_fields(fen: &str) -> ([&str; 6], usize) {
    let bytes = fen.as_bytes();
    if bytes.len() > 128 {
        return fen_fields_bytewise(fen);
    }
    // Bit i set: byte i is whitespace (or past the end); filled a byte of bits per chunk.
    let mut bits = [0xFFu8; 16];
    let mut high = 0u64;
    let chunks = bytes.chunks_exact(8);
    let rest = chunks.remainder();
    for (b, chunk) in bits.iter_mut().zip(chunks) {
        let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        high |= x;
        *b = whitespace_bits(x);
    }
    if !rest.is_empty() {
        let mut w = [b' '; 8];
        for (d, &b) in w.iter_mut().zip(rest) {
            *d = b;
        }
        high |= u64::from_le_bytes(w);
        bits[bytes.len() / 8] = whitespace_bits(u64::from_le_bytes(w));
    }
    if high & 0x8080_8080_8080_8080 != 0 {
        // Not ASCII: Unicode whitespace may separate the fields.
        return fen_fields_unicode(fen);
    }
    let space = u128::from_le_bytes(bits);
    let word = !space;
    // The first and the last byte of each run of non-whitespace.
    let (mut starts, mut ends) = (word & !(word << 1), word & !(word >> 1));
    let n = starts.count_ones() as usize;
    let mut fields = [""; 6];
    for f in fields.iter_mut().take(n) {
        let (a, b) = (starts.trailing_zeros() as usize, ends.trailing_zeros() as usize);
        *f = &fen[a..=b];
        starts &= starts - 1;
        ends &= ends - 1;
    }
    (fields, n)
}

/// The bits (bit k for byte k) of the bytes of `x` that are ASCII whitespace as
/// `char::is_whitespace` has it: tab to carriage return (9..=13) and space. Every byte of `x`
/// must be ASCII (below 0x80), so that no sum below carries into the next byte.
#[inline(always)]
fn whitespace_bits(x: u64) -> u8 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const fn splat(b: u8) -> u64 {
        0x0101_0101_0101_0101 * b as u64
    }
    // A byte equal to 0x20: its XOR with 0x20 is zero, so adding 0x7F leaves the high bit clear.
    let t = x ^ splat(b' ');
    let is_space = !(((t & LOW7) + LOW7) | t) & HIGH;
    // 9 <= byte <= 13: byte + 0x77 reaches 0x80 and byte + 0x72 does not.
    let in_range = (x + splat(0x80 - 9)) & !(x + splat(0x80 - 14)) & HIGH;
    high_bits(is_space | in_range)
}

/// The high bit of each byte k of `x` as bit k (the other bits of `x` must be clear).
#[inline(always)]
fn high_bits(x: u64) -> u8 {
    ((x >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// `fen_fields` byte by byte (ASCII) for a text too long for the bit mask.
fn fen_fields_bytewise(fen: &str) -> ([&str; 6], usize) {
    let mut fields = [""; 6];
    let mut n = 0;
    let bytes = fen.as_bytes();
    // The ASCII characters `char::is_whitespace` accepts: tab to carriage return, space.
    let space = |b: u8| b == b' ' || b.wrapping_sub(b'\t') < 5;
    let mut i = 0;
    let mut start = None;
    while i < bytes.len() {
        let b = bytes[i];
        if b >= 0x80 {
            // Not ASCII: Unicode whitespace may separate the fields.
            return fen_fields_unicode(fen);
        }
        match (space(b), start) {
            (true, Some(s)) => {
                if n < 6 {
                    fields[n] = &fen[s..i];
                }
                n += 1;
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
        i += 1;
    }
    if let Some(s) = start {
        if n < 6 {
            fields[n] = &fen[s..];
        }
        n += 1;
    }
    (fields, n)
}

/// `fen_fields` for text that is not ASCII.
fn fen_fields_unicode(fen: &str) -> ([&str; 6], usize) {
    let mut fields = [""; 6];
    let mut n = 0;
    for f in fen.split_whitespace() {
        if n < 6 {
            fields[n] = f;
        }
        n += 1;
    }
    (fields, n)
}

/// The side to move field: "w" or "b".
fn parse_side(field: &str) -> Result<Color, FenError> {
    match field.as_bytes() {
        [b'w'] => Ok(WHITE),
        [b'b'] => Ok(BLACK),
        _ => Err(FenError::SideToMove(field.to_string())),
    }
}

/// The halfmove clock and fullmove number of the fields present (0 and 1 when missing; a
/// fullmove number 0 is read as 1, as python-chess does).
fn parse_clocks(fields: &[&str]) -> Result<(u32, u32), FenError> {
    let halfmove = match fields.get(4) {
        Some(h) => parse_count(h).ok_or_else(|| FenError::HalfmoveClock(h.to_string()))?,
        None => 0,
    };
    let fullmove = match fields.get(5) {
        Some(f) => parse_count(f).ok_or_else(|| FenError::FullmoveNumber(f.to_string()))?.max(1),
        None => 1,
    };
    Ok((halfmove, fullmove))
}

const COLOR_NAMES: [&str; 2] = ["white", "black"];

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(STARTPOS).expect("the start position FEN is valid")
    }

    /// Parses a standard-chess FEN (4 to 6 fields; missing clocks default to 0 and 1).
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        Board::from_fen_with(fen, false)
    }

    /// Parses a FEN; with `chess960` the castling field may be Shredder-FEN or X-FEN and the
    /// king and rooks may start anywhere on the back rank.
    pub fn from_fen_with(fen: &str, chess960: bool) -> Result<Board, FenError> {
        let (fields, nfields) = fen_fields(fen);
        Board::from_fen_fields(&fields, nfields, chess960)
    }

    /// `from_fen_with` on a FEN already split by `fen_fields` (its first six fields and how
    /// many there are).
    pub(crate) fn from_fen_fields(fields: &[&str; 6], nfields: usize, chess960: bool) -> Result<Board, FenError> {
        if !(4..=6).contains(&nfields) {
            return Err(FenError::FieldCount(nfields));
        }
        let mut b = Board::empty();
        b.chess960 = chess960;
        b.place(fields[0])?;
        b.side = parse_side(fields[1])?;
        b.parse_castling(fields[2])?;
        b.parse_ep(fields[3])?;
        (b.halfmove, b.fullmove) = parse_clocks(&fields[..nfields])?;
        b.finish_position()?;
        Ok(b)
    }

    /// The last step of reading a position once its pieces, side to move, castling rights,
    /// en-passant square and clocks are set: the side not to move must not be in check, and
    /// the key takes the rights, the square and the side.
    pub(super) fn finish_position(&mut self) -> Result<(), FenError> {
        let them = self.side ^ 1;
        if self.is_attacked(self.king_square(them), self.side) {
            return Err(FenError::OppositeCheck(COLOR_NAMES[them]));
        }
        self.key ^= CASTLE_KEY[self.castling as usize];
        if self.ep != 0 {
            self.key ^= EP_KEY[file_of(self.ep as Square)];
        }
        if self.side == WHITE {
            self.key ^= WHITE_TO_MOVE_KEY;
        }
        debug_assert!(self.key == self.compute_key());
        debug_assert!(self.is_ok());
        Ok(())
    }

    /// Puts the pieces of a FEN board field on this empty board, checking what the move
    /// generator relies on: one king a side, at most 16 pieces a side, no pawn on a back rank.
    /// One pass over the bytes lays out the squares, one over the pieces fills the mailbox,
    /// the bitboards and the key; the piece lists are made afterwards, kings first, then
    /// queens, rooks, bishops, knights and pawns, each kind in FEN order (the generator
    /// dispatches on each piece's kind, and runs of equal kinds make that branch predictable).
    fn place(&mut self, field: &str) -> Result<(), FenError> {
        if let Some(squares) = read_placement_fast(field.as_bytes()) {
            let squares: &[u8; 64] = squares[..64].try_into().expect("64 squares");
            return self.place_squares(squares);
        }
        // Something is wrong: the careful reader says what.
        let (mut bb, mut key) = ([0u64; 16], 0u64);
        let cells = &mut self.cells;
        read_placement(field, |file, rank, p| {
            let sq = sq120(file, rank);
            cells[sq] = p;
            bb[p as usize & 15] |= 1u64 << (8 * rank + file);
            key ^= PIECE_KEY[p as usize & 15][sq];
        })?;
        self.finish_placement(bb, key)
    }

    /// `place` for the piece codes of the 64 squares in FEN order (rank 8 first, a to h;
    /// 0 for an empty square): what a well-formed board field reads as.
    pub(super) fn place_squares(&mut self, squares: &[u8; 64]) -> Result<(), FenError> {
        // Bitboards and key in locals: kept in the struct, each update would wait for the
        // previous store to the same word.
        let (mut bb, mut key) = ([0u64; 16], 0u64);
        // The occupied squares, eight at a time (bit i: the i-th square in FEN order).
        let mut occupied = 0u64;
        for (r, chunk) in squares.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            // A piece code is 1..=14: adding 0x7F to its low seven bits sets the high bit.
            let nonzero = (x & 0x7F7F_7F7F_7F7F_7F7F) + 0x7F7F_7F7F_7F7F_7F7F;
            occupied |= u64::from(high_bits(nonzero & 0x8080_8080_8080_8080)) << (8 * r);
        }
        while occupied != 0 {
            let i = occupied.trailing_zeros() as usize;
            occupied &= occupied - 1;
            let p = squares[i] as usize & 15;
            // FEN order runs from rank 8 down: the i-th square is a1-based square i ^ 56.
            let cell = SQ120[i ^ 56] as usize;
            self.cells[cell] = p as u8;
            bb[p] |= 1u64 << (i ^ 56);
            key ^= PIECE_KEY[p][cell];
        }
        self.finish_placement(bb, key)
    }

    /// The rest of `place` once the mailbox holds the pieces and `bb` / `key` their
    /// bitboards and key: the colour sets, the checks the move generator relies on, and the
    /// piece lists.
    fn finish_placement(&mut self, bb: [u64; 16], key: u64) -> Result<(), FenError> {
        self.bb = bb;
        self.key ^= key;
        for kind in PAWN..=KING {
            for c in [WHITE, BLACK] {
                self.occ[c] |= bb[make_piece(kind, c) as usize];
            }
        }
        for c in [WHITE, BLACK] {
            let kings = self.bb[make_piece(KING, c) as usize].count_ones() as usize;
            if kings != 1 {
                return Err(FenError::KingCount(COLOR_NAMES[c], kings));
            }
        }
        for c in [WHITE, BLACK] {
            let n = self.occ[c].count_ones() as usize;
            if n > 16 {
                return Err(FenError::TooManyPieces(COLOR_NAMES[c], n));
            }
        }
        const BACK_RANKS: u64 = 0xFF00_0000_0000_00FF;
        let pawns =
            (self.bb[make_piece(PAWN, WHITE) as usize] | self.bb[make_piece(PAWN, BLACK) as usize]) & BACK_RANKS;
        if pawns != 0 {
            // The first in FEN order: the highest rank, then the lowest file.
            let first = if pawns >> 56 != 0 { 56 + (pawns >> 56).trailing_zeros() } else { pawns.trailing_zeros() };
            return Err(FenError::PawnOnBackRank(square_name(sq120(first as usize % 8, first as usize / 8))));
        }
        // Each piece's place in its side's list, kinds in that order: the first slot of each
        // piece code from the counts, then one pass over the pieces in FEN order.
        let mut slot = [0u8; 16];
        for c in [WHITE, BLACK] {
            let mut next = 0u8;
            for kind in (PAWN..=KING).rev() {
                let p = make_piece(kind, c) as usize;
                slot[p] = next;
                next += self.bb[p].count_ones() as u8;
            }
            self.count[c] = next;
        }
        // Mirrored ranks: the lowest bit first is then FEN order (rank 8 first, a to h).
        let mut set = (self.occ[WHITE] | self.occ[BLACK]).swap_bytes();
        while set != 0 {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            let sq = SQ120[i ^ 56] as usize;
            let p = self.cells[sq] as usize & 15;
            let n = slot[p];
            slot[p] = n + 1;
            self.list[p >> 3][n as usize & 15] = sq as u8;
            self.index[sq] = n;
        }
        Ok(())
    }

    /// A board holding any placement a FEN board field describes (no king, several kings,
    /// more than 16 pieces, pawns on a back rank), with the side to move and the clocks, no
    /// castling rights and no en-passant square. It is not playable: only the mailbox, the
    /// piece sets and the key are meaningful (the piece lists keep at most 16 pieces and need
    /// not hold a king), so it is for placement queries, never for move generation.
    pub fn from_fen_loose(fen: &str, chess960: bool) -> Result<Board, FenError> {
        let (fields, nfields) = split_fields(fen)?;
        let mut b = Board::empty();
        b.chess960 = chess960;
        read_placement(fields[0], |file, rank, p| b.put_loose(sq120(file, rank), p))?;
        b.side = parse_side(fields[1])?;
        (b.halfmove, b.fullmove) = parse_clocks(&fields[..nfields])?;
        b.key = b.compute_key();
        Ok(b)
    }

    /// Puts a piece on a square of a loose board (`from_fen_loose`), in FEN order: into the
    /// piece lists while its side has fewer than 16 there, else only into the mailbox and
    /// the piece sets.
    pub(super) fn put_loose(&mut self, sq: Square, p: u8) {
        let c = color_of(p);
        if (self.count[c] as usize) < 16 {
            self.put_piece(sq, p);
        } else {
            self.cells[sq] = p;
            self.bb[p as usize] |= crate::chess::geometry::bb_of(sq);
            self.occ[c] |= crate::chess::geometry::bb_of(sq);
        }
    }

    /// Gives a board made by `from_fen_loose` the castling rights of `rooks` (a mask of rook
    /// squares, at most one per side of each king), so that its queries and key count them.
    pub fn set_loose_castling(&mut self, rooks: u64) {
        for s in 0..64usize {
            if rooks & (1 << s) == 0 {
                continue;
            }
            let color = if s < 8 { WHITE } else { BLACK };
            let kings = self.bb[make_piece(KING, color) as usize];
            if kings == 0 {
                continue;
            }
            let king = 63 - kings.leading_zeros() as usize;
            let bit_no = 2 * color + usize::from(s % 8 < king % 8);
            self.castling |= 1 << bit_no;
            self.castle_rook[bit_no] = sq120(s % 8, s / 8) as u8;
        }
        self.key = self.compute_key();
    }

    pub(super) fn parse_castling(&mut self, field: &str) -> Result<(), FenError> {
        if field.as_bytes() == [b'-'] {
            return Ok(());
        }
        for ch in field.chars() {
            let color = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
            let back = if color == WHITE { 0 } else { 7 };
            let king = self.king_square(color);
            let name = COLOR_NAMES[color];
            if rank_of(king) != back {
                return Err(FenError::Castling(format!("{ch:?} but the {name} king is not on its first rank")));
            }
            let rook = make_piece(ROOK, color);
            let rook_sq = match ch.to_ascii_lowercase() {
                'k' => (file_of(king) + 1..8).rev().map(|f| sq120(f, back)).find(|&s| self.cells[s] == rook),
                'q' => (0..file_of(king)).map(|f| sq120(f, back)).find(|&s| self.cells[s] == rook),
                'a'..='h' => {
                    let s = sq120((ch.to_ascii_lowercase() as u8 - b'a') as usize, back);
                    if self.cells[s] == rook && s != king {
                        Some(s)
                    } else {
                        None
                    }
                }
                _ => return Err(FenError::Castling(format!("unexpected character {ch:?}"))),
            };
            let Some(rook_sq) = rook_sq else {
                return Err(FenError::Castling(format!("{ch:?} but no {name} rook to castle with")));
            };
            let kingside = rook_sq > king;
            if !self.chess960 {
                let (k_home, r_home) = match (color, kingside) {
                    (WHITE, true) => (cells::E1, cells::H1),
                    (WHITE, false) => (cells::E1, cells::A1),
                    (_, true) => (cells::E8, cells::H8),
                    (_, false) => (cells::E8, cells::A8),
                };
                if king != k_home || rook_sq != r_home {
                    return Err(FenError::Castling(format!(
                        "{ch:?} but the {name} king and rook are not on their starting squares"
                    )));
                }
            }
            let bit_no = 2 * color + if kingside { 0 } else { 1 };
            let bit = 1u8 << bit_no;
            if self.castling & bit != 0 {
                return Err(FenError::Castling(format!("the right {ch:?} is given twice")));
            }
            self.castling |= bit;
            self.castle_rook[bit_no] = rook_sq as u8;
            self.castle_mask[rook_sq] &= !bit;
            self.castle_mask[king] &= !bit;
        }
        Ok(())
    }

    pub(super) fn parse_ep(&mut self, field: &str) -> Result<(), FenError> {
        if field.as_bytes() == [b'-'] {
            return Ok(());
        }
        let Some(ep) = parse_square(field) else {
            return Err(FenError::EnPassant(format!("{field:?} is not a square")));
        };
        let us = self.side;
        let them = us ^ 1;
        let want_rank = if us == WHITE { 5 } else { 2 };
        if rank_of(ep) != want_rank {
            return Err(FenError::EnPassant(format!(
                "{field} is not on the {} rank",
                if us == WHITE { "sixth" } else { "third" }
            )));
        }
        let pawn_sq = (ep as isize + pawn_push(them)) as Square;
        let origin = (ep as isize - pawn_push(them)) as Square;
        if self.cells[ep] != EMPTY || self.cells[origin] != EMPTY || self.cells[pawn_sq] != make_piece(PAWN, them) {
            return Err(FenError::EnPassant(format!("no pawn can have just advanced two squares past {field}")));
        }
        if self.ep_capturer_beside(pawn_sq, us) {
            self.ep = ep as u8;
        }
        Ok(())
    }

    /// The board field of the FEN.
    pub fn board_fen(&self) -> String {
        let mut buf = [0u8; FEN_CAPACITY];
        let n = self.write_board_fen(&mut buf, 0);
        ascii_string(&buf[..n])
    }

    /// Writes the board field of the FEN at `buf[n..]` and returns where it ends (at most 71
    /// bytes, all ASCII). Walks each rank's occupied squares (bit scans of the occupancy)
    /// rather than its eight cells: a branch per piece, not per square, which on a real
    /// position mispredicts far less.
    fn write_board_fen(&self, buf: &mut [u8; FEN_CAPACITY], mut n: usize) -> usize {
        const LETTERS: [u8; 16] = *b"\0PNBRQK\0\0pnbrqk\0";
        let occupied = self.occ[WHITE] | self.occ[BLACK];
        for rank in (0..8).rev() {
            let mut row = (occupied >> (8 * rank)) as u8;
            let cells = &self.cells[sq120(0, rank)..sq120(0, rank) + 8];
            let mut next = 0u8; // the first file not yet written
            while row != 0 {
                let file = row.trailing_zeros() as u8;
                row &= row - 1;
                if file > next {
                    buf[n] = b'0' + (file - next);
                    n += 1;
                }
                buf[n] = LETTERS[(cells[file as usize] & 15) as usize];
                n += 1;
                next = file + 1;
            }
            if next < 8 {
                buf[n] = b'0' + (8 - next);
                n += 1;
            }
            if rank > 0 {
                buf[n] = b'/';
                n += 1;
            }
        }
        n
    }

    /// The castling field: KQkq in standard chess; X-FEN (KQkq for the outermost rook, else
    /// the rook's file letter) in Chess960.
    pub fn castling_fen(&self) -> String {
        let mut buf = [0u8; FEN_CAPACITY];
        let n = self.write_castling(&mut buf, 0);
        ascii_string(&buf[..n])
    }

    /// Writes the castling field at `buf[n..]` (at most four ASCII bytes, `-` for none) and
    /// returns where it ends.
    fn write_castling(&self, buf: &mut [u8; FEN_CAPACITY], mut n: usize) -> usize {
        let start = n;
        for bit_no in 0..4 {
            if self.castling & (1 << bit_no) == 0 {
                continue;
            }
            let color = bit_no / 2;
            let kingside = bit_no % 2 == 0;
            let rook_sq = self.castle_rook[bit_no] as Square;
            let mut ch = if kingside { b'k' } else { b'q' };
            if self.chess960 {
                // Is there another rook of ours further out on the same side?
                let back = rank_of(rook_sq);
                let mut outer = if kingside { file_of(rook_sq) + 1..8 } else { 0..file_of(rook_sq) };
                if outer.any(|f| self.cells[sq120(f, back)] == make_piece(ROOK, color)) {
                    ch = b'a' + file_of(rook_sq) as u8;
                }
            }
            buf[n] = if color == WHITE { ch.to_ascii_uppercase() } else { ch };
            n += 1;
        }
        if n == start {
            buf[n] = b'-';
            n += 1;
        }
        n
    }

    /// True when the side to move has a legal en-passant capture.
    pub fn has_legal_en_passant(&self) -> bool {
        if self.ep == 0 {
            return false;
        }
        let mut ml = MoveList::new();
        self.generate_legal(&mut ml);
        ml.iter().any(|m| m.is_en_passant())
    }

    /// The FEN of the position. As python-chess does by default, the en-passant square is
    /// written only when an en-passant capture is legal.
    pub fn fen(&self) -> String {
        let mut buf = [0u8; FEN_CAPACITY];
        let n = self.write_fen(&mut buf);
        ascii_string(&buf[..n])
    }

    /// Writes the FEN into `buf` and returns its length: at most `FEN_CAPACITY` bytes, all
    /// ASCII. One buffer on the stack, no intermediate strings: FENs are written in bulk for
    /// training data.
    pub fn write_fen(&self, buf: &mut [u8; FEN_CAPACITY]) -> usize {
        let mut n = self.write_board_fen(buf, 0);
        buf[n] = b' ';
        buf[n + 1] = if self.side == WHITE { b'w' } else { b'b' };
        buf[n + 2] = b' ';
        n = self.write_castling(buf, n + 3);
        buf[n] = b' ';
        n += 1;
        if self.has_legal_en_passant() {
            let ep = self.ep as Square;
            buf[n] = b'a' + file_of(ep) as u8;
            buf[n + 1] = b'1' + rank_of(ep) as u8;
            n += 2;
        } else {
            buf[n] = b'-';
            n += 1;
        }
        buf[n] = b' ';
        n = write_number(buf, n + 1, self.halfmove);
        buf[n] = b' ';
        write_number(buf, n + 1, self.fullmove)
    }
}

/// Room for any FEN `Board::write_fen` writes: 71 bytes of placement, four of castling, two of
/// en passant, two counters of at most ten digits each and five separators (103).
pub const FEN_CAPACITY: usize = 128;

/// A String of bytes written by this module's writers, which write ASCII only.
fn ascii_string(bytes: &[u8]) -> String {
    debug_assert!(bytes.is_ascii());
    // SAFETY: the writers put only ASCII letters, digits, '/', '-' and ' ' in the buffer.
    unsafe { String::from_utf8_unchecked(bytes.to_vec()) }
}

/// Writes `v` in decimal at `buf[n..]` and returns where it ends (at most ten digits).
fn write_number(buf: &mut [u8; FEN_CAPACITY], n: usize, v: u32) -> usize {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut v = v;
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let len = digits.len() - i;
    buf[n..n + len].copy_from_slice(&digits[i..]);
    n + len
}

/// Largest halfmove clock / fullmove number kept: larger values (python-chess takes any
/// integer) are read as this. Make adds one per ply, so a counter read at this value cannot
/// wrap its u32 before 2^31 more plies, more moves than a game's history can hold in memory;
/// for the halfmove clock every value from 150 on means the same (a draw).
pub(crate) const COUNTER_MAX: u32 = i32::MAX as u32;

/// A FEN counter, read as python-chess reads it (Python's `int()`): an optional sign, ASCII
/// digits with single underscores between them; negative values are refused (`-0` is 0).
/// Values above `COUNTER_MAX` saturate to it instead of failing or wrapping.
fn parse_count(s: &str) -> Option<u32> {
    // The common counters first: one or two plain digits.
    match *s.as_bytes() {
        [d] if d.is_ascii_digit() => return Some(u32::from(d - b'0')),
        [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => {
            return Some(u32::from(a - b'0') * 10 + u32::from(b - b'0'))
        }
        _ => {}
    }
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let bytes = digits.as_bytes();
    if bytes.is_empty() || !bytes[0].is_ascii_digit() || !bytes[bytes.len() - 1].is_ascii_digit() {
        return None;
    }
    let mut value: u32 = 0;
    let mut prev_underscore = false;
    for &b in bytes {
        match b {
            b'_' if !prev_underscore => prev_underscore = true,
            b'0'..=b'9' => {
                prev_underscore = false;
                value = value.saturating_mul(10).saturating_add((b - b'0') as u32).min(COUNTER_MAX);
            }
            _ => return None,
        }
    }
    if negative && value != 0 {
        return None;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::fen_fields;

    #[test]
    fn fields_are_split_as_split_whitespace_splits_them() {
        for text in [
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "  a\tb\nc\x0bd\x0ce\rf g  ",
            "",
            "   ",
            "x",
            "a b c d e f g h",
            "a\u{a0}b c",
            "a\u{2003}b\u{85}c d",
        ] {
            let want: Vec<&str> = text.split_whitespace().collect();
            let (fields, n) = fen_fields(text);
            assert_eq!(n, want.len(), "{text:?}");
            assert_eq!(&fields[..n.min(6)], &want[..n.min(6)], "{text:?}");
        }
    }

    /// Every ASCII whitespace and non-whitespace byte at every offset of texts around the
    /// lengths where the bit mask ends (8-byte chunks, 128 bytes), against `split_whitespace`.
    #[test]
    fn fields_agree_with_split_whitespace_at_every_length_and_byte() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for len in 0..140usize {
            for _ in 0..40 {
                let text: String = (0..len)
                    .map(|_| {
                        let r = next();
                        // Mostly FEN-like bytes, often whitespace, any ASCII byte now and then.
                        match r % 8 {
                            0 => b" \t\n\x0b\x0c\r"[(r >> 8) as usize % 6] as char,
                            1 => ((r >> 8) % 128) as u8 as char,
                            _ => b"pnbrqkPNBRQK12345678/-w"[(r >> 8) as usize % 23] as char,
                        }
                    })
                    .collect();
                let want: Vec<&str> = text.split_whitespace().collect();
                let (fields, n) = fen_fields(&text);
                assert_eq!(n, want.len(), "{text:?}");
                assert_eq!(&fields[..n.min(6)], &want[..n.min(6)], "{text:?}");
            }
        }
    }
}
