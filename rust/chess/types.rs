//! Squares, pieces, colours and moves: the small value types every other module uses.
//!
//! The board is a 10x12 mailbox (<https://www.chessprogramming.org/10x12_Board>): 120 cells,
//! of which the inner 8x8 are the real squares and the rest are `OFFBOARD` sentinels. Two
//! sentinel rows above and below absorb knight jumps (offset up to 21), one column each side
//! absorbs the file wrap, so every `sq + offset` of a real square stays inside the array and
//! the generator detects the edge by reading the cell, never by arithmetic on files.

/// A colour: `WHITE` = 0, `BLACK` = 1, so `c ^ 1` is the opponent.
pub type Color = usize;
pub const WHITE: Color = 0;
pub const BLACK: Color = 1;

/// A cell index into the 120-cell mailbox. Real squares are 21..=98.
pub type Square = usize;

/// Piece kinds (low three bits of a piece code).
pub const PAWN: u8 = 1;
pub const KNIGHT: u8 = 2;
pub const BISHOP: u8 = 3;
pub const ROOK: u8 = 4;
pub const QUEEN: u8 = 5;
pub const KING: u8 = 6;

/// Cell contents. A piece code is `kind | colour << 3`: white 1..=6, black 9..=14.
pub const EMPTY: u8 = 0;
/// The sentinel outside the 8x8 board. Chosen outside both colour ranges so that the
/// "is an enemy piece" test (`code - first_code_of_colour < 6`) rejects it for free.
pub const OFFBOARD: u8 = 0x40;

/// The piece code of `kind` for colour `c`.
#[inline(always)]
pub const fn make_piece(kind: u8, c: Color) -> u8 {
    kind | ((c as u8) << 3)
}

/// The kind (PAWN..KING) of a piece code.
#[inline(always)]
pub const fn kind_of(p: u8) -> u8 {
    p & 7
}

/// The colour of a piece code (meaningless for EMPTY / OFFBOARD).
#[inline(always)]
pub const fn color_of(p: u8) -> Color {
    ((p >> 3) & 1) as Color
}

/// True when `p` is a piece of colour `c` (false for EMPTY and OFFBOARD).
#[inline(always)]
pub const fn is_color(p: u8, c: Color) -> bool {
    p.wrapping_sub(1 + ((c as u8) << 3)) < 6
}

/// The mailbox cell of file 0..8 and rank 0..8 (rank 0 is White's first rank).
#[inline(always)]
pub const fn sq120(file: usize, rank: usize) -> Square {
    21 + file + 10 * rank
}

/// File 0..8 of a real square.
#[inline(always)]
pub const fn file_of(sq: Square) -> usize {
    sq % 10 - 1
}

/// Rank 0..8 of a real square.
#[inline(always)]
pub const fn rank_of(sq: Square) -> usize {
    sq / 10 - 2
}

/// The 0..64 index (a1 = 0, h8 = 63) of a real square, as Polyglot and python-chess number them.
#[inline(always)]
pub const fn sq64(sq: Square) -> usize {
    rank_of(sq) * 8 + file_of(sq)
}

/// True for the 64 real cells of the mailbox.
#[inline(always)]
pub const fn is_real(sq: Square) -> bool {
    sq >= 21 && sq <= 98 && !sq.is_multiple_of(10) && sq % 10 != 9
}

/// Algebraic name of a real square, e.g. "e4".
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(2);
    s.push((b'a' + file_of(sq) as u8) as char);
    s.push((b'1' + rank_of(sq) as u8) as char);
    s
}

/// Parses "a1".."h8" into a mailbox cell.
pub fn parse_square(s: &str) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(sq120((b[0] - b'a') as usize, (b[1] - b'1') as usize))
}

/// Mailbox direction offsets. North is towards Black's side (+10 per rank).
pub const N: isize = 10;
pub const S: isize = -10;
pub const E: isize = 1;
pub const W: isize = -1;
pub const NE: isize = 11;
pub const NW: isize = 9;
pub const SE: isize = -9;
pub const SW: isize = -11;

