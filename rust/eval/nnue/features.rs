//! The net's inputs: which of the 768 features a piece on a square lights for each
//! perspective, and the bounds on the net's shape. The accumulator and the network read
//! them; the module above only re-exports.

use crate::chess::geometry::SQ64;
use crate::chess::types::*;

/// Inputs per perspective: 2 colours x 6 kinds x 64 squares.
pub const INPUTS: usize = 768;
/// Largest hidden size accepted: keeps the dot product's i32 lanes (`simd.rs`) far from
/// overflow and a net file below 2 MB.
pub const MAX_HIDDEN: usize = 1024;

/// The input feature of `piece` on square `s` (0..64) seen from `perspective`.
#[inline(always)]
pub(crate) fn feature64(perspective: Color, piece: u8, s: usize) -> usize {
    debug_assert!((PAWN..=KING).contains(&kind_of(piece)) && s < 64);
    let theirs = if color_of(piece) == perspective { 0 } else { 384 };
    let square = if perspective == WHITE { s } else { s ^ 56 };
    theirs + (kind_of(piece) as usize - 1) * 64 + square
}

/// The input feature of `piece` on mailbox cell `sq` seen from `perspective`.
#[inline(always)]
pub(crate) fn feature(perspective: Color, piece: u8, sq: Square) -> usize {
    feature64(perspective, piece, SQ64[sq] as usize)
}
