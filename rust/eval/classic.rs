//! Static evaluation (<https://www.chessprogramming.org/Evaluation>), from the side to move's
//! point of view, in centipawns.
//!
//! Terms: material and piece-square tables, each with a middlegame and an endgame value,
//! blended by the game phase (<https://www.chessprogramming.org/Tapered_Eval>); mobility;
//! pawn structure (passed, doubled, isolated, protected); king safety (pawn shield, open
//! files beside the king, attack units on the squares around it); bishop pair; rooks on
//! open files. The whole evaluation is computed from scratch by walking the piece lists:
//! on a mailbox that is a few hundred cell reads, cheap next to move generation.
//!
//! Every number it weighs a term with lives in `WEIGHTS` (rust/eval/weights.rs); the weights are
//! tuned by Texel's method (examples/texel.rs). For that the evaluation can be *traced*:
//! `trace_eval` runs the same code and records, for each weight, how many times it was
//! added for White minus for Black, so that `EvalTrace::evaluate` reproduces `evaluate`
//! for any weight table. The ordinary evaluation runs with a tracer that does nothing and
//! compiles to the same code as without one.

use crate::chess::board::Board;
use crate::chess::geometry::{diag_attacks, ortho_attacks, KNIGHT_ATTACKS, SQ64};
use crate::chess::types::*;
use crate::eval::weights::{eg_of, mg_of, Field, Score, Weights, FIELD_OFFSET, KING_UNITS_CAP, NUM_WEIGHTS, WEIGHTS};

/// Simple values for SEE, ordering and delta pruning (the classic 1/3/3/5/9 scale).
pub const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20000];

/// Phase weight of each kind (knight and bishop 1, rook 2, queen 4): 24 with all pieces on.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 1, 1, 2, 4, 0];
const PHASE_MAX: i32 = 24;

/// Side-to-move bonus (the move is worth something). Set by hand, not tuned: it is added
/// after the taper and matters to the search more than to the fit.
const TEMPO: i32 = 10;

/// Attack units of each kind reaching the king zone (their sum indexes `king_attack`).
const ATTACK_UNITS: [i32; 7] = [0, 0, 2, 2, 3, 5, 0];

/// `PST[piece code][cell]`: material plus square value, from the piece owner's side, signed
/// for White (black entries are negated, so the sum over both lists is White's score).
const PST: [[Score; 120]; 16] = {
    let w = &WEIGHTS;
    let mut t = [[0; 120]; 16];
    let mut kind = 1;
    while kind <= 6 {
        let material = if kind < 6 { w.material[kind - 1] } else { 0 };
        let mut i = 0;
        while i < 64 {
            let v = w.pst[kind - 1][i] + material;
            let (f, r) = (i % 8, i / 8);
            t[kind][sq120(f, r)] = v;
            // Black's piece on the mirrored square.
            t[kind | 8][sq120(f, 7 - r)] = -v;
            i += 1;
        }
        kind += 1;
    }
    t
};

/// Where `evaluate` reports which weights it added: `NoTrace` in play, `Recorder` for tuning.
trait Tracer {
    /// Weight `i` of `field` was added `n` times (negative for Black).
    fn add(&mut self, field: Field, i: usize, n: i32);
}

struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Field, _: usize, _: i32) {}
}

struct Recorder(Vec<i32>);

impl Tracer for Recorder {
    fn add(&mut self, field: Field, i: usize, n: i32) {
        self.0[FIELD_OFFSET[field as usize] + i] += n;
    }
}

/// What the endgame scaling looks at, kept so it can be redone with other weights.
#[derive(Clone, Copy, Debug)]
pub struct EgScale {
    pawns: [i32; 2],
    /// Non-pawn, non-king material per side in SEE values.
    minor_major: [i32; 2],
    /// One bishop each, on opposite colours, and nothing else but pawns.
    opposite_bishops: bool,
}

