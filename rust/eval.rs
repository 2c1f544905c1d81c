//! Static evaluation (<https://www.chessprogramming.org/Evaluation>), from the side to move's
//! point of view, in centipawns.
//!
//! Terms: material and piece-square tables, each with a middlegame and an endgame value,
//! blended by the game phase (<https://www.chessprogramming.org/Tapered_Eval>); mobility;
//! pawn structure (passed, doubled, isolated, protected); king safety (pawn shield, open
//! files beside the king, weighted attacks on the squares around it); bishop pair; rooks on
//! open files. The whole evaluation is computed from scratch by walking the piece lists:
//! on a mailbox that is a few hundred cell reads, cheap next to move generation.
//!
//! All numbers are ours: the piece values are in the range published on the wiki's
//! "Point Value" page, the square tables are generated below from a few simple ideas
//! (centralise knights and kings in the endgame, advance pawns, keep the king home in the
//! middlegame) rather than typed in, and the weights were set by hand and checked by match.
//! A score is packed as `mg + (eg << 16)` in one i32 so each term is one addition.

use crate::board::Board;
use crate::types::*;

/// A packed (middlegame, endgame) score.
pub(crate) type Score = i32;

#[inline(always)]
pub(crate) const fn s(mg: i32, eg: i32) -> Score {
    (eg << 16) + mg
}
#[inline(always)]
pub(crate) const fn mg_of(x: Score) -> i32 {
    x as i16 as i32
}
#[inline(always)]
pub(crate) const fn eg_of(x: Score) -> i32 {
    ((x + 0x8000) >> 16) as i16 as i32
}

/// Piece values (middlegame, endgame) by kind PAWN..KING. The pawn is worth more in the
/// endgame, rooks gain as the board empties; knights lose a little (fewer outposts, long
/// distances).
pub(crate) const VALUE_MG: [i32; 7] = [0, 82, 325, 335, 470, 980, 0];
pub(crate) const VALUE_EG: [i32; 7] = [0, 105, 300, 320, 530, 960, 0];

/// Simple values for SEE, ordering and delta pruning (the classic 1/3/3/5/9 scale).
pub const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20000];

/// Phase weight of each kind (knight and bishop 1, rook 2, queen 4): 24 with all pieces on.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

/// Distance of a file or rank 0..8 from the board edge (0 on the edge, 3 in the centre).
const fn centre(x: i32) -> i32 {
    if x < 4 {
        x
    } else {
        7 - x
    }
}

/// The square-table value of `kind` on (file, rank) seen from White (rank 0 = own back rank).
const fn pst_value(kind: u8, f: i32, r: i32) -> Score {
    let cf = centre(f);
    let cr = centre(r);
    match kind {
        PAWN => {
            // Advance, and occupy the centre in the middlegame (d/e pawns on ranks 4-5);
            // a small penalty for leaving the wing pawns in front of a castled king.
            let adv_mg = [0, 0, 1, 4, 10, 18, 30, 0][r as usize];
            let adv_eg = [0, 0, 3, 8, 16, 30, 50, 0][r as usize];
            let central = if (f == 3 || f == 4) && (r == 3 || r == 4) { 12 } else if cf >= 2 && r >= 2 { 4 } else { 0 };
            s(adv_mg + central, adv_eg)
        }
        KNIGHT => {
            // Centralise: -36 in a corner to +24 in the centre; forward squares a little better.
            let c = cf + cr;
            let fwd = if r >= 3 && r <= 5 { 6 } else { 0 };
            s(10 * c - 36 + fwd, 8 * c - 28)
        }
        BISHOP => {
            let c = cf + cr;
            let diag = if f == r || f == 7 - r { 8 } else { 0 };
            let home = if r == 0 { -6 } else { 0 };
            s(4 * c - 10 + diag + home, 4 * c - 12)
        }
        ROOK => {
            let seventh = if r == 6 { 16 } else { 0 };
            let cent = if cf >= 2 { 6 } else { 0 };
            s(seventh + cent - 3, if r == 6 { 10 } else { 0 })
        }
        QUEEN => {
            let c = cf + cr;
            s(2 * c - 6, 5 * c - 15)
        }
        KING => {
            // Middlegame: stay on the back rank, preferably castled on a wing.
            let home = [22, 30, 8, -6, -6, 8, 32, 22][f as usize];
            let up = [0, -14, -34, -50, -60, -70, -70, -70][r as usize];
            // Endgame: centralise.
            let c = cf + cr;
            s(home + up, 12 * c - 36)
        }
        _ => 0,
    }
}

