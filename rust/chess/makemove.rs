//! make_move / unmake_move, side by side (<https://www.chessprogramming.org/Make_Move>,
//! <https://www.chessprogramming.org/Unmake_Move>). Both update the mailbox, the piece
//! lists and the key incrementally; the undo record holds what cannot be recomputed.
//! `make_move` trusts its caller: the move must come from this position's legal generator
//! (the Python layer and the UCI parser check legality first; the search uses generated moves).

use crate::chess::board::{Board, Undo};
use crate::chess::geometry::bb_of;
use crate::chess::types::*;
use crate::chess::zobrist::*;

impl Board {
    /// Removes the piece on `sq` from its colour's list (the last entry takes its slot).
    /// Returns the slot it occupied.
    #[inline(always)]
    fn list_remove(&mut self, c: Color, sq: Square) -> u8 {
        let slot = self.index[sq];
        let last = self.count[c] - 1;
        let last_sq = self.list[c][last as usize & 15];
        self.list[c][slot as usize & 15] = last_sq;
        self.index[last_sq as usize] = slot;
        self.count[c] = last;
        slot
    }

    /// Exactly undoes `list_remove(c, sq)` that returned `slot`.
    #[inline(always)]
    fn list_restore(&mut self, c: Color, sq: Square, slot: u8) {
        let n = self.count[c];
        let moved = self.list[c][slot as usize & 15];
        self.list[c][n as usize & 15] = moved;
        self.index[moved as usize] = n;
        self.list[c][slot as usize & 15] = sq as u8;
        self.index[sq] = slot;
        self.count[c] = n + 1;
    }

    /// Moves the piece standing on `from` to the empty cell `to` within its list.
    #[inline(always)]
    fn list_move(&mut self, c: Color, from: Square, to: Square) {
        let slot = self.index[from];
        self.list[c][slot as usize & 15] = to as u8;
        self.index[to] = slot;
    }

    /// The rook's origin and destination cells for a castling move (king `from` -> `to`).
    #[inline(always)]
    fn castle_rook_squares(&self, us: Color, to: Square) -> (Square, Square) {
        let kingside = file_of(to) == 6;
        let rook_from = self.castle_rook[2 * us + if kingside { 0 } else { 1 }] as Square;
        let rook_to = if kingside { to - 1 } else { to + 1 };
        (rook_from, rook_to)
    }

    /// Plays a legal move.
    pub fn make_move(&mut self, m: Move) {
        // Indexes masked to their array sizes (colour & 1, piece code & 15, list slot & 15)
        // cost one instruction and spare the bounds checks, on the hottest path of the search.
        let us = self.side & 1;
        let them = us ^ 1;
        let from = m.from();
        let to = m.to();
        let piece = self.cells[from];
        let mut undo = Undo {
            mv: m,
            captured: EMPTY,
            captured_slot: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
        };
        let mut key = self.key ^ WHITE_TO_MOVE_KEY;
        if self.ep != 0 {
            key ^= EP_KEY[file_of(self.ep as Square)];
            self.ep = 0;
        }
        self.halfmove += 1;

        if m.is_castle() {
            let (rook_from, rook_to) = self.castle_rook_squares(us, to);
            let king = piece;
            let rook = make_piece(ROOK, us);
            let rook_slot = self.index[rook_from];
            // Lift both, then place both: in Chess960 the squares may overlap.
            self.cells[from] = EMPTY;
            self.cells[rook_from] = EMPTY;
            self.cells[to] = king;
            self.cells[rook_to] = rook;
            self.list[us][0] = to as u8;
            self.index[to] = 0;
            self.list[us][rook_slot as usize] = rook_to as u8;
            self.index[rook_to] = rook_slot;
            // XOR works even when the squares overlap (Chess960): each pair is distinct.
            let (kb, rb) = (bb_of(from) ^ bb_of(to), bb_of(rook_from) ^ bb_of(rook_to));
            self.bb[king as usize & 15] ^= kb;
            self.bb[rook as usize & 15] ^= rb;
            self.occ[us] ^= kb ^ rb;
            key ^= PIECE_KEY[king as usize & 15][from] ^ PIECE_KEY[king as usize & 15][to];
            key ^= PIECE_KEY[rook as usize & 15][rook_from] ^ PIECE_KEY[rook as usize & 15][rook_to];
        } else {
            let capsq = if m.is_en_passant() { (to as isize - pawn_push(us)) as Square } else { to };
            let captured = self.cells[capsq];
            if captured != EMPTY {
                undo.captured = captured;
                undo.captured_slot = self.list_remove(them, capsq);
                self.cells[capsq] = EMPTY;
                self.bb[captured as usize & 15] ^= bb_of(capsq);
                self.occ[them] ^= bb_of(capsq);
                key ^= PIECE_KEY[captured as usize & 15][capsq];
                self.halfmove = 0;
            }
            let placed = if m.is_promotion() { make_piece(m.promo(), us) } else { piece };
            self.cells[from] = EMPTY;
            self.cells[to] = placed;
            self.list_move(us, from, to);
            let (fb, tb) = (bb_of(from), bb_of(to));
            self.bb[piece as usize & 15] ^= fb;
            self.bb[placed as usize & 15] ^= tb;
            self.occ[us] ^= fb ^ tb;
            key ^= PIECE_KEY[piece as usize & 15][from] ^ PIECE_KEY[placed as usize & 15][to];
            if kind_of(piece) == PAWN {
                self.halfmove = 0;
                if m.is_double_push() && self.ep_capturer_beside(to, them) {
                    let ep = (from as isize + pawn_push(us)) as Square;
                    self.ep = ep as u8;
                    key ^= EP_KEY[file_of(ep)];
                }
            }
        }

        let rights = self.castling & self.castle_mask[from] & self.castle_mask[to];
        if rights != self.castling {
            key ^= CASTLE_KEY[self.castling as usize] ^ CASTLE_KEY[rights as usize];
            self.castling = rights;
        }
        if us == BLACK {
            self.fullmove += 1;
        }
        self.side = them;
        self.key = key;
        self.history.push(undo);
        debug_assert!(self.is_ok(), "board invariant broken after {m:?}: {}", self.board_fen());
    }