pub const ORTHO: [isize; 4] = [N, S, E, W];
pub const DIAG: [isize; 4] = [NE, NW, SE, SW];
pub const KING_DIRS: [isize; 8] = [N, S, E, W, NE, NW, SE, SW];
pub const KNIGHT_JUMPS: [isize; 8] = [21, 19, 12, 8, -8, -12, -19, -21];

/// The one-rank step of a pawn of colour `c`.
#[inline(always)]
pub const fn pawn_push(c: Color) -> isize {
    if c == WHITE {
        N
    } else {
        S
    }
}

// Castling rights are a 4-bit set: bit 2*colour for the king side, 2*colour+1 for the
// queen side (so KQkq = bits 0..4 in FEN order).

/// A move packed in 32 bits: from cell (bits 0-7), to cell (8-15), promotion kind (16-18)
/// and flags (20-22). Castling is stored as the king's move to its destination square; the
/// text form (e1g1 or king-takes-rook e1h1 in Chess960) is chosen when printing.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

impl Move {
    pub const NULL: Move = Move(0);
    pub const DOUBLE_PUSH: u32 = 1 << 20;
    pub const EN_PASSANT: u32 = 1 << 21;
    pub const CASTLE: u32 = 1 << 22;

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from as u32 | (to as u32) << 8)
    }
    #[inline(always)]
    pub const fn with_flags(from: Square, to: Square, flags: u32) -> Move {
        Move(from as u32 | (to as u32) << 8 | flags)
    }
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, kind: u8) -> Move {
        Move(from as u32 | (to as u32) << 8 | (kind as u32) << 16)
    }
    #[inline(always)]
    pub const fn from(self) -> Square {
        (self.0 & 0xFF) as Square
    }
    #[inline(always)]
    pub const fn to(self) -> Square {
        ((self.0 >> 8) & 0xFF) as Square
    }
    /// The promotion kind (KNIGHT..QUEEN), or 0.
    #[inline(always)]
    pub const fn promo(self) -> u8 {
        ((self.0 >> 16) & 7) as u8
    }
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (7 << 16) != 0
    }
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 & Move::CASTLE != 0
    }
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 & Move::EN_PASSANT != 0
    }
    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.0 & Move::DOUBLE_PUSH != 0
    }
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_null() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", square_name(self.from()), square_name(self.to()))?;
        if self.is_promotion() {
            write!(f, "{}", b" pnbrqk"[self.promo() as usize] as char)?;
        }
        Ok(())
    }
}

/// A fixed-capacity list of moves. 256 exceeds the known maximum of 218 legal moves
/// in any chess position, so pushes never check bounds beyond a debug assertion.
pub struct MoveList {
    moves: [std::mem::MaybeUninit<Move>; 256],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList { moves: [std::mem::MaybeUninit::uninit(); 256], len: 0 }
    }
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < 256);
        // SAFETY: len < 256 always holds: no position has more than 218 legal moves and
        // the generator only pushes legal ones (pseudo-legal pushes are bounded by 256 too).
        unsafe { self.moves.get_unchecked_mut(self.len).write(m) };
        self.len += 1;
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as above.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Reads a mailbox cell without a bounds check. Every cell the generator reads is a real
/// square plus at most one knight jump or a walk along a ray that stops at the first
/// non-empty cell (the sentinel ring is two cells deep above and below and one cell wide at
/// the sides, so it always stops inside the array): indexes stay in 0..120 by construction,
/// and debug builds assert it.
#[inline(always)]
pub(crate) fn at(cells: &[u8; 120], sq: usize) -> u8 {
    debug_assert!(sq < 120, "mailbox read out of range: {sq}");
    // SAFETY: see above; `sq < 120` holds for every caller by the mailbox construction.
    unsafe { *cells.get_unchecked(sq) }
}

/// The FEN letter of a piece code.
pub fn piece_char(p: u8) -> Option<char> {
    let c = match kind_of(p) {
        PAWN => 'p',
        KNIGHT => 'n',
        BISHOP => 'b',
        ROOK => 'r',
        QUEEN => 'q',
        KING => 'k',
        _ => return None,
    };
    if p == EMPTY || p == OFFBOARD {
        return None;
    }
    Some(if color_of(p) == WHITE { c.to_ascii_uppercase() } else { c })
}