/// `PST[piece code][cell]`: material plus square value, from the piece owner's side, signed
/// for White (black entries are negated, so the sum over both lists is White's score).
const PST: [[Score; 120]; 16] = {
    let mut t = [[0; 120]; 16];
    let mut kind = 1;
    while kind <= 6 {
        let mut r = 0;
        while r < 8 {
            let mut f = 0;
            while f < 8 {
                let v = pst_value(kind as u8, f, r) + s(VALUE_MG[kind], VALUE_EG[kind]);
                t[kind][sq120(f as usize, r as usize)] = v;
                // Black's piece on the mirrored square.
                t[kind | 8][sq120(f as usize, (7 - r) as usize)] = -v;
                f += 1;
            }
            r += 1;
        }
        kind += 1;
    }
    t
};

// ---- weights (middlegame, endgame) ----
/// Mobility per square reached beyond a typical count (knight 4, bishop 6, rook 7, queen 13).
const MOB_KNIGHT: Score = s(4, 4);
const MOB_BISHOP: Score = s(5, 5);
const MOB_ROOK: Score = s(2, 4);
const MOB_QUEEN: Score = s(1, 2);
const MOB_BASE: [i32; 7] = [0, 0, 4, 6, 7, 13, 0];

const BISHOP_PAIR: Score = s(30, 50);
const ROOK_OPEN: Score = s(25, 10);
const ROOK_SEMI_OPEN: Score = s(12, 6);
const DOUBLED: Score = s(-10, -20);
const ISOLATED: Score = s(-10, -14);
const PROTECTED_PAWN: Score = s(6, 6);
/// Passed pawn by relative rank.
const PASSED_MG: [i32; 8] = [0, 4, 8, 14, 26, 46, 75, 0];
const PASSED_EG: [i32; 8] = [0, 10, 14, 24, 42, 70, 110, 0];
/// Shield pawns in front of a king on its first two ranks.
const SHIELD_NEAR: i32 = 12;
const SHIELD_FAR: i32 = 6;
const SHIELD_MISSING: i32 = -14;
const KING_OPEN_FILE: i32 = -14;
/// Attack units of each kind reaching the king zone.
const ATTACK_UNITS: [i32; 7] = [0, 0, 2, 2, 3, 5, 0];
/// Side-to-move bonus (the move is worth something).
const TEMPO: i32 = 10;

#[inline(always)]
const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

/// Per-colour pawn facts: for each file (with a spare file either side, index file+1), the
/// lowest and highest relative rank of a pawn, and the count.
struct PawnFiles {
    count: [[i32; 10]; 2],
    /// Most advanced pawn's relative rank per file (0 = none).
    front: [[i32; 10]; 2],
    /// Least advanced pawn's relative rank per file (8 = none).
    back: [[i32; 10]; 2],
}

