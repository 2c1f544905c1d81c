//! The position: a 10x12 mailbox, piece lists, game state and the undo stack.
//!
//! Piece lists (<https://www.chessprogramming.org/Piece-Lists>): `list[c][..count[c]]` holds
//! the cells of colour `c`'s pieces, the king always in slot 0, and `index[cell]` gives the
//! slot of the piece standing on `cell`. Generation walks the list instead of scanning 64
//! squares. A capture moves the list's last entry into the captured piece's slot; unmake
//! reverses exactly that, so lists, like everything else, come back bit for bit.
//!
//! Beside the mailbox, one 64-bit set per piece code and one per colour mirror where the
//! pieces stand (see `attack.rs`): attack and pin tests and perft's leaf counting read them.

use crate::chess::types::*;
use crate::chess::zobrist::*;

/// What `make_move` must remember so that `unmake_move` can restore the position exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Undo {
    pub mv: Move,
    pub captured: u8,
    pub captured_slot: u8,
    pub castling: u8,
    pub ep: u8,
    pub halfmove: u32,
    pub key: u64,
}

/// A chess position with its history.
#[derive(Clone)]
pub struct Board {
    /// Cell contents: a piece code, EMPTY, or OFFBOARD.
    pub(crate) cells: [u8; 120],
    /// Slot in the piece list of the piece on each occupied cell (stale on empty cells).
    pub(crate) index: [u8; 120],
    /// Piece lists per colour: cells, king first.
    pub(crate) list: [[u8; 16]; 2],
    pub(crate) count: [u8; 2],
    /// The squares (bit i = a1 + i) of the pieces of each piece code (EMPTY's entry stays 0).
    pub(crate) bb: [u64; 16],
    /// The squares of each colour's pieces.
    pub(crate) occ: [u64; 2],
    pub(crate) side: Color,
    /// Castling rights, bits WHITE_OO | WHITE_OOO | BLACK_OO | BLACK_OOO.
    pub(crate) castling: u8,
    /// The rook cell each castling right refers to (indexed by bit number), 0 when unknown.
    pub(crate) castle_rook: [u8; 4],
    /// Castling rights that survive a move touching each cell (king and rook home cells clear theirs).
    pub(crate) castle_mask: [u8; 120],
    /// En-passant target cell, or 0. Set only when a pawn of the side to move stands beside the
    /// pawn that just advanced two squares (the Polyglot rule), so the key follows the state.
    pub(crate) ep: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) key: u64,
    pub(crate) chess960: bool,
    pub(crate) history: Vec<Undo>,
}

/// Mailbox cell numbers of the squares the standard castling code names.
pub(crate) mod cells {
    use crate::chess::types::sq120;
    pub const A1: usize = sq120(0, 0);
    pub const C1: usize = sq120(2, 0);
    pub const D1: usize = sq120(3, 0);
    pub const E1: usize = sq120(4, 0);
    pub const F1: usize = sq120(5, 0);
    pub const G1: usize = sq120(6, 0);
    pub const H1: usize = sq120(7, 0);
    pub const A8: usize = sq120(0, 7);
    pub const E8: usize = sq120(4, 7);
    pub const H8: usize = sq120(7, 7);
}

