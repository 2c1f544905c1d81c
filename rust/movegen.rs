//! Legal move generation (<https://www.chessprogramming.org/Move_Generation>).
//!
//! Fully legal, not pseudo-legal-then-filtered: before generating we look out from our king
//! once along the eight rays and the knight and pawn squares, which gives the checkers, the
//! squares that block or capture a single checker, and the pinned pieces with their pin
//! direction. Then every generated move is legal by construction:
//! - in double check only the king moves;
//! - in single check other pieces must land on the check mask;
//! - a pinned piece moves only along its pin ray (so a pinned knight never moves);
//! - the king never steps onto an attacked square, tested with the king itself removed so a
//!   slider's ray through the king's old square counts;
//! - castling never out of, through or into check;
//! - en passant, whose two vacated squares can expose the king along a rank or a diagonal,
//!   is checked by playing it on a scratch copy of the mailbox (it is rare, so this is cheap).

use crate::attack::attacked;
use crate::board::{cells, Board};
use crate::types::*;

/// Bit of a mailbox cell in a 120-bit set.
#[inline(always)]
const fn bit(sq: Square) -> u128 {
    1u128 << sq
}

/// May a non-king piece land on `to`? Always out of check; in check only on the mask.
#[inline(always)]
fn in_target<const EVASION: bool>(target: u128, to: Square) -> bool {
    !EVASION || target & bit(to) != 0
}

/// Our pinned pieces and the direction of each pin (from our king outwards).
struct Pins {
    mask: u128,
    npins: usize,
    sq: [usize; 8],
    dir: [isize; 8],
}

/// Promotion kinds in generation order.
const PROMOS: [u8; 4] = [QUEEN, KNIGHT, ROOK, BISHOP];

impl Board {
    /// All legal moves of the side to move.
    #[inline]
    pub fn generate_legal(&self, ml: &mut MoveList) {
        self.gen::<true>(ml);
    }

    /// The legal captures (en passant included) and promotions (quiet ones included): the
    /// moves quiescence search looks at. In check, use `generate_legal` for all evasions.
    #[inline]
    pub fn generate_captures(&self, ml: &mut MoveList) {
        self.gen::<false>(ml);
    }