/// Evaluation of `board` from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    let cells = &board.cells;
    let mut score: Score = 0;
    let mut phase = 0;
    let mut pf = PawnFiles { count: [[0; 10]; 2], front: [[0; 10]; 2], back: [[8; 10]; 2] };
    let mut bishops = [0; 2];
    let mut minor_major = [0; 2]; // non-pawn, non-king material count per side (value units)
    let mut pawns = [0; 2];
    let mut bishop_colour = [[0; 2]; 2];

    for c in [WHITE, BLACK] {
        for &sq in board.pieces(c) {
            let sq = sq as usize;
            let p = cells[sq];
            let k = kind_of(p);
            score += PST[p as usize][sq];
            phase += PHASE_WEIGHT[k as usize];
            if k == PAWN {
                let f = file_of(sq) + 1;
                let rr = rel_rank(sq, c);
                pf.count[c][f] += 1;
                if rr > pf.front[c][f] {
                    pf.front[c][f] = rr;
                }
                if rr < pf.back[c][f] {
                    pf.back[c][f] = rr;
                }
                pawns[c] += 1;
            } else if k != KING {
                minor_major[c] += SEE_VALUE[k as usize];
                if k == BISHOP {
                    bishops[c] += 1;
                    bishop_colour[c][(file_of(sq) + rank_of(sq)) & 1] += 1;
                }
            }
        }
    }

    // King zones: the king's cell and its neighbours, plus the three cells two ranks ahead.
    let mut zone = [0u128; 2];
    for c in [WHITE, BLACK] {
        let k = board.king_square(c);
        zone[c] |= bit(k);
        for d in KING_DIRS {
            let t = (k as isize + d) as usize;
            if cells[t] != OFFBOARD {
                zone[c] |= bit(t);
            }
        }
        let fwd = 2 * pawn_push(c);
        for df in [-1isize, 0, 1] {
            let t = (k as isize + fwd + df) as usize;
            if t < 120 && cells[t] != OFFBOARD {
                zone[c] |= bit(t);
            }
        }
    }

    let mut king_units = [0i32; 2]; // attack units against colour c's king
    let mut king_attackers = [0i32; 2];
    for c in [WHITE, BLACK] {
        let sign = if c == WHITE { 1 } else { -1 };
        let them = c ^ 1;
        let their_pawn = make_piece(PAWN, them);
        let (pl, pr) = if c == WHITE { (9, 11) } else { (-11, -9) }; // offsets where enemy pawns attack from
        let mut mob: Score = 0;
        let mut pawn_terms: Score = 0;
        for &sq in board.pieces(c) {
            let sq = sq as usize;
            let k = kind_of(cells[sq]);
            match k {
                PAWN => {
                    let f = file_of(sq) + 1;
                    let rr = rel_rank(sq, c);
                    if pf.count[c][f - 1] == 0 && pf.count[c][f + 1] == 0 {
                        pawn_terms += ISOLATED;
                    }
                    // Doubled: counted for each pawn behind another of ours on the file.
                    if pf.count[c][f] > 1 && rr < pf.front[c][f] {
                        pawn_terms += DOUBLED;
                    }
                    // Protected by a pawn of ours.
                    let our_pawn = make_piece(PAWN, c);
                    let back = -pawn_push(c);
                    if cells[(sq as isize + back - 1) as usize] == our_pawn
                        || cells[(sq as isize + back + 1) as usize] == our_pawn
                    {
                        pawn_terms += PROTECTED_PAWN;
                    }
                    // Passed: no enemy pawn ahead on this or the adjacent files. Enemy pawns
                    // are ahead when their relative rank seen from us is greater than ours,
                    // i.e. their own relative rank (7 - ours) is smaller than 7 - rr.
                    let mut passed = true;
                    for ff in f - 1..=f + 1 {
                        if pf.count[them][ff] > 0 && 7 - pf.back[them][ff] > rr {
                            passed = false;
                        }
                    }
                    if passed && pf.front[c][f] == rr {
                        let mut eg = PASSED_EG[rr as usize];
                        let mut mg = PASSED_MG[rr as usize];
                        let stop = (sq as isize + pawn_push(c)) as usize;
                        if cells[stop] != EMPTY {
                            mg /= 2;
                            eg = eg * 2 / 3;
                        }
                        // Kings near the square in front: ours helps, theirs blocks.
                        let dus = distance(board.king_square(c), stop);
                        let dthem = distance(board.king_square(them), stop);
                        eg += (dthem * 5 - dus * 2) * (rr - 1).max(0);
                        pawn_terms += s(mg, eg);
                    }
                }
                KNIGHT => {
                    let mut n = 0;
                    let mut hits_zone = false;
                    for d in KNIGHT_JUMPS {
                        let t = (sq as isize + d) as usize;
                        let q = cells[t];
                        if q != OFFBOARD
                            && !is_color(q, c)
                            && cells[(t as isize + pl) as usize] != their_pawn
                            && cells[(t as isize + pr) as usize] != their_pawn
                        {
                            n += 1;
                        }
                        if q != OFFBOARD && zone[them] & bit(t) != 0 {
                            hits_zone = true;
                        }
                    }
                    if hits_zone {
                        king_units[them] += ATTACK_UNITS[KNIGHT as usize];
                        king_attackers[them] += 1;
                    }
                    mob += MOB_KNIGHT * (n - MOB_BASE[KNIGHT as usize]);
                }
                BISHOP | ROOK | QUEEN => {
                    let dirs: &[isize] = match k {
                        BISHOP => &DIAG,
                        ROOK => &ORTHO,
                        _ => &KING_DIRS,
                    };
                    let mut n = 0;
                    let mut hits_zone = false;
                    for &d in dirs {
                        let mut t = (sq as isize + d) as usize;
                        loop {
                            let q = cells[t];
                            if q == OFFBOARD {
                                break;
                            }
                            if zone[them] & bit(t) != 0 {
                                hits_zone = true;
                            }
                            if !is_color(q, c)
                                && cells[(t as isize + pl) as usize] != their_pawn
                                && cells[(t as isize + pr) as usize] != their_pawn
                            {
                                n += 1;
                            }
                            if q != EMPTY {
                                break;
                            }
                            t = (t as isize + d) as usize;
                        }
                    }
                    if hits_zone {
                        king_units[them] += ATTACK_UNITS[k as usize];
                        king_attackers[them] += 1;
                    }
                    let w = match k {
                        BISHOP => MOB_BISHOP,
                        ROOK => MOB_ROOK,
                        _ => MOB_QUEEN,
                    };
                    mob += w * (n - MOB_BASE[k as usize]);
                    if k == ROOK {
                        let f = file_of(sq) + 1;
                        if pf.count[c][f] == 0 {
                            mob += if pf.count[them][f] == 0 { ROOK_OPEN } else { ROOK_SEMI_OPEN };
                        }
                    }
                }
                _ => {}
            }
        }
        score += sign * (mob + pawn_terms);

        // Pawn shield and open files beside our king (middlegame only).
        let ksq = board.king_square(c);
        let kf = file_of(ksq) + 1;
        let kr = rel_rank(ksq, c);
        let mut shelter = 0;
        if kr <= 1 {
            for ff in kf - 1..=kf + 1 {
                if ff == 0 || ff == 9 {
                    continue;
                }
                let b = pf.back[c][ff];
                if pf.count[c][ff] > 0 && b == kr + 1 {
                    shelter += SHIELD_NEAR;
                } else if pf.count[c][ff] > 0 && b == kr + 2 {
                    shelter += SHIELD_FAR;
                } else {
                    shelter += SHIELD_MISSING;
                }
                if pf.count[c][ff] == 0 {
                    shelter += KING_OPEN_FILE;
                }
            }
        }
        score += sign * s(shelter, 0);
    }

    // King attack: quadratic in the attack units once two pieces join in (one attacker alone
    // rarely mates), and only with the attacker's queen on the board it counts in full.
    for c in [WHITE, BLACK] {
        let sign = if c == WHITE { -1 } else { 1 };
        if king_attackers[c] >= 2 {
            let u = king_units[c];
            let mut pen = (u * u * 2).min(600);
            if minor_major[c ^ 1] < 900 {
                pen /= 2;
            }
            score += sign * s(pen, 0);
        }
    }

    for c in [WHITE, BLACK] {
        let sign = if c == WHITE { 1 } else { -1 };
        if bishops[c] >= 2 {
            score += sign * BISHOP_PAIR;
        }
    }

    let phase = phase.min(PHASE_MAX);
    let mg = mg_of(score);
    let mut eg = eg_of(score);

    // Endgame scaling: a side with no pawns needs a margin of more than a minor piece to
    // win; opposite-coloured bishops alone draw often.
    let strong = if eg > 0 { WHITE } else { BLACK };
    if pawns[strong] == 0 && minor_major[strong] - minor_major[strong ^ 1] <= 330 {
        eg /= if minor_major[strong] <= 330 { 16 } else { 4 };
    } else if bishops[WHITE] == 1
        && bishops[BLACK] == 1
        && minor_major[WHITE] == SEE_VALUE[BISHOP as usize]
        && minor_major[BLACK] == SEE_VALUE[BISHOP as usize]
        && (bishop_colour[WHITE][0] == 1) != (bishop_colour[BLACK][0] == 1)
    {
        eg /= 2;
    }

    let blended = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let v = if board.side_to_move() == WHITE { blended } else { -blended };
    v + TEMPO
}

