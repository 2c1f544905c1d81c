//! Square queries the Python API answers the way python-chess does: the squares a piece
//! attacks, the attackers of a square, whether a square is pinned to its king, and the
//! pseudo-legal moves (legal ones plus those that leave the own king attacked).
//!
//! None of this is on the engine's hot path (the move generator finds checks and pins its own
//! way, once per node), so most of it is written plainly: walk the mailbox from the square
//! (the attackers of a square use the piece sets, as the attack tests do). Square sets
//! are 64-bit masks in python-chess numbering (a1 = bit 0, h8 = bit 63).

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::chess::zobrist::EP_KEY;

/// The 64-bit mask of a real mailbox cell.
#[inline]
fn bit64(sq: Square) -> u64 {
    1u64 << sq64(sq)
}

impl Board {
    /// The squares the piece on `sq` attacks (python-chess's `attacks`): a pawn's two capture
    /// squares, a knight's or king's steps, a slider's rays up to and including the first
    /// occupied square. Empty when `sq` is empty.
    pub fn attacks_from(&self, sq: Square) -> u64 {
        let p = self.cells[sq];
        if p == EMPTY || p == OFFBOARD {
            return 0;
        }
        let mut mask = 0;
        let mut step = |t: usize| {
            if self.cells[t] != OFFBOARD {
                mask |= bit64(t);
            }
        };
        match kind_of(p) {
            PAWN => {
                let fwd = pawn_push(color_of(p));
                step((sq as isize + fwd + E) as usize);
                step((sq as isize + fwd + W) as usize);
            }
            KNIGHT => KNIGHT_JUMPS.iter().for_each(|&d| step((sq as isize + d) as usize)),
            KING => KING_DIRS.iter().for_each(|&d| step((sq as isize + d) as usize)),
            kind => {
                let dirs: &[isize] = match kind {
                    BISHOP => &DIAG,
                    ROOK => &ORTHO,
                    _ => &KING_DIRS,
                };
                for &d in dirs {
                    let mut t = (sq as isize + d) as usize;
                    while self.cells[t] != OFFBOARD {
                        mask |= bit64(t);
                        if self.cells[t] != EMPTY {
                            break;
                        }
                        t = (t as isize + d) as usize;
                    }
                }
            }
        }
        mask
    }

    /// The pieces of colour `by` that attack `sq` (python-chess's `attackers`), as a mask.
    /// From the square outwards with the piece sets (`status()` asks it twice, python-chess's
    /// `checkers()` and `attackers()` once): a pawn's, knight's or king's attack mask meets
    /// the pieces of that kind, a slider's rays from `sq` (blocked at the first occupied
    /// square) meet the rooks, bishops and queens.
    pub fn attackers_of(&self, by: Color, sq: Square) -> u64 {
        self.attackers_blocked_by(by, crate::chess::geometry::SQ64[sq] as usize, self.occ[0] | self.occ[1])
    }

    /// `attackers_of` square `s` (0..64) with the sliders blocked by the squares of `occ`
    /// instead of the board's (python-chess's `attackers_mask(color, square, occupied)`).
    /// It reads only the piece sets, so it answers for any placement, a king or not.
    pub fn attackers_blocked_by(&self, by: Color, s: usize, occ: u64) -> u64 {
        use crate::chess::geometry::*;
        let mut found = (PAWN_ATTACKS[by ^ 1][s] & self.bb(PAWN, by))
            | (KNIGHT_ATTACKS[s] & self.bb(KNIGHT, by))
            | (KING_ATTACKS[s] & self.bb(KING, by));
        let queens = self.bb(QUEEN, by);
        let ortho = self.bb(ROOK, by) | queens;
        if ORTHO_RAYS[s] & ortho != 0 {
            found |= ortho_attacks(s, occ) & ortho;
        }
        let diag = self.bb(BISHOP, by) | queens;
        if DIAG_RAYS[s] & diag != 0 {
            found |= diag_attacks(s, occ) & diag;
        }
        found
    }

