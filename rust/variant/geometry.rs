//! What every part of the variant generator shares: the padded mailbox's dimensions, the
//! cell codes of pieces, the move type and the castling right bits. Depends on nothing, so
//! the board, the tables and the generator can all use it without importing each other.

/// Off-board cells on each side: the longest leap component among the Betza atoms (H, C,
/// Z, G leap three squares).
pub(crate) const PAD: usize = 3;
/// Cells in the mailbox: (10 ranks + 7) * (12 files + 3) = 255 at most, so 256 holds any board.
pub(crate) const CELLS: usize = 256;
pub(crate) const EMPTY: u8 = 0;
pub(crate) const OFF: u8 = 255;
/// Longest distance a rider can travel on a 12x10 board (11 squares), plus one.
pub(crate) const MAX_DIST: usize = 12;
/// Pins `analyse` describes by their ray (`VBoard::pin_ray`); more are made and tested.
pub(crate) const MAX_PINS: usize = 8;

/// A cell's code for a piece: type index `t` and colour `c` (0 White, 1 Black).
#[inline]
pub(crate) fn code(t: usize, c: usize) -> u8 {
    (((t + 1) << 1) | c) as u8
}
#[inline]
pub(crate) fn color(cell: u8) -> usize {
    (cell & 1) as usize
}
#[inline]
pub(crate) fn kind(cell: u8) -> usize {
    ((cell >> 1) - 1) as usize
}

/// How a move changes the board beyond moving one piece.
pub const NORMAL: u8 = 0;
pub const DOUBLE: u8 = 1;
pub const EN_PASSANT: u8 = 2;
pub const CASTLE: u8 = 3;

/// A move: from and to squares (mailbox indexes), the promotion type + 1 (0 for none),
/// the kind, and for castling the rook's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VMove {
    pub from: u8,
    pub to: u8,
    pub promo: u8,
    pub kind: u8,
    pub rook: u8,
}

/// Castling right bits: White king side, White queen side, Black king side, Black queen side.
pub(crate) const CASTLE_BITS: [[u8; 2]; 2] = [[1, 2], [4, 8]];