impl EgScale {
    /// The divisor of the endgame score `eg` (White's view): a side with no pawns needs a
    /// margin of more than a minor piece to win; opposite-coloured bishops alone draw often.
    #[inline(always)]
    pub fn divisor(&self, eg: i32) -> i32 {
        let strong = if eg > 0 { WHITE } else { BLACK };
        let mm = self.minor_major;
        if self.pawns[strong] == 0 && mm[strong] - mm[strong ^ 1] <= 330 {
            if mm[strong] <= 330 {
                16
            } else {
                4
            }
        } else if self.opposite_bishops {
            2
        } else {
            1
        }
    }
}

/// The last step of the evaluation: scale the endgame part, blend by phase, turn to the side
/// to move and add the tempo. Shared by `evaluate` and `EvalTrace::evaluate`.
#[inline(always)]
fn finish(mg: i32, eg: i32, phase: i32, stm: Color, scale: &EgScale) -> i32 {
    let eg = eg / scale.divisor(eg);
    let blended = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let v = if stm == WHITE { blended } else { -blended };
    v + TEMPO
}

/// The a-file as a set (bit i = square i, a1 = 0); shifted left by f it is file f.
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares attacked by pawns `p` of colour `c`.
#[inline(always)]
fn pawn_attacks(p: u64, c: Color) -> u64 {
    if c == WHITE {
        ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9)
    } else {
        ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7)
    }
}

/// The files (bit f) holding a member of `b`.
#[inline(always)]
fn file_set(mut b: u64) -> u64 {
    b |= b >> 32;
    b |= b >> 16;
    b |= b >> 8;
    b & 0xff
}

/// Which square table `square_sets` builds.
const ZONE: usize = 0;
const SPAN: usize = 1;
const FRONT: usize = 2;

/// Is square (of, or) in the `table` set of a colour-`c` piece on (f, r)?
/// ZONE: the king zone -- the square, its neighbours and the three squares two ranks ahead
/// (where an attack on the king's shelter lands). SPAN: the squares ahead on the own and
/// adjacent files (a pawn is passed when no enemy pawn stands there). FRONT: the squares
/// ahead on the own file.
const fn member(table: usize, c: usize, f: i32, r: i32, of: i32, or: i32) -> bool {
    let df = if of > f { of - f } else { f - of };
    let dr = if or > r { or - r } else { r - or };
    let ahead = if c == WHITE { or > r } else { or < r };
    match table {
        ZONE => df <= 1 && (dr <= 1 || (ahead && dr == 2)),
        SPAN => df <= 1 && ahead,
        _ => df == 0 && ahead,
    }
}

