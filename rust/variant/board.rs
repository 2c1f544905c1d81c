//! The variant board: a padded mailbox sized to the variant, piece lists, make/unmake
//! (the tables it reads are in `tables`, FEN in `fen`).
//!
//! Squares are indexes into a mailbox of `(ranks + 2*PAD + 1) * (files + PAD)` cells with
//! `PAD` off-board cells around the board: row r (0-based) and file f live at
//! `(r + PAD) * stride + f + PAD`, with `stride = files + PAD`. A leap of up to `PAD`
//! squares in any direction from a board square lands on a board or an off-board cell,
//! never outside the array, so the generator needs no bounds tests (the 10x12 idea from
//! <https://www.chessprogramming.org/10x12_Board>, widened for leaps of three squares).

use super::geometry::*;
use super::tables::Compiled;
use std::sync::Arc;

/// What `unmake` needs to restore.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: VMove,
    captured: u8,
    castling: u8,
    ep: u8,
    halfmove: u32,
}

/// A position of a variant, with its move history for `unmake`.
#[derive(Clone, Debug)]
pub struct VBoard {
    pub(crate) c: Arc<Compiled>,
    pub(crate) cells: [u8; CELLS],
    pub(crate) side: usize,
    pub(crate) castling: u8,
    /// En passant target square, 0 if none.
    pub(crate) ep: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    /// Royal piece square per colour, 0 if the side has none.
    pub(crate) royal_sq: [u8; 2],
    /// Squares of each side's pieces: at most 120 (a 12x10 board), so 128 entries.
    pub(crate) plist: [[u8; 128]; 2],
    pub(crate) pcount: [usize; 2],
    pub(crate) pindex: [u8; CELLS],
    /// Pieces per type and side (at most 30 types, see `def`).
    pub(crate) tcount: [[u8; 32]; 2],
    pub(crate) present: [u32; 2],
    /// Each side's pieces as a bitboard (`Compiled::bit`), kept beside the mailbox for
    /// perft's leaf count.
    pub(crate) occ: [u128; 2],
    /// Each side's pieces per type, as bitboards.
    pub(crate) tbb: [[u128; 32]; 2],
    pub(crate) castle_rook: [[u8; 2]; 2],
    /// Per colour and side, the squares that must be empty to castle (between and under
    /// the king's and the rook's paths, their own squares excepted), set with the right:
    /// the king and rook stand still while it lasts.
    pub(crate) castle_path: [[u128; 2]; 2],
    /// Per colour and side, the squares the king passes or lands on (its own excepted),
    /// which must not be attacked.
    pub(crate) castle_safe: [[u128; 2]; 2],
    pub(crate) castle_mask: [u8; CELLS],
    history: Vec<Undo>,
    /// What movegen's `analyse` found for the side to move: the squares a move may not
    /// leave (or, against hoppers, enter) without the make-and-test, and those to which a
    /// move answers the one check on the royal piece (capturing the checker or standing in
    /// its way), as bitboards.
    pub(crate) pinned: u128,
    pub(crate) cmask: u128,
    /// The part of `pinned` whose moves are made and tested (pins along the mailbox rays,
    /// hoppers' lines, a piece pinned along two lines); the other pinned pieces are pinned
    /// along one unlimited ride and stay legal on its squares: the piece on bit
    /// `pin_bit[i]` may move to `pin_ray[i]` (from the royal piece, exclusive, to the
    /// pinner, inclusive), for `i < npins` (later entries are stale).
    pub(crate) pin_hard: u128,
    pub(crate) pin_bit: [u8; MAX_PINS],
    pub(crate) pin_ray: [u128; MAX_PINS],
    pub(crate) npins: usize,
    /// What `analyse` found: 0 no check, 1 one check that `cmask` describes, 2 a double
    /// check or a check it cannot describe (then moves are made and tested).
    pub(crate) check: u8,
}

impl VBoard {
    pub(crate) fn empty(c: Arc<Compiled>) -> VBoard {
        let cells = c.template;
        VBoard {
            c,
            cells,
            side: 0,
            castling: 0,
            ep: 0,
            halfmove: 0,
            fullmove: 1,
            royal_sq: [0; 2],
            plist: [[0; 128]; 2],
            pcount: [0; 2],
            pindex: [0; CELLS],
            tcount: [[0; 32]; 2],
            present: [0; 2],
            occ: [0; 2],
            tbb: [[0; 32]; 2],
            pinned: 0,
            cmask: 0,
            pin_hard: 0,
            pin_bit: [0; MAX_PINS],
            pin_ray: [0; MAX_PINS],
            npins: 0,
            castle_rook: [[0; 2]; 2],
            castle_path: [[0; 2]; 2],
            castle_safe: [[0; 2]; 2],
            castle_mask: [0; CELLS],
            history: Vec::new(),
            check: 0,
        }
    }

    pub fn compiled(&self) -> &Arc<Compiled> {
        &self.c
    }
    pub fn side_to_move(&self) -> usize {
        self.side
    }
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    #[inline]
    pub(crate) fn put(&mut self, s: u8, cell: u8) {
        let (col, t) = (color(cell), kind(cell));
        self.cells[s as usize] = cell;
        self.occ[col] |= self.c.sqbb[s as usize];
        self.tbb[col][t] |= self.c.sqbb[s as usize];
        let n = self.pcount[col];
        self.plist[col][n] = s;
        self.pindex[s as usize] = n as u8;
        self.pcount[col] = n + 1;
        self.tcount[col][t] += 1;
        self.present[col] |= 1 << t;
        if Some(t) == self.c.royal {
            self.royal_sq[col] = s;
        }
    }