    /// The number of legal moves (used by perft's bulk counting at the last ply).
    #[inline]
    pub fn count_legal(&self) -> usize {
        let mut ml = MoveList::new();
        self.gen::<true>(&mut ml);
        ml.len()
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// Is `m` legal here? (Used to check moves from outside: the book, the table, the user.)
    pub fn is_legal(&self, m: Move) -> bool {
        let mut ml = MoveList::new();
        self.gen::<true>(&mut ml);
        ml.contains(m)
    }

    fn gen<const QUIETS: bool>(&self, ml: &mut MoveList) {
        let us = self.side;
        let them = us ^ 1;
        let cells = &self.cells;
        let ksq = self.king_square(us);

        // Checks and pins, by looking out from our king.
        let their_queen = make_piece(QUEEN, them);
        let mut checkers = 0u32;
        let mut check_mask: u128 = 0;
        let mut pinned: u128 = 0;
        let mut pin_sq = [0usize; 8];
        let mut pin_dir = [0isize; 8];
        let mut npins = 0;
        for (i, &d) in KING_DIRS.iter().enumerate() {
            let slider = if i < 4 { make_piece(ROOK, them) } else { make_piece(BISHOP, them) };
            let mut t = (ksq as isize + d) as usize;
            while at(cells, t) == EMPTY {
                t = (t as isize + d) as usize;
            }
            let p = at(cells, t);
            if is_color(p, us) {
                let mut t2 = (t as isize + d) as usize;
                while at(cells, t2) == EMPTY {
                    t2 = (t2 as isize + d) as usize;
                }
                let q = at(cells, t2);
                if q == slider || q == their_queen {
                    pinned |= bit(t);
                    pin_sq[npins] = t;
                    pin_dir[npins] = d;
                    npins += 1;
                }
            } else if p == slider || p == their_queen {
                checkers += 1;
                let mut s = (ksq as isize + d) as usize;
                loop {
                    check_mask |= bit(s);
                    if s == t {
                        break;
                    }
                    s = (s as isize + d) as usize;
                }
            }
        }
        let their_knight = make_piece(KNIGHT, them);
        for d in KNIGHT_JUMPS {
            let t = (ksq as isize + d) as usize;
            if at(cells, t) == their_knight {
                checkers += 1;
                check_mask |= bit(t);
            }
        }
        let fwd = pawn_push(us);
        let their_pawn = make_piece(PAWN, them);
        for t in [(ksq as isize + fwd - 1) as usize, (ksq as isize + fwd + 1) as usize] {
            if at(cells, t) == their_pawn {
                checkers += 1;
                check_mask |= bit(t);
            }
        }

        // King moves.
        for d in KING_DIRS {
            let to = (ksq as isize + d) as usize;
            let p = at(cells, to);
            if ((QUIETS && p == EMPTY) || is_color(p, them)) && !attacked(cells, to, them, ksq) {
                ml.push(Move::new(ksq, to));
            }
        }
        if checkers >= 2 {
            return;
        }

        if QUIETS && checkers == 0 && self.castling & (3 << (2 * us)) != 0 {
            self.gen_castling(ml, ksq);
        }

        let pins = Pins { mask: pinned, npins, sq: pin_sq, dir: pin_dir };
        if checkers == 0 {
            self.gen_pieces::<QUIETS, false>(ml, &pins, !0);
        } else {
            self.gen_pieces::<QUIETS, true>(ml, &pins, check_mask);
        }

        // En passant, verified on a scratch mailbox (see the module comment).
        if self.ep != 0 {
            let our_pawn = make_piece(PAWN, us);
            let ep = self.ep as usize;
            let capsq = (ep as isize - fwd) as usize;
            for from in [capsq - 1, capsq + 1] {
                if at(cells, from) == our_pawn {
                    let mut scratch = *cells;
                    scratch[from] = EMPTY;
                    scratch[capsq] = EMPTY;
                    scratch[ep] = our_pawn;
                    if !attacked(&scratch, ksq, them, 0) {
                        ml.push(Move::with_flags(from, ep, Move::EN_PASSANT));
                    }
                }
            }
        }
    }


    /// Moves of every piece but the king. `EVASION` is true in single check, when `target`
    /// (the checker and the squares between it and our king) limits where pieces may land;
    /// out of check the test is compiled out.
    #[inline(always)]
    fn gen_pieces<const QUIETS: bool, const EVASION: bool>(&self, ml: &mut MoveList, pins: &Pins, target: u128) {
        let us = self.side;
        let them = us ^ 1;
        let cells = &self.cells;
        let fwd = pawn_push(us);
        let n = self.count[us] as usize;
        let promo_rank = if us == WHITE { 7 } else { 0 };
        let start_rank = if us == WHITE { 1 } else { 6 };
        for i in 1..n {
            let from = self.list[us][i] as usize;
            let p = at(cells, from);
            // The pin ray of a pinned piece, or 0.
            let pd: isize = if pins.npins != 0 && pins.mask & bit(from) != 0 {
                let mut d = 0;
                for j in 0..pins.npins {
                    if pins.sq[j] == from {
                        d = pins.dir[j];
                    }
                }
                d
            } else {
                0
            };
            match kind_of(p) {
                PAWN => {
                    let to = (from as isize + fwd) as usize;
                    let promoting = rank_of(to) == promo_rank;
                    if at(cells, to) == EMPTY && (pd == 0 || pd == fwd || pd == -fwd) {
                        if promoting {
                            if in_target::<EVASION>(target, to) {
                                for k in PROMOS {
                                    ml.push(Move::promotion(from, to, k));
                                }
                            }
                        } else if QUIETS {
                            if in_target::<EVASION>(target, to) {
                                ml.push(Move::new(from, to));
                            }
                            if rank_of(from) == start_rank {
                                let to2 = (to as isize + fwd) as usize;
                                if at(cells, to2) == EMPTY && in_target::<EVASION>(target, to2) {
                                    ml.push(Move::with_flags(from, to2, Move::DOUBLE_PUSH));
                                }
                            }
                        }
                    }
                    for cd in [fwd - 1, fwd + 1] {
                        let to = (from as isize + cd) as usize;
                        if is_color(at(cells, to), them) && in_target::<EVASION>(target, to) && (pd == 0 || pd == cd || pd == -cd) {
                            if promoting {
                                for k in PROMOS {
                                    ml.push(Move::promotion(from, to, k));
                                }
                            } else {
                                ml.push(Move::new(from, to));
                            }
                        }
                    }
                }
                KNIGHT => {
                    if pd != 0 {
                        continue;
                    }
                    for d in KNIGHT_JUMPS {
                        let to = (from as isize + d) as usize;
                        let q = at(cells, to);
                        if ((QUIETS && q == EMPTY) || is_color(q, them)) && in_target::<EVASION>(target, to) {
                            ml.push(Move::new(from, to));
                        }
                    }
                }
                BISHOP => self.gen_slider::<QUIETS, EVASION>(ml, from, &DIAG, pd, target, them),
                ROOK => self.gen_slider::<QUIETS, EVASION>(ml, from, &ORTHO, pd, target, them),
                QUEEN => self.gen_slider::<QUIETS, EVASION>(ml, from, &KING_DIRS, pd, target, them),
                _ => {}
            }
        }

    }

    #[inline(always)]
    fn gen_slider<const QUIETS: bool, const EVASION: bool>(
        &self,
        ml: &mut MoveList,
        from: Square,
        dirs: &[isize],
        pd: isize,
        target: u128,
        them: Color,
    ) {
        let cells = &self.cells;
        for &d in dirs {
            if pd != 0 && d != pd && d != -pd {
                continue;
            }
            let mut to = (from as isize + d) as usize;
            while at(cells, to) == EMPTY {
                if QUIETS && in_target::<EVASION>(target, to) {
                    ml.push(Move::new(from, to));
                }
                to = (to as isize + d) as usize;
            }
            if is_color(at(cells, to), them) && in_target::<EVASION>(target, to) {
                ml.push(Move::new(from, to));
            }
        }
    }

    /// Castling moves (the king is known not to be in check).
    fn gen_castling(&self, ml: &mut MoveList, ksq: Square) {
        let us = self.side;
        let them = us ^ 1;
        let cells = &self.cells;
        if self.chess960 {
            self.gen_castling_960(ml, ksq);
            return;
        }
        // Standard chess: the rights guarantee king and rook on their home squares.
        let back = if us == WHITE { 0 } else { 70 };
        if self.castling & (1 << (2 * us)) != 0
            && at(cells, cells::F1 + back) == EMPTY
            && at(cells, cells::G1 + back) == EMPTY
            && !attacked(cells, cells::F1 + back, them, 0)
            && !attacked(cells, cells::G1 + back, them, 0)
        {
            ml.push(Move::with_flags(ksq, cells::G1 + back, Move::CASTLE));
        }
        if self.castling & (2 << (2 * us)) != 0
            && at(cells, cells::D1 + back) == EMPTY
            && at(cells, cells::C1 + back) == EMPTY
            && at(cells, cells::C1 + back - 1) == EMPTY
            && !attacked(cells, cells::D1 + back, them, 0)
            && !attacked(cells, cells::C1 + back, them, 0)
        {
            ml.push(Move::with_flags(ksq, cells::C1 + back, Move::CASTLE));
        }
    }

    /// Chess960 castling: king to the g- or c-file, rook to the f- or d-file; every square
    /// either piece crosses or lands on must be empty but for the two of them, and no square
    /// the king crosses or lands on may be attacked with both of them lifted off the board.
    fn gen_castling_960(&self, ml: &mut MoveList, ksq: Square) {
        let us = self.side;
        let them = us ^ 1;
        let back_rank = rank_of(ksq);
        for side in 0..2 {
            let bit_no = 2 * us + side;
            if self.castling & (1 << bit_no) == 0 {
                continue;
            }
            let rook_sq = self.castle_rook[bit_no] as Square;
            let (king_to, rook_to) = if side == 0 {
                (sq120(6, back_rank), sq120(5, back_rank))
            } else {
                (sq120(2, back_rank), sq120(3, back_rank))
            };
            let lo = ksq.min(king_to).min(rook_sq).min(rook_to);
            let hi = ksq.max(king_to).max(rook_sq).max(rook_to);
            if (lo..=hi).any(|s| s != ksq && s != rook_sq && self.cells[s] != EMPTY) {
                continue;
            }
            let mut scratch = self.cells;
            scratch[ksq] = EMPTY;
            scratch[rook_sq] = EMPTY;
            let (klo, khi) = (ksq.min(king_to), ksq.max(king_to));
            if (klo..=khi).any(|s| attacked(&scratch, s, them, 0)) {
                continue;
            }
            ml.push(Move::with_flags(ksq, king_to, Move::CASTLE));
        }
    }
}