    /// When `sq` lies between the king of colour `c` and an enemy slider that moves along
    /// that line, with nothing else in between, the whole line through them (edge to edge);
    /// else `None`. As python-chess's `pin_mask`, the square itself may be empty.
    pub fn pin_ray(&self, c: Color, sq: Square) -> Option<u64> {
        self.pin_ray_at(self.king_square(c), c, sq)
    }

    /// `pin_ray` for a king of colour `c` standing on `king` (any cell: the board need not
    /// be playable).
    pub fn pin_ray_at(&self, king: Square, c: Color, sq: Square) -> Option<u64> {
        let (df, dr) = (file_of(sq) as isize - file_of(king) as isize, rank_of(sq) as isize - rank_of(king) as isize);
        if (df, dr) == (0, 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return None;
        }
        let d = df.signum() + 10 * dr.signum();
        let diagonal = df != 0 && dr != 0;
        let mut t = (king as isize + d) as usize;
        while t != sq {
            if self.cells[t] != EMPTY {
                return None;
            }
            t = (t as isize + d) as usize;
        }
        t = (t as isize + d) as usize;
        while self.cells[t] == EMPTY {
            t = (t as isize + d) as usize;
        }
        let p = self.cells[t];
        let them = c ^ 1;
        let slider = if diagonal { make_piece(BISHOP, them) } else { make_piece(ROOK, them) };
        if p != slider && p != make_piece(QUEEN, them) {
            return None;
        }
        // The whole line through king and pinner, edge to edge, as python-chess's `pin` gives it.
        let mut line = bit64(king);
        for dir in [d, -d] {
            let mut t = (king as isize + dir) as usize;
            while self.cells[t] != OFFBOARD {
                line |= bit64(t);
                t = (t as isize + dir) as usize;
            }
        }
        Some(line)
    }

    /// The pseudo-legal moves: every move the pieces of the side to move can make by their
    /// movement rules, whether or not it leaves the own king attacked, plus the legal castling
    /// moves (python-chess generates castling fully checked in its pseudo-legal list too).
    /// Legal moves appear with the same encoding as `generate_legal` gives them.
    pub fn generate_pseudo_legal(&self, ml: &mut MoveList) {
        let us = self.side;
        let them = us ^ 1;
        let enemy = |t: usize| {
            let p = self.cells[t];
            p != EMPTY && p != OFFBOARD && color_of(p) == them
        };
        for &from in self.pieces(us) {
            let from = from as Square;
            let p = self.cells[from];
            match kind_of(p) {
                PAWN => {
                    let fwd = pawn_push(us);
                    let last = if us == WHITE { 7 } else { 0 };
                    let start = if us == WHITE { 1 } else { 6 };
                    let add = |ml: &mut MoveList, to: Square, flags: u32| {
                        if rank_of(to) == last {
                            for kind in [QUEEN, KNIGHT, ROOK, BISHOP] {
                                ml.push(Move::promotion(from, to, kind));
                            }
                        } else {
                            ml.push(Move::with_flags(from, to, flags));
                        }
                    };
                    let one = (from as isize + fwd) as usize;
                    if self.cells[one] == EMPTY {
                        add(ml, one, 0);
                        let two = (one as isize + fwd) as usize;
                        if rank_of(from) == start && self.cells[two] == EMPTY {
                            ml.push(Move::with_flags(from, two, Move::DOUBLE_PUSH));
                        }
                    }
                    for side in [E, W] {
                        let to = (from as isize + fwd + side) as usize;
                        if enemy(to) {
                            add(ml, to, 0);
                        } else if self.ep != 0 && to == self.ep as usize {
                            ml.push(Move::with_flags(from, to, Move::EN_PASSANT));
                        }
                    }
                }
                KNIGHT | KING => {
                    let dirs: &[isize] = if kind_of(p) == KNIGHT { &KNIGHT_JUMPS } else { &KING_DIRS };
                    for &d in dirs {
                        let to = (from as isize + d) as usize;
                        if self.cells[to] == EMPTY || enemy(to) {
                            ml.push(Move::new(from, to));
                        }
                    }
                }
                kind => {
                    let dirs: &[isize] = match kind {
                        BISHOP => &DIAG,
                        ROOK => &ORTHO,
                        _ => &KING_DIRS,
                    };
                    for &d in dirs {
                        let mut to = (from as isize + d) as usize;
                        while self.cells[to] == EMPTY {
                            ml.push(Move::new(from, to));
                            to = (to as isize + d) as usize;
                        }
                        if enemy(to) {
                            ml.push(Move::new(from, to));
                        }
                    }
                }
            }
        }
        let mut legal = MoveList::new();
        self.generate_legal(&mut legal);
        for &m in legal.iter().filter(|m| m.is_castle()) {
            ml.push(m);
        }
    }