/// Rank 0..8 of `sq` seen from colour `c` (0 = own back rank).
#[inline(always)]
fn rel_rank(sq: usize, c: Color) -> i32 {
    let r = rank_of(sq) as i32;
    if c == WHITE {
        r
    } else {
        7 - r
    }
}

/// King (Chebyshev) distance between two real cells.
#[inline(always)]
pub(crate) fn distance(a: usize, b: usize) -> i32 {
    let df = (file_of(a) as i32 - file_of(b) as i32).abs();
    let dr = (rank_of(a) as i32 - rank_of(b) as i32).abs();
    df.max(dr)
}

impl Board {
    /// The static evaluation from the side to move's point of view (centipawns).
    pub fn evaluate(&self) -> i32 {
        evaluate(self)
    }

    /// Material of the non-pawn, non-king pieces of colour `c` (SEE values), used by the
    /// null-move zugzwang guard.
    pub fn non_pawn_material(&self, c: Color) -> i32 {
        self.pieces(c)
            .iter()
            .map(|&sq| {
                let k = kind_of(self.cells[sq as usize]);
                if k == PAWN || k == KING {
                    0
                } else {
                    SEE_VALUE[k as usize]
                }
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for mg in [-700, -1, 0, 1, 650] {
            for eg in [-900, -1, 0, 1, 777] {
                let x = s(mg, eg);
                assert_eq!((mg_of(x), eg_of(x)), (mg, eg));
                assert_eq!((mg_of(x * 3), eg_of(x * 3)), (3 * mg, 3 * eg));
            }
        }
    }

    #[test]
    fn symmetric() {
        // A position and its colour-flipped mirror evaluate the same for the side to move.
        let pairs = [
            ("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
             "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4"),
            ("8/5k2/8/3P4/8/8/5K2/8 w - - 0 1", "8/5k2/8/8/3p4/8/5K2/8 b - - 0 1"),
        ];
        for (a, b) in pairs {
            let ea = Board::from_fen(a).unwrap().evaluate();
            let eb = Board::from_fen(b).unwrap().evaluate();
            assert_eq!(ea, eb, "{a} vs {b}");
        }
    }
}