    #[inline]
    fn remove(&mut self, s: u8) -> u8 {
        let cell = self.cells[s as usize];
        let (col, t) = (color(cell), kind(cell));
        self.cells[s as usize] = EMPTY;
        self.occ[col] &= !self.c.sqbb[s as usize];
        self.tbb[col][t] &= !self.c.sqbb[s as usize];
        let i = self.pindex[s as usize] as usize;
        let last = self.pcount[col] - 1;
        let moved = self.plist[col][last];
        self.plist[col][i] = moved;
        self.pindex[moved as usize] = i as u8;
        self.pcount[col] = last;
        self.tcount[col][t] -= 1;
        if self.tcount[col][t] == 0 {
            self.present[col] &= !(1 << t);
        }
        if Some(t) == self.c.royal {
            self.royal_sq[col] = 0;
        }
        cell
    }

    #[inline]
    fn shift(&mut self, from: u8, to: u8) {
        let cell = self.cells[from as usize];
        self.cells[from as usize] = EMPTY;
        self.cells[to as usize] = cell;
        let col = color(cell);
        let moved = self.c.sqbb[from as usize] | self.c.sqbb[to as usize];
        self.occ[col] ^= moved;
        self.tbb[col][kind(cell)] ^= moved;
        let i = self.pindex[from as usize];
        self.plist[col][i as usize] = to;
        self.pindex[to as usize] = i;
        if Some(kind(cell)) == self.c.royal {
            self.royal_sq[col] = to;
        }
    }

    /// Pawn push direction for colour c.
    #[inline]
    pub(crate) fn forward(&self, col: usize) -> i16 {
        if col == 0 {
            self.c.stride
        } else {
            -self.c.stride
        }
    }

    /// Plays a move generated for this position (trusted: no legality test).
    pub fn make(&mut self, m: VMove) {
        let us = self.side;
        let fwd = self.forward(us);
        let mut captured = EMPTY;
        let undo_castling = self.castling;
        let undo_ep = self.ep;
        let undo_half = self.halfmove;
        let moving = self.cells[m.from as usize];
        self.ep = 0;
        self.halfmove += 1;
        match m.kind {
            CASTLE => {
                let king = self.remove(m.from);
                let rook = self.remove(m.rook);
                let kingside = m.rook > m.from;
                let rto = if kingside { m.to - 1 } else { m.to + 1 };
                self.put(m.to, king);
                self.put(rto, rook);
            }
            EN_PASSANT => {
                captured = self.remove((m.to as i16 - fwd) as u8);
                self.shift(m.from, m.to);
                self.halfmove = 0;
            }
            _ => {
                if self.cells[m.to as usize] != EMPTY {
                    captured = self.remove(m.to);
                    self.halfmove = 0;
                }
                if m.promo != 0 {
                    self.remove(m.from);
                    self.put(m.to, code((m.promo - 1) as usize, us));
                } else {
                    self.shift(m.from, m.to);
                }
                if Some(kind(moving)) == self.c.pawn {
                    self.halfmove = 0;
                    if m.kind == DOUBLE {
                        // The en passant square is kept only if an enemy pawn could take
                        // (Fairy-Stockfish's rule, so FENs compare equal).
                        let them_pawn = code(self.c.pawn.unwrap_or(0), 1 - us);
                        if self.cells[(m.to - 1) as usize] == them_pawn || self.cells[(m.to + 1) as usize] == them_pawn
                        {
                            self.ep = (m.from as i16 + fwd) as u8;
                        }
                    }
                }
            }
        }
        self.castling &= !(self.castle_mask[m.from as usize] | self.castle_mask[m.to as usize]);
        if us == 1 {
            self.fullmove += 1;
        }
        self.side = 1 - us;
        self.history.push(Undo { mv: m, captured, castling: undo_castling, ep: undo_ep, halfmove: undo_half });
    }

    /// Takes back the last move; false if there is none.
    pub fn unmake(&mut self) -> bool {
        let Some(u) = self.history.pop() else {
            return false;
        };
        let m = u.mv;
        self.side = 1 - self.side;
        let us = self.side;
        if us == 1 {
            self.fullmove -= 1;
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        match m.kind {
            CASTLE => {
                let kingside = m.rook > m.from;
                let rto = if kingside { m.to - 1 } else { m.to + 1 };
                let king = self.remove(m.to);
                let rook = self.remove(rto);
                self.put(m.from, king);
                self.put(m.rook, rook);
            }
            EN_PASSANT => {
                self.shift(m.to, m.from);
                let capsq = (m.to as i16 - self.forward(us)) as u8;
                self.put(capsq, u.captured);
            }
            _ => {
                if m.promo != 0 {
                    self.remove(m.to);
                    self.put(m.from, code(self.c.pawn.unwrap_or(0), us));
                } else {
                    self.shift(m.to, m.from);
                }
                if u.captured != EMPTY {
                    self.put(m.to, u.captured);
                }
            }
        }
        true
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<VMove> {
        self.history.last().map(|u| u.mv)
    }

    /// Consistency of the piece lists with the mailbox (debug builds check it after each
    /// make and unmake in tests).
    pub fn is_ok(&self) -> bool {
        let mut n = [0usize; 2];
        let mut occ = [0u128; 2];
        let mut tbb = [[0u128; 32]; 2];
        for &s in &self.c.squares {
            let cell = self.cells[s as usize];
            if cell == EMPTY {
                continue;
            }
            let col = color(cell);
            n[col] += 1;
            occ[col] |= self.c.sqbb[s as usize];
            tbb[col][kind(cell)] |= self.c.sqbb[s as usize];
            if self.plist[col][self.pindex[s as usize] as usize] != s {
                return false;
            }
        }
        n == self.pcount && occ == self.occ && tbb == self.tbb
    }
}
