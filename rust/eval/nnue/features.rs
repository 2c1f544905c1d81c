//! The net's inputs: which feature a piece on a square lights for each perspective, and the
//! bounds on the net's shape. The accumulator and the network read them; the module above
//! only re-exports.
//!
//! A net without king buckets has 768 inputs per perspective. A net with king buckets has
//! 768 per bucket: the perspective's own king square picks the bucket (through the net's
//! 64-entry map, read from that side's view of the board), and with horizontal mirroring a
//! king on the e- to h-files sees the whole board mirrored left-right, so that the map only
//! matters for files a to d and the net learns each king placement once.

use crate::chess::geometry::SQ64;
use crate::chess::types::*;

/// Inputs per perspective and bucket: 2 colours x 6 kinds x 64 squares.
pub const INPUTS: usize = 768;
/// Largest hidden size accepted: keeps the dot product's i32 lanes (`simd.rs`) far from
/// overflow and a net file below 2 MB without buckets.
pub const MAX_HIDDEN: usize = 1024;
/// Most king buckets a net may have (a 128-wide net with 32 buckets is a 6 MB file).
pub const MAX_KING_BUCKETS: usize = 32;

/// A net's king buckets: `map[s]` is the bucket of a perspective whose own king stands on
/// `s` as that perspective sees the board (0..64, a1 = 0; Black's view mirrored by rank);
/// `mirror`: a king on the e- to h-files flips every square's file for its perspective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    pub map: [u8; 64],
    pub mirror: bool,
}

impl KingBuckets {
    /// Number of buckets (the largest entry of the map plus one).
    pub fn count(&self) -> usize {
        self.map.iter().max().map_or(1, |&b| b as usize + 1)
    }
}

/// How one perspective reads the board: the first input of its bucket and the flip of every
/// square (56 for Black's view, 7 more when mirrored left-right). Set by the perspective's
/// own king; it changes only when that king moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct View {
    base: u32,
    flip: u32,
}

impl View {
    /// The view of a net without king buckets.
    #[inline(always)]
    pub(crate) fn plain(perspective: Color) -> View {
        View { base: 0, flip: if perspective == WHITE { 0 } else { 56 } }
    }

    /// The view of `perspective` with its king on square `king` (0..64), for a net with
    /// `buckets` (none: the plain 768 inputs).
    #[inline(always)]
    pub(crate) fn of(buckets: Option<&KingBuckets>, perspective: Color, king: usize) -> View {
        match buckets {
            None => View::plain(perspective),
            Some(kb) => {
                let rank_flip = if perspective == WHITE { 0 } else { 56 };
                let own = (king ^ rank_flip) & 63;
                let file_flip = if kb.mirror && own % 8 >= 4 { 7 } else { 0 };
                View { base: kb.map[own] as u32 * INPUTS as u32, flip: (rank_flip ^ file_flip) as u32 }
            }
        }
    }

    /// The input feature of `piece` on square `s` (0..64) seen from `perspective` in this view.
    #[inline(always)]
    pub(crate) fn feature64(self, perspective: Color, piece: u8, s: usize) -> usize {
        debug_assert!((PAWN..=KING).contains(&kind_of(piece)) && s < 64);
        let theirs = if color_of(piece) == perspective { 0 } else { 384 };
        self.base as usize + theirs + (kind_of(piece) as usize - 1) * 64 + (s ^ self.flip as usize)
    }

    /// The input feature of `piece` on mailbox cell `sq` seen from `perspective`.
    #[inline(always)]
    pub(crate) fn feature(self, perspective: Color, piece: u8, sq: Square) -> usize {
        self.feature64(perspective, piece, SQ64[sq] as usize)
    }
}
