//! Legal move generation (<https://www.chessprogramming.org/Move_Generation>).
//!
//! Fully legal, not pseudo-legal-then-filtered: before generating we look out from our king
//! once (`safety`: only along the rays that hold an enemy slider of the matching kind, found
//! with the bitboards, then the knight and pawn squares), which gives the checkers, the
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
//!
//! `gen` lists the moves in a fixed order (king, castling, then the piece list, then en
//! passant) that the search's node counts depend on. It hands each move to a `MoveSink` with
//! its kind (king, piece, pawn push, capture...): a `MoveList` keeps the moves as they come,
//! and the Python board files them straight into python-chess's order without a sort. Perft's last ply only needs how many
//! there are: `count_moves` applies the same rules to whole sets of squares (all unpinned
//! pawns shifted at once, each other piece's target set counted by popcount), which is
//! what makes the bulk-counting perft faster than Stockfish's (README, "Speed").

use crate::chess::board::{cells, Board};
use crate::chess::geometry::*;
use crate::chess::types::*;

/// May a non-king piece land on `to`? Always out of check; in check only on the mask.
#[inline(always)]
fn in_target<const EVASION: bool>(target: u64, to: Square) -> bool {
    !EVASION || target & bb_of(to) != 0
}

/// What kind of move the generator hands to a `MoveSink`: known where each move is made,
/// so a sink that files moves by kind never looks at the board again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// A move of the king other than castling.
    King,
    /// A move of a knight, bishop, rook or queen.
    Piece,
    /// A pawn's step to an empty square, promotions included.
    PawnPush,
    /// A pawn's two-square first step.
    DoublePush,
    /// A pawn's diagonal capture, promotions included (not en passant).
    PawnCapture,
    Castle,
    EnPassant,
}

/// Where the legal move generator puts its moves: a `MoveList` keeps them in generation
/// order; the Python board files them straight into python-chess's order. Each call site
/// passes a constant kind, so a sink that ignores it compiles to the plain push.
pub trait MoveSink {
    fn add(&mut self, m: Move, kind: MoveKind);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, m: Move, _kind: MoveKind) {
        self.push(m);
    }
}

/// What the side to move's king is exposed to, found once per node: the checkers, the
/// squares that capture or block a single checker, and our pinned pieces with their rays.
struct Safety {
    checkers: u32,
    /// The checking pieces and the squares between sliding checkers and our king.
    check_mask: u64,
    /// Our pinned pieces.
    pinned: u64,
    npins: usize,
    /// Each pinned piece's cell and pin direction (an index into `KING_DIRS`, from our
    /// king outwards; the piece may still move along `RAYS[dir][king]`). At most one pin
    /// per direction, so eight entries.
    pin_sq: [u8; 8],
    pin_dir: [u8; 8],
}
/// Promotion kinds in generation order.
const PROMOS: [u8; 4] = [QUEEN, KNIGHT, ROOK, BISHOP];