/// The `table` sets (see `member`) for each colour and square 0..64, built at compile time.
const fn square_sets(table: usize) -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 64 {
            let mut o = 0usize;
            while o < 64 {
                if member(table, c, (s % 8) as i32, (s / 8) as i32, (o % 8) as i32, (o / 8) as i32) {
                    t[c][s] |= 1 << o;
                }
                o += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

static KING_ZONE: [[u64; 64]; 2] = square_sets(ZONE);
static PASSED_SPAN: [[u64; 64]; 2] = square_sets(SPAN);
static FRONT_FILE: [[u64; 64]; 2] = square_sets(FRONT);

/// Per-colour pawn facts: for each file (with a spare file either side, index file+1), the
/// lowest and highest relative rank of a pawn, and the count.
struct PawnFiles {
    count: [[i32; 10]; 2],
    /// Least advanced pawn's relative rank per file (8 = none).
    back: [[i32; 10]; 2],
}

/// Evaluation of `board` from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    eval_with(board, &mut NoTrace).0
}

/// The evaluation, reporting each weight it adds to `t`; also returns the phase and the
/// endgame-scaling facts.
#[inline(always)]
fn eval_with<T: Tracer>(board: &Board, tr: &mut T) -> (i32, i32, EgScale) {
    let w = &WEIGHTS;
    let cells = &board.cells;
    let mut score: Score = 0;
    let mut phase = 0;
    let mut pf = PawnFiles { count: [[0; 10]; 2], back: [[8; 10]; 2] };
    let mut bishops = [0; 2];
    let mut minor_major = [0; 2]; // non-pawn, non-king material count per side (value units)
    let mut pawns = [0; 2];
    let mut bishop_colour = [[0; 2]; 2];

    for c in [WHITE, BLACK] {
        let sign = if c == WHITE { 1 } else { -1 };
        for &sq in board.pieces(c) {
            let sq = sq as usize;
            let p = cells[sq];
            let k = kind_of(p);
            score += PST[p as usize][sq];
            if k != KING {
                tr.add(Field::material, k as usize - 1, sign);
            }
            tr.add(Field::pst, (k as usize - 1) * 64 + rel_sq64(sq, c), sign);
            phase += PHASE_WEIGHT[k as usize];
            if k == PAWN {
                let f = file_of(sq) + 1;
                let rr = rel_rank(sq, c);
                pf.count[c][f] += 1;
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

    let occ = board.occ[WHITE] | board.occ[BLACK];
    let pawn_bb = [board.bb(PAWN, WHITE), board.bb(PAWN, BLACK)];
    let pawn_att = [pawn_attacks(pawn_bb[WHITE], WHITE), pawn_attacks(pawn_bb[BLACK], BLACK)];
    let king64 = [SQ64[board.king_square(WHITE)] as usize, SQ64[board.king_square(BLACK)] as usize];
    let zone = [KING_ZONE[WHITE][king64[WHITE]], KING_ZONE[BLACK][king64[BLACK]]];

    let mut king_units = [0i32; 2]; // attack units against colour c's king
    let mut king_attackers = [0i32; 2];
    for c in [WHITE, BLACK] {
        let sign = if c == WHITE { 1 } else { -1 };
        let them = c ^ 1;
        // Squares a piece of ours counts as mobility: not ours, not attacked by their pawns.
        let mob_area = !board.occ[c] & !pawn_att[them];
        let mut mob: Score = 0;
        let mut pawn_terms: Score = 0;

        // Pawn structure: whole sets for isolated, doubled and protected pawns, then pawn by
        // pawn for the passed ones.
        let ours = pawn_bb[c];
        let files = file_set(ours);
        let isolated_files = files & !((files << 1) | (files >> 1));
        // A byte of files times the a-file repeats it on every rank: the squares of those files.
        let n_isolated = (ours & (isolated_files * FILE_A)).count_ones() as i32;
        pawn_terms += w.isolated * n_isolated;
        tr.add(Field::isolated, 0, sign * n_isolated);
        // Doubled: counted for each pawn behind another of ours on the file.
        let n_doubled = pawns[c] - files.count_ones() as i32;
        pawn_terms += w.doubled * n_doubled;
        tr.add(Field::doubled, 0, sign * n_doubled);
        // Protected by a pawn of ours.
        let n_protected = (ours & pawn_att[c]).count_ones() as i32;
        pawn_terms += w.protected_pawn * n_protected;
        tr.add(Field::protected_pawn, 0, sign * n_protected);
        // Passed: no enemy pawn ahead on this or the adjacent files; only the front pawn of
        // ours on a file counts.
        let mut candidates = ours;
        while candidates != 0 {
            let s = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if PASSED_SPAN[c][s] & pawn_bb[them] != 0 || FRONT_FILE[c][s] & ours != 0 {
                continue;
            }
            let rr = if c == WHITE { s / 8 } else { 7 - s / 8 };
            let stop = if c == WHITE { s + 8 } else { s - 8 };
            if occ >> stop & 1 != 0 {
                pawn_terms += w.passed_blocked[rr];
                tr.add(Field::passed_blocked, rr, sign);
            } else {
                pawn_terms += w.passed[rr];
                tr.add(Field::passed, rr, sign);
            }
            // Kings near the square in front: ours helps, theirs blocks.
            let m = (rr as i32 - 1).max(0);
            let dus = distance64(king64[c], stop) * m;
            let dthem = distance64(king64[them], stop) * m;
            pawn_terms += w.passed_king_them * dthem + w.passed_king_us * dus;
            tr.add(Field::passed_king_them, 0, sign * dthem);
            tr.add(Field::passed_king_us, 0, sign * dus);
        }

        // Mobility (attacked squares in the mobility area) and attacks on the king zone.
        for kind in [KNIGHT, BISHOP, ROOK, QUEEN] {
            let mut set = board.bb(kind, c);
            while set != 0 {
                let s = set.trailing_zeros() as usize;
                set &= set - 1;
                let att = match kind {
                    KNIGHT => KNIGHT_ATTACKS[s],
                    BISHOP => diag_attacks(s, occ),
                    ROOK => ortho_attacks(s, occ),
                    _ => diag_attacks(s, occ) | ortho_attacks(s, occ),
                };
                if att & zone[them] != 0 {
                    king_units[them] += ATTACK_UNITS[kind as usize];
                    king_attackers[them] += 1;
                }
                let n = (att & mob_area).count_ones() as usize;
                match kind {
                    KNIGHT => {
                        mob += w.mobility_knight[n];
                        tr.add(Field::mobility_knight, n, sign);
                    }
                    BISHOP => {
                        mob += w.mobility_bishop[n];
                        tr.add(Field::mobility_bishop, n, sign);
                    }
                    ROOK => {
                        mob += w.mobility_rook[n];
                        tr.add(Field::mobility_rook, n, sign);
                        let file = FILE_A << (s % 8);
                        if ours & file == 0 {
                            if pawn_bb[them] & file == 0 {
                                mob += w.rook_open;
                                tr.add(Field::rook_open, 0, sign);
                            } else {
                                mob += w.rook_semi_open;
                                tr.add(Field::rook_semi_open, 0, sign);
                            }
                        }
                    }
                    _ => {
                        mob += w.mobility_queen[n];
                        tr.add(Field::mobility_queen, n, sign);
                    }
                }
            }
        }
        score += sign * (mob + pawn_terms);

        // Pawn shield and open files beside our king.
        let ksq = board.king_square(c);
        let kf = file_of(ksq) + 1;
        let kr = rel_rank(ksq, c);
        let mut shelter: Score = 0;
        if kr <= 1 {
            for ff in kf - 1..=kf + 1 {
                if ff == 0 || ff == 9 {
                    continue;
                }
                let b = pf.back[c][ff];
                if pf.count[c][ff] > 0 && b == kr + 1 {
                    shelter += w.shield_near;
                    tr.add(Field::shield_near, 0, sign);
                } else if pf.count[c][ff] > 0 && b == kr + 2 {
                    shelter += w.shield_far;
                    tr.add(Field::shield_far, 0, sign);
                } else {
                    shelter += w.shield_missing;
                    tr.add(Field::shield_missing, 0, sign);
                }
                if pf.count[c][ff] == 0 {
                    shelter += w.king_open_file;
                    tr.add(Field::king_open_file, 0, sign);
                }
            }
        }
        score += sign * shelter;
    }

    // King attack: counted once two pieces join in (one attacker alone rarely mates), by the
    // attack units, with a table for attackers with at least a queen's worth of material and
    // one (smaller) for less.
    for c in [WHITE, BLACK] {
        let attacker_sign = if c == WHITE { -1 } else { 1 };
        if king_attackers[c] >= 2 {
            let u = (king_units[c] as usize).min(KING_UNITS_CAP);
            if minor_major[c ^ 1] < 900 {
                score += attacker_sign * w.king_attack_weak[u];
                tr.add(Field::king_attack_weak, u, attacker_sign);
            } else {
                score += attacker_sign * w.king_attack[u];
                tr.add(Field::king_attack, u, attacker_sign);
            }
        }
    }

    for c in [WHITE, BLACK] {
        let sign = if c == WHITE { 1 } else { -1 };
        if bishops[c] >= 2 {
            score += sign * w.bishop_pair;
            tr.add(Field::bishop_pair, 0, sign);
        }
    }

    let phase = phase.min(PHASE_MAX);
    let scale = EgScale {
        pawns,
        minor_major,
        opposite_bishops: bishops[WHITE] == 1
            && bishops[BLACK] == 1
            && minor_major[WHITE] == SEE_VALUE[BISHOP as usize]
            && minor_major[BLACK] == SEE_VALUE[BISHOP as usize]
            && (bishop_colour[WHITE][0] == 1) != (bishop_colour[BLACK][0] == 1),
    };
    let v = finish(mg_of(score), eg_of(score), phase, board.side_to_move(), &scale);
    (v, phase, scale)
}

/// How a board's evaluation depends on the weights: `evaluate(board)` equals
/// `trace.evaluate(&WEIGHTS)`, and `trace.evaluate(&w)` is what `evaluate` would return
/// with the table `w` in place of `WEIGHTS`.
#[derive(Clone, Debug)]
pub struct EvalTrace {
    /// Per weight in the flat layout (`WEIGHT_FIELDS`): how many times White added it minus
    /// how many times Black did. Its middlegame and endgame parts are both scaled by it.
    pub coefficients: Vec<i32>,
    /// Game phase 0..=24 (24 = all pieces on): the middlegame part weighs phase / 24.
    pub phase: i32,
    pub white_to_move: bool,
    /// The endgame scaling, which depends on the sign of the endgame score.
    pub scale: EgScale,
}

impl EvalTrace {
    /// The evaluation (side to move's view) with weight table `w`.
    pub fn evaluate(&self, w: &Weights) -> i32 {
        let (mut mg, mut eg) = (0, 0);
        for (&c, (m, e)) in self.coefficients.iter().zip(w.to_pairs()) {
            mg += c * m;
            eg += c * e;
        }
        let stm = if self.white_to_move { WHITE } else { BLACK };
        finish(mg, eg, self.phase, stm, &self.scale)
    }

    /// The tempo bonus in White's view (added after the taper, not tuned).
    pub fn tempo_white(&self) -> i32 {
        if self.white_to_move {
            TEMPO
        } else {
            -TEMPO
        }
    }
}

/// Traces the evaluation of `board` (see `EvalTrace`).
pub fn trace_eval(board: &Board) -> EvalTrace {
    let mut rec = Recorder(vec![0; NUM_WEIGHTS]);
    let (_, phase, scale) = eval_with(board, &mut rec);
    EvalTrace { coefficients: rec.0, phase, white_to_move: board.side_to_move() == WHITE, scale }
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

/// The 0..64 square index of `sq` seen from colour `c` (a1 = 0 for White, a8 = 0 for Black).
#[inline(always)]
fn rel_sq64(sq: usize, c: Color) -> usize {
    rel_rank(sq, c) as usize * 8 + file_of(sq)
}

/// King (Chebyshev) distance between two squares 0..64.
#[inline(always)]
fn distance64(a: usize, b: usize) -> i32 {
    let df = ((a % 8) as i32 - (b % 8) as i32).abs();
    let dr = ((a / 8) as i32 - (b / 8) as i32).abs();
    df.max(dr)
}

/// Material of the non-pawn, non-king pieces of colour `c` (SEE values), used by the
/// null-move zugzwang guard.
pub fn non_pawn_material(board: &Board, c: Color) -> i32 {
    board
        .pieces(c)
        .iter()
        .map(|&sq| {
            let k = kind_of(board.cells[sq as usize]);
            if k == PAWN || k == KING {
                0
            } else {
                SEE_VALUE[k as usize]
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric() {
        // A position and its colour-flipped mirror evaluate the same for the side to move.
        let pairs = [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
            ),
            ("8/5k2/8/3P4/8/8/5K2/8 w - - 0 1", "8/5k2/8/8/3p4/8/5K2/8 b - - 0 1"),
        ];
        for (a, b) in pairs {
            let ea = evaluate(&Board::from_fen(a).unwrap());
            let eb = evaluate(&Board::from_fen(b).unwrap());
            assert_eq!(ea, eb, "{a} vs {b}");
        }
    }
}