    /// The rook cell a castling move of the side to move castles with.
    pub fn castling_rook(&self, m: Move) -> Square {
        let kingside = file_of(m.to()) == 6;
        self.castle_rook[2 * self.side + if kingside { 0 } else { 1 }] as Square
    }

    /// The rook squares holding castling rights, as python-chess's `castling_rights` mask.
    pub fn castling_rook_mask(&self) -> u64 {
        self.rook_mask_of(self.castling)
    }

    /// The rook squares that castling rights `rights` (KQkq bits, as an undo record keeps
    /// them) refer to on this board: the rooks a right names do not change during a game.
    pub fn rook_mask_of(&self, rights: u8) -> u64 {
        (0..4).filter(|&b| rights & (1 << b) != 0).fold(0, |m, b| m | bit64(self.castle_rook[b] as Square))
    }

    /// The Polyglot key as python-chess computes it for an en-passant square given from
    /// outside (a FEN's field the board did not keep because no pawn can have just crossed
    /// it): the file is hashed when a pawn of the side to move stands beside the cell one
    /// step back from `ep` towards the mover, whatever stands elsewhere. python-chess tests
    /// `if board.ep_square:`, so a1 (square 0) is never hashed; this keeps that too.
    pub fn polyglot_key_with_ep(&self, ep: Option<Square>) -> u64 {
        let mut key = self.key;
        if self.ep != 0 {
            key ^= EP_KEY[file_of(self.ep as Square)];
        }
        let Some(ep) = ep.filter(|&sq| sq != sq120(0, 0)) else {
            return key;
        };
        // One rank back towards the side to move: the cell the double-pushed pawn stands on.
        let pawn_sq = if self.side == WHITE { ep - 10 } else { ep + 10 };
        if is_real(pawn_sq) && self.ep_capturer_beside(pawn_sq, self.side) {
            key ^= EP_KEY[file_of(ep)];
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pseudo_legal_contains_legal_and_king_steps_into_check() {
        // White king e1, black rook d8: Kd1/Kd2 are pseudo-legal but not legal.
        let b = Board::from_fen("3r3k/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mut legal = MoveList::new();
        b.generate_legal(&mut legal);
        let mut pseudo = MoveList::new();
        b.generate_pseudo_legal(&mut pseudo);
        assert!(legal.iter().all(|&m| pseudo.contains(m)));
        assert_eq!(pseudo.len(), 5);
        assert_eq!(legal.len(), 3);
    }

    #[test]
    fn pin_ray_needs_a_slider_behind() {
        let b = Board::from_fen("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
        assert!(b.pin_ray(WHITE, sq120(4, 1)).is_some());
        assert!(b.pin_ray(WHITE, sq120(3, 1)).is_none());
        let b = Board::from_fen("4b2k/8/8/8/8/8/4N3/4K3 w - - 0 1").unwrap();
        assert!(b.pin_ray(WHITE, sq120(4, 1)).is_none());
    }
}