/// Squares of ranks 1..8 and of the files the pawn captures must not wrap from.
const RANK_1: u64 = 0xFF;
const RANK_3: u64 = 0xFF << 16;
const RANK_6: u64 = 0xFF << 40;
const RANK_8: u64 = 0xFF << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Number of set bits (the hardware instruction where perft's dispatch enabled it).
#[inline(always)]
fn pop(b: u64) -> u32 {
    b.count_ones()
}

impl Board {
    /// All legal moves of the side to move.
    #[inline]
    pub fn generate_legal(&self, ml: &mut MoveList) {
        self.gen::<true, MoveList>(ml);
    }

    /// All legal moves of the side to move, each handed to `sink` with its kind, in the
    /// order `generate_legal` lists them.
    #[inline]
    pub fn generate_legal_into<S: MoveSink>(&self, sink: &mut S) {
        self.gen::<true, S>(sink);
    }

    /// The legal captures (en passant included) and promotions (quiet ones included): the
    /// moves quiescence search looks at. In check, use `generate_legal` for all evasions.
    #[inline]
    pub fn generate_captures(&self, ml: &mut MoveList) {
        self.gen::<false, MoveList>(ml);
    }

    /// The number of legal moves, counted without listing them (perft's last ply).
    #[inline]
    pub fn count_legal(&self) -> usize {
        self.count_moves() as usize
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_moves() > 0
    }

    /// Is `m` legal here? (Used to check moves from outside: the book, the table, the user.)
    pub fn is_legal(&self, m: Move) -> bool {
        let mut ml = MoveList::new();
        self.gen::<true, MoveList>(&mut ml);
        ml.contains(m)
    }

    /// `is_legal(m)` without generating the moves, for the search's table move (which it
    /// tries before generating any): the move's shape is checked against the piece on its
    /// origin (a pawn's push, double push, capture or promotion with the flags the generator
    /// gives it; a leaper's or an unblocked slider's step), then that our king is not attacked
    /// once it is played. Castling and en passant, rare, ask `is_legal`.
    pub fn is_legal_quick(&self, m: Move) -> bool {
        const KNOWN: u32 = 0x7_ffff | Move::DOUBLE_PUSH | Move::EN_PASSANT | Move::CASTLE;
        if m.is_castle() || m.is_en_passant() {
            return self.is_legal(m);
        }
        let (from, to) = (m.from(), m.to());
        if m.0 & !KNOWN != 0 || !is_real(from) || !is_real(to) {
            return false;
        }
        let us = self.side;
        let them = us ^ 1;
        let piece = self.cells[from];
        let target = self.cells[to];
        if !is_color(piece, us) || is_color(target, us) || target == make_piece(KING, them) {
            return false;
        }
        let kind = kind_of(piece);
        let (f64, t64) = (SQ64[from] as usize, SQ64[to] as usize);
        let to_bb = 1u64 << t64;
        let occ = self.occ[0] | self.occ[1];
        let shape = if kind == PAWN {
            let push = pawn_push(us);
            let last_rank = if us == WHITE { 7 } else { 0 };
            let promo_ok =
                if rank_of(to) == last_rank { (KNIGHT..=QUEEN).contains(&m.promo()) } else { !m.is_promotion() };
            let step = to as isize - from as isize;
            let double = m.is_double_push();
            promo_ok
                && if step == push {
                    target == EMPTY && !double
                } else if step == 2 * push {
                    let home = if us == WHITE { 1 } else { 6 };
                    double
                        && rank_of(from) == home
                        && target == EMPTY
                        && self.cells[(from as isize + push) as usize] == EMPTY
                } else if step == push + 1 || step == push - 1 {
                    target != EMPTY && !double
                } else {
                    false
                }
        } else if m.is_promotion() || m.is_double_push() {
            false
        } else {
            let reach = match kind {
                KNIGHT => KNIGHT_ATTACKS[f64],
                BISHOP => diag_attacks(f64, occ),
                ROOK => ortho_attacks(f64, occ),
                QUEEN => diag_attacks(f64, occ) | ortho_attacks(f64, occ),
                _ => KING_ATTACKS[f64],
            };
            reach & to_bb != 0
        };
        if !shape {
            return false;
        }
        // Our king after the move: the captured piece no longer attacks, `from` is empty.
        let after = (occ & !(1u64 << f64)) | to_bb;
        let king = if kind == KING { t64 } else { SQ64[self.king_square(us)] as usize };
        !self.attacked_by_except(king, them, after, to_bb)
    }

    /// Checks and pins, looking out from our king: along the rays that hold an enemy slider
    /// of the matching kind (usually none), then the knight and pawn squares.
    #[inline(always)]
    fn safety(&self) -> Safety {
        let us = self.side;
        let them = us ^ 1;
        let occ = self.occ[0] | self.occ[1];
        let k = SQ64[self.king_square(us)] as usize;
        let mut sf = Safety { checkers: 0, check_mask: 0, pinned: 0, npins: 0, pin_sq: [0; 8], pin_dir: [0; 8] };
        let queens = self.bb(QUEEN, them);
        let ortho = self.bb(ROOK, them) | queens;
        let diag = self.bb(BISHOP, them) | queens;
        if (ORTHO_RAYS[k] & ortho) | (DIAG_RAYS[k] & diag) != 0 {
            for (dir, rays) in RAYS.iter().enumerate() {
                let sliders = if dir < 4 { ortho } else { diag };
                let ray = rays[k];
                if ray & sliders == 0 {
                    continue;
                }
                // The ray holds a slider, so it holds an occupied square.
                let b1 = nearest(dir, ray & occ);
                if sliders & (1 << b1) != 0 {
                    sf.checkers += 1;
                    sf.check_mask |= ray ^ RAYS[dir][b1];
                } else if self.occ[us] & (1 << b1) != 0 {
                    let beyond = RAYS[dir][b1] & occ;
                    if beyond != 0 && sliders & (1 << nearest(dir, beyond)) != 0 {
                        sf.pinned |= 1 << b1;
                        sf.pin_sq[sf.npins] = SQ120[b1];
                        sf.pin_dir[sf.npins] = dir as u8;
                        sf.npins += 1;
                    }
                }
            }
        }
        let leapers = (KNIGHT_ATTACKS[k] & self.bb(KNIGHT, them)) | (PAWN_ATTACKS[us][k] & self.bb(PAWN, them));
        if leapers != 0 {
            sf.checkers += leapers.count_ones();
            sf.check_mask |= leapers;
        }
        sf
    }

    fn gen<const QUIETS: bool, S: MoveSink>(&self, ml: &mut S) {
        let us = self.side;
        let them = us ^ 1;
        let cells = &self.cells;
        let ksq = self.king_square(us);
        let sf = self.safety();

        // King moves, each tested with the king lifted off (a slider's ray through its old
        // square still counts).
        let occ_nok = (self.occ[0] | self.occ[1]) ^ bb_of(ksq);
        for d in KING_DIRS {
            let to = (ksq as isize + d) as usize;
            let p = at(cells, to);
            if ((QUIETS && p == EMPTY) || is_color(p, them)) && !self.attacked_by(SQ64[to] as usize, them, occ_nok) {
                ml.add(Move::new(ksq, to), MoveKind::King);
            }
        }
        if sf.checkers >= 2 {
            return;
        }

        if QUIETS && sf.checkers == 0 && self.castling & (3 << (2 * us)) != 0 {
            self.gen_castling(ml, ksq);
        }

        if sf.checkers == 0 {
            self.gen_pieces::<QUIETS, false, S>(ml, &sf, !0);
        } else {
            self.gen_pieces::<QUIETS, true, S>(ml, &sf, sf.check_mask);
        }

        // En passant, verified on a scratch mailbox (see the module comment).
        if self.ep != 0 {
            let fwd = pawn_push(us);
            let our_pawn = make_piece(PAWN, us);
            let ep = self.ep as usize;
            let capsq = (ep as isize - fwd) as usize;
            for from in [capsq - 1, capsq + 1] {
                if at(cells, from) == our_pawn && self.ep_is_legal(from) {
                    ml.add(Move::with_flags(from, ep, Move::EN_PASSANT), MoveKind::EnPassant);
                }
            }
        }
    }

    /// Does the en-passant capture from `from` leave our king safe? Played on a scratch
    /// mailbox: it vacates two squares and can expose the king along a rank or a diagonal.
    fn ep_is_legal(&self, from: Square) -> bool {
        let us = self.side;
        let ep = self.ep as usize;
        let capsq = (ep as isize - pawn_push(us)) as usize;
        let mut scratch = self.cells;
        scratch[from] = EMPTY;
        scratch[capsq] = EMPTY;
        scratch[ep] = make_piece(PAWN, us);
        !attacked(&scratch, self.king_square(us), us ^ 1, 0)
    }

    /// The number of legal moves, from the bitboards: the same rules as `gen`, but pawns
    /// counted in bulk by shifting the set of unpinned pawns, and every other piece by the
    /// size of its set of target squares. `count_legal` for the public name.
    #[inline(always)]
    pub(crate) fn count_moves(&self) -> u32 {
        let us = self.side;
        let them = us ^ 1;
        let own = self.occ[us];
        let enemy = self.occ[them];
        let occ = own | enemy;
        let ksq = self.king_square(us);
        let k = SQ64[ksq] as usize;
        let sf = self.safety();

        let mut n = 0;
        let occ_nok = occ ^ (1 << k);
        let mut t = KING_ATTACKS[k] & !own;
        while t != 0 {
            let s = t.trailing_zeros() as usize;
            t &= t - 1;
            if !self.attacked_by(s, them, occ_nok) {
                n += 1;
            }
        }
        if sf.checkers >= 2 {
            return n;
        }
        let target = if sf.checkers == 0 {
            if self.castling & (3 << (2 * us)) != 0 {
                n += self.count_castling(ksq);
            }
            !own
        } else {
            sf.check_mask
        };

        // Pawns not pinned, in bulk.
        let empty = !occ;
        let pawns = self.bb(PAWN, us);
        let free = pawns & !sf.pinned;
        let (one, two, left, right, promo_rank) = if us == WHITE {
            let one = (free << 8) & empty;
            (
                one,
                ((one & RANK_3) << 8) & empty,
                ((free & !FILE_A) << 7) & enemy,
                ((free & !FILE_H) << 9) & enemy,
                RANK_8,
            )
        } else {
            let one = (free >> 8) & empty;
            (
                one,
                ((one & RANK_6) >> 8) & empty,
                ((free & !FILE_A) >> 9) & enemy,
                ((free & !FILE_H) >> 7) & enemy,
                RANK_1,
            )
        };
        let (one, two, left, right) = (one & target, two & target, left & target, right & target);
        n += pop(one) + pop(two) + pop(left) + pop(right);
        if (one | left | right) & promo_rank != 0 {
            // Each promotion is four moves.
            n += 3 * (pop(one & promo_rank) + pop(left & promo_rank) + pop(right & promo_rank));
        }

        // Knights (a pinned knight never moves).
        let mut b = self.bb(KNIGHT, us) & !sf.pinned;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            n += pop(KNIGHT_ATTACKS[s] & target);
        }

        // Sliders not pinned.
        let queens = self.bb(QUEEN, us);
        let mut b = (self.bb(BISHOP, us) | queens) & !sf.pinned;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            n += pop(diag_attacks(s, occ) & target);
        }
        let mut b = (self.bb(ROOK, us) | queens) & !sf.pinned;
        while b != 0 {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            n += pop(ortho_attacks(s, occ) & target);
        }

        // Pinned pieces, one by one, along their pin rays.
        for i in 0..sf.npins {
            let from = sf.pin_sq[i] as usize;
            let s = SQ64[from] as usize;
            let allowed = RAYS[sf.pin_dir[i] as usize][k] & target;
            let piece = self.cells[from];
            n += match kind_of(piece) {
                PAWN => {
                    let fwd = pawn_push(us);
                    let to = (from as isize + fwd) as usize;
                    let mut moves = PAWN_ATTACKS[us][s] & enemy;
                    if self.cells[to] == EMPTY {
                        moves |= bb_of(to);
                        let to2 = (to as isize + fwd) as usize;
                        if rank_of(from) == if us == WHITE { 1 } else { 6 } && self.cells[to2] == EMPTY {
                            moves |= bb_of(to2);
                        }
                    }
                    let moves = moves & allowed;
                    pop(moves) + 3 * pop(moves & promo_rank)
                }
                BISHOP => pop(diag_attacks(s, occ) & allowed),
                ROOK => pop(ortho_attacks(s, occ) & allowed),
                QUEEN => pop((diag_attacks(s, occ) | ortho_attacks(s, occ)) & allowed),
                _ => 0,
            };
        }

        if self.ep != 0 {
            let our_pawn = make_piece(PAWN, us);
            let capsq = (self.ep as isize - pawn_push(us)) as usize;
            for from in [capsq - 1, capsq + 1] {
                if self.cells[from] == our_pawn && self.ep_is_legal(from) {
                    n += 1;
                }
            }
        }
        n
    }

    /// Moves of every piece but the king. `EVASION` is true in single check, when `target`
    /// (the checker and the squares between it and our king) limits where pieces may land;
    /// out of check the test is compiled out.
    #[inline(always)]
    fn gen_pieces<const QUIETS: bool, const EVASION: bool, S: MoveSink>(&self, ml: &mut S, pins: &Safety, target: u64) {
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
            let pd: isize = if pins.pinned != 0 && pins.pinned & bb_of(from) != 0 {
                let mut d = 0;
                for j in 0..pins.npins {
                    if pins.pin_sq[j] as usize == from {
                        d = KING_DIRS[pins.pin_dir[j] as usize];
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
                                    ml.add(Move::promotion(from, to, k), MoveKind::PawnPush);
                                }
                            }
                        } else if QUIETS {
                            if in_target::<EVASION>(target, to) {
                                ml.add(Move::new(from, to), MoveKind::PawnPush);
                            }
                            if rank_of(from) == start_rank {
                                let to2 = (to as isize + fwd) as usize;
                                if at(cells, to2) == EMPTY && in_target::<EVASION>(target, to2) {
                                    ml.add(Move::with_flags(from, to2, Move::DOUBLE_PUSH), MoveKind::DoublePush);
                                }
                            }
                        }
                    }
                    for cd in [fwd - 1, fwd + 1] {
                        let to = (from as isize + cd) as usize;
                        if is_color(at(cells, to), them)
                            && in_target::<EVASION>(target, to)
                            && (pd == 0 || pd == cd || pd == -cd)
                        {
                            if promoting {
                                for k in PROMOS {
                                    ml.add(Move::promotion(from, to, k), MoveKind::PawnCapture);
                                }
                            } else {
                                ml.add(Move::new(from, to), MoveKind::PawnCapture);
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
                            ml.add(Move::new(from, to), MoveKind::Piece);
                        }
                    }
                }
                BISHOP => self.gen_slider::<QUIETS, EVASION, S>(ml, from, &DIAG, pd, target, them),
                ROOK => self.gen_slider::<QUIETS, EVASION, S>(ml, from, &ORTHO, pd, target, them),
                QUEEN => self.gen_slider::<QUIETS, EVASION, S>(ml, from, &KING_DIRS, pd, target, them),
                _ => {}
            }
        }
    }

    #[inline(always)]
    fn gen_slider<const QUIETS: bool, const EVASION: bool, S: MoveSink>(
        &self,
        ml: &mut S,
        from: Square,
        dirs: &[isize],
        pd: isize,
        target: u64,
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
                    ml.add(Move::new(from, to), MoveKind::Piece);
                }
                to = (to as isize + d) as usize;
            }
            if is_color(at(cells, to), them) && in_target::<EVASION>(target, to) {
                ml.add(Move::new(from, to), MoveKind::Piece);
            }
        }
    }

    /// Castling moves (the king is known not to be in check).
    fn gen_castling<S: MoveSink>(&self, ml: &mut S, ksq: Square) {
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
            && !self.is_attacked(cells::F1 + back, them)
            && !self.is_attacked(cells::G1 + back, them)
        {
            ml.add(Move::with_flags(ksq, cells::G1 + back, Move::CASTLE), MoveKind::Castle);
        }
        if self.castling & (2 << (2 * us)) != 0
            && at(cells, cells::D1 + back) == EMPTY
            && at(cells, cells::C1 + back) == EMPTY
            && at(cells, cells::C1 + back - 1) == EMPTY
            && !self.is_attacked(cells::D1 + back, them)
            && !self.is_attacked(cells::C1 + back, them)
        {
            ml.add(Move::with_flags(ksq, cells::C1 + back, Move::CASTLE), MoveKind::Castle);
        }
    }

    /// The number of castling moves (the king is known not to be in check): `gen_castling`'s
    /// rules, with the standard squares tested on the bitboards.
    #[inline(always)]
    fn count_castling(&self, ksq: Square) -> u32 {
        if self.chess960 {
            let mut ml = MoveList::new();
            self.gen_castling_960(&mut ml, ksq);
            return ml.len() as u32;
        }
        let us = self.side;
        let them = us ^ 1;
        let occ = self.occ[0] | self.occ[1];
        // a1 = bit 0: f1 g1 = bits 5 6, b1 c1 d1 = bits 1 2 3; Black's rank is 56 bits up.
        let shift = if us == WHITE { 0 } else { 56 };
        let mut n = 0;
        if self.castling & (1 << (2 * us)) != 0
            && occ & (0x60 << shift) == 0
            && !self.attacked_by(5 + shift, them, occ)
            && !self.attacked_by(6 + shift, them, occ)
        {
            n += 1;
        }
        if self.castling & (2 << (2 * us)) != 0
            && occ & (0x0E << shift) == 0
            && !self.attacked_by(3 + shift, them, occ)
            && !self.attacked_by(2 + shift, them, occ)
        {
            n += 1;
        }
        n
    }

    /// Chess960 castling: king to the g- or c-file, rook to the f- or d-file; every square
    /// either piece crosses or lands on must be empty but for the two of them, and no square
    /// the king crosses or lands on may be attacked with both of them lifted off the board.
    fn gen_castling_960<S: MoveSink>(&self, ml: &mut S, ksq: Square) {
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
            ml.add(Move::with_flags(ksq, king_to, Move::CASTLE), MoveKind::Castle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks each move's kind against the board it is played on, and keeps the moves.
    struct KindCheck<'a> {
        board: &'a Board,
        moves: MoveList,
    }

    impl MoveSink for KindCheck<'_> {
        fn add(&mut self, m: Move, kind: MoveKind) {
            let b = self.board;
            let (piece, target) = (kind_of(b.cells[m.from()]), b.cells[m.to()]);
            let expected = if m.is_castle() {
                MoveKind::Castle
            } else if m.is_en_passant() {
                MoveKind::EnPassant
            } else if piece == KING {
                MoveKind::King
            } else if piece != PAWN {
                MoveKind::Piece
            } else if m.is_double_push() {
                MoveKind::DoublePush
            } else if target != EMPTY {
                MoveKind::PawnCapture
            } else {
                MoveKind::PawnPush
            };
            assert_eq!(kind, expected, "{m:?} in {}", b.fen());
            // A pawn's two-square step, and only that, carries the flag.
            let two = (m.to() as isize - m.from() as isize).abs() == 20;
            assert_eq!(m.is_double_push(), piece == PAWN && two, "{m:?} in {}", b.fen());
            self.moves.push(m);
        }
    }

    fn walk(b: &mut Board, depth: u32) -> u64 {
        let mut sink = KindCheck { board: b, moves: MoveList::new() };
        b.generate_legal_into(&mut sink);
        let moves = sink.moves;
        let mut plain = MoveList::new();
        b.generate_legal(&mut plain);
        assert_eq!(moves.as_slice(), plain.as_slice(), "the same moves in the same order");
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for &m in moves.iter() {
            b.make_move(m);
            n += walk(b, depth - 1);
            b.unmake_move();
        }
        n
    }

    #[test]
    fn every_move_comes_with_its_kind() {
        // Published perft counts (chessprogramming wiki, "Perft Results"): positions 1-5.
        for (fen, depth, count) in [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3, 8_902),
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97_862),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43_238),
            ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9_467),
            ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62_379),
        ] {
            let mut b = Board::from_fen(fen).unwrap();
            assert_eq!(walk(&mut b, depth), count, "{fen}");
        }
    }
}