impl Board {
    /// An empty board: sentinels around an empty 8x8, White to move, no rights.
    pub(crate) fn empty() -> Board {
        // The mailbox of an empty board, made at compile time (a FEN read starts from it).
        const CELLS: [u8; 120] = {
            let mut cells = [OFFBOARD; 120];
            let mut i = 0;
            while i < 64 {
                cells[sq120(i % 8, i / 8)] = EMPTY;
                i += 1;
            }
            cells
        };
        Board {
            cells: CELLS,
            index: [0; 120],
            list: [[0; 16]; 2],
            count: [0; 2],
            bb: [0; 16],
            occ: [0; 2],
            side: WHITE,
            castling: 0,
            castle_rook: [0; 4],
            castle_mask: [0x0F; 120],
            ep: 0,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            chess960: false,
            history: Vec::new(),
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece code on a mailbox cell (EMPTY, OFFBOARD or a piece).
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> u8 {
        self.cells[sq]
    }

    /// The Polyglot / Zobrist key of the position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Castling rights as KQkq bits.
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en-passant cell if a pawn of the side to move could capture there (pseudo-legally).
    pub fn ep_square(&self) -> Option<Square> {
        if self.ep == 0 {
            None
        } else {
            Some(self.ep as Square)
        }
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The king cell of colour `c`.
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.list[c][0] as Square
    }

    /// The cells of colour `c`'s pieces (king first).
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> &[u8] {
        &self.list[c][..self.count[c] as usize]
    }

    /// Number of moves made since the board was set up (the undo stack's depth).
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// A copy that keeps only the last `keep` moves of the history (all of them when `keep`
    /// is at least `ply()`): the moves before cannot be taken back on the copy.
    pub fn clone_keeping(&self, keep: usize) -> Board {
        let n = self.history.len();
        Board { history: self.history[n - keep.min(n)..].to_vec(), ..*self }
    }

    /// The moves made since set-up, oldest first.
    pub fn move_history(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The key of each earlier position (oldest first), for repetition detection.
    pub fn key_history(&self) -> impl DoubleEndedIterator<Item = u64> + '_ {
        self.history.iter().map(|u| u.key)
    }

    /// Puts a piece on an empty cell, updating lists and key (set-up only).
    pub(crate) fn put_piece(&mut self, sq: Square, piece: u8) {
        let c = color_of(piece);
        let n = self.count[c] as usize;
        self.cells[sq] = piece;
        self.list[c][n] = sq as u8;
        self.index[sq] = n as u8;
        self.count[c] += 1;
        self.bb[piece as usize] |= crate::chess::geometry::bb_of(sq);
        self.occ[c] |= crate::chess::geometry::bb_of(sq);
        if kind_of(piece) == KING && n != 0 {
            // Keep the king in slot 0.
            let other = self.list[c][0] as usize;
            self.list[c][0] = sq as u8;
            self.index[sq] = 0;
            self.list[c][n] = other as u8;
            self.index[other] = n as u8;
        }
        self.key ^= PIECE_KEY[piece as usize][sq];
    }

    /// The key computed from scratch (used at set-up and by the invariant checker).
    pub(crate) fn compute_key(&self) -> u64 {
        let mut k = 0;
        for rank in 0..8 {
            for file in 0..8 {
                let sq = sq120(file, rank);
                k ^= PIECE_KEY[self.cells[sq] as usize & 15][sq];
            }
        }
        k ^= CASTLE_KEY[self.castling as usize];
        if self.ep != 0 {
            k ^= EP_KEY[file_of(self.ep as Square)];
        }
        if self.side == WHITE {
            k ^= WHITE_TO_MOVE_KEY;
        }
        k
    }

    /// True when a pawn of `side` stands beside `pawn_sq` (the cell of a pawn that just
    /// advanced two squares), which is when Polyglot hashes the en-passant file.
    #[inline(always)]
    pub(crate) fn ep_capturer_beside(&self, pawn_sq: Square, side: Color) -> bool {
        let p = make_piece(PAWN, side);
        self.cells[pawn_sq - 1] == p || self.cells[pawn_sq + 1] == p
    }

    /// The full invariant check (Fruit's `board_is_ok`): mailbox against piece lists, one
    /// king per side in slot 0, sentinels intact, no pawns on the back ranks, en-passant
    /// cell consistent, and the incremental key equal to the key computed from scratch.
    /// Asserted after every make and unmake in debug builds.
    pub fn is_ok(&self) -> bool {
        for sq in 0..120 {
            let real = is_real(sq);
            let p = self.cells[sq];
            if real != (p != OFFBOARD) {
                return false;
            }
        }
        let mut seen = 0;
        for c in [WHITE, BLACK] {
            let n = self.count[c] as usize;
            if n == 0 || n > 16 {
                return false;
            }
            for i in 0..n {
                let sq = self.list[c][i] as usize;
                if !is_real(sq) || !is_color(self.cells[sq], c) || self.index[sq] as usize != i {
                    return false;
                }
                let kind = kind_of(self.cells[sq]);
                if (kind == KING) != (i == 0) {
                    return false;
                }
                if kind == PAWN && (rank_of(sq) == 0 || rank_of(sq) == 7) {
                    return false;
                }
            }
            seen += n;
        }
        let occupied = (0..120).filter(|&sq| self.cells[sq] != EMPTY && self.cells[sq] != OFFBOARD).count();
        if occupied != seen {
            return false;
        }
        // The bitboards hold exactly what the mailbox holds.
        let mut bb = [0u64; 16];
        let mut occ = [0u64; 2];
        for s in 0..64 {
            let p = self.cells[crate::chess::geometry::SQ120[s] as usize];
            if p != EMPTY {
                bb[p as usize] |= 1 << s;
                occ[color_of(p)] |= 1 << s;
            }
        }
        if bb != self.bb || occ != self.occ {
            return false;
        }
        if self.ep != 0 {
            let ep = self.ep as Square;
            let them = self.side ^ 1;
            let pawn_sq = (ep as isize + pawn_push(them)) as Square;
            let want_rank = if self.side == WHITE { 5 } else { 2 };
            if !is_real(ep)
                || rank_of(ep) != want_rank
                || self.cells[ep] != EMPTY
                || self.cells[pawn_sq] != make_piece(PAWN, them)
                || !self.ep_capturer_beside(pawn_sq, self.side)
            {
                return false;
            }
        }
        self.key == self.compute_key()
    }

    /// Same position and state (everything but the stale list indexes of empty cells).
    pub fn same_state(&self, other: &Board) -> bool {
        self.cells == other.cells
            && self.list == other.list
            && self.count == other.count
            && self.side == other.side
            && self.castling == other.castling
            && self.castle_rook == other.castle_rook
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.key == other.key
            && self.history == other.history
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.same_state(other)
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.fen())
    }
}

impl std::fmt::Display for Board {
    /// An ASCII diagram, rank 8 at the top, as python-chess prints boards.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let p = self.cells[sq120(file, rank)];
                let ch = crate::chess::types::piece_char(p).unwrap_or('.');
                if file > 0 {
                    write!(f, " ")?;
                }
                write!(f, "{}", ch)?;
            }
            if rank > 0 {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}