    /// Takes back the last move and returns it, or `None` when there is no history.
    pub fn unmake_move(&mut self) -> Option<Move> {
        let undo = self.history.pop()?;
        let m = undo.mv;
        let them = self.side & 1;
        let us = them ^ 1;
        self.side = us;
        if us == BLACK {
            self.fullmove -= 1;
        }
        if m.is_null() {
            // A null move (search only) changed nothing on the board.
        } else if m.is_castle() {
            let from = m.from();
            let to = m.to();
            let (rook_from, rook_to) = self.castle_rook_squares(us, to);
            let king = self.cells[to];
            let rook = make_piece(ROOK, us);
            let rook_slot = self.index[rook_to];
            self.cells[to] = EMPTY;
            self.cells[rook_to] = EMPTY;
            self.cells[from] = king;
            self.cells[rook_from] = rook;
            self.list[us][0] = from as u8;
            self.index[from] = 0;
            self.list[us][rook_slot as usize] = rook_from as u8;
            self.index[rook_from] = rook_slot;
            let (kb, rb) = (bb_of(from) ^ bb_of(to), bb_of(rook_from) ^ bb_of(rook_to));
            self.bb[king as usize & 15] ^= kb;
            self.bb[rook as usize & 15] ^= rb;
            self.occ[us] ^= kb ^ rb;
        } else {
            let from = m.from();
            let to = m.to();
            let placed = self.cells[to];
            let piece = if m.is_promotion() { make_piece(PAWN, us) } else { placed };
            self.cells[to] = EMPTY;
            self.cells[from] = piece;
            self.list_move(us, to, from);
            let (fb, tb) = (bb_of(from), bb_of(to));
            self.bb[piece as usize & 15] ^= fb;
            self.bb[placed as usize & 15] ^= tb;
            self.occ[us] ^= fb ^ tb;
            if undo.captured != EMPTY {
                let capsq = if m.is_en_passant() { (to as isize - pawn_push(us)) as Square } else { to };
                self.cells[capsq] = undo.captured;
                self.bb[undo.captured as usize & 15] ^= bb_of(capsq);
                self.occ[them] ^= bb_of(capsq);
                self.list_restore(them, capsq, undo.captured_slot);
            }
        }
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
        debug_assert!(self.is_ok(), "board invariant broken after unmaking {m:?}: {}", self.board_fen());
        Some(m)
    }

    /// Passes the move to the opponent (null-move pruning). Must not be used in check.
    pub fn make_null(&mut self) {
        let undo = Undo {
            mv: Move::NULL,
            captured: EMPTY,
            captured_slot: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
        };
        let mut key = self.key ^ WHITE_TO_MOVE_KEY;
        if self.ep != 0 {
            key ^= EP_KEY[file_of(self.ep as Square)];
            self.ep = 0;
        }
        self.halfmove += 1;
        if self.side == BLACK {
            self.fullmove += 1;
        }
        self.side ^= 1;
        self.key = key;
        self.history.push(undo);
    }

    /// Takes back `make_null`.
    pub fn unmake_null(&mut self) {
        let m = self.unmake_move();
        debug_assert!(m == Some(Move::NULL));
    }
}
