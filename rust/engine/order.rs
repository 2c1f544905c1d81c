//! Move ordering (<https://www.chessprogramming.org/Move_Ordering>): the table move first,
//! then winning and equal captures by SEE and MVV-LVA, the two killer moves of the ply, the
//! counter move, the quiet moves by history, and last the losing captures (SEE < 0) and
//! under-promotions. Moves are scored once per node and picked by selection, so a cut-off
//! after the first move or two costs no full sort.

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::engine::correction::CorrectionHistory;
use crate::engine::params::CAPTURE_HISTORY_DIV;
use crate::engine::see::see_ge;
use crate::engine::MAX_PLY;
use crate::eval::classic::SEE_VALUE;

/// History scores are kept in -HISTORY_MAX..HISTORY_MAX by the "gravity" update below.
pub const HISTORY_MAX: i32 = 16384;

/// Entries in a continuation-history row: one per (piece code 0..16, destination 0..64).
const CONT_ROW: usize = 16 * 64;
/// "No earlier move" (a null move, or before the root) in place of a continuation row.
pub const NO_CONT: usize = usize::MAX;

/// The continuation-history row of a move that put `piece` on cell `to`.
#[inline(always)]
pub fn cont_row(piece: u8, to: Square) -> usize {
    cont_col(piece, to) * CONT_ROW
}

#[inline(always)]
fn cont_col(piece: u8, to: Square) -> usize {
    (piece as usize & 15) * 64 + sq64(to)
}

pub const TT_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER_1: i32 = 1_000_002;
const KILLER_2: i32 = 1_000_001;
const COUNTER: i32 = 1_000_000;
const BAD_CAPTURE: i32 = -1_000_000;
const UNDER_PROMOTION: i32 = -2_000_000;

/// Heuristic tables that live across searches (cleared by `Engine.clear`).
///
/// Each measured by a match, the engine with vs without it (self-play, 60 games, 2+0.05,
/// balanced 8-ply openings; switches `history`, `killers`, `counter` of `Features`):
/// history +41 -4 =15, +250 +/- 91 Elo (without it the quiet moves come in generation
/// order and late-move pruning and reductions hit good moves too); killers +21 -16 =23,
/// +29 +/- 70 Elo; counter move +17 -21 =22, -23 +/- 71 Elo (no gain visible next to the
/// killers and history; kept, cheap, to re-measure at a longer control).
pub struct Heuristics {
    /// Butterfly history: [side][from64][to64].
    pub history: [[[i32; 64]; 64]; 2],
    pub killers: [[Move; 2]; MAX_PLY + 2],
    /// Counter moves: the quiet reply that refuted [piece code][to64] last time.
    pub counter: [[Move; 64]; 16],
    /// Continuation history (<https://www.chessprogramming.org/History_Heuristic>, the
    /// "counter-move history" of later engines): how well a quiet move, as (piece code,
    /// destination), did after a given move one or two plies earlier; flat, a row of
    /// CONT_ROW entries per earlier (piece code, destination), see `cont_row`.
    pub cont: Vec<i16>,
    /// Capture history (feature `caphist`): how well a capture did, by [moving piece code]
    /// [destination][victim kind] (a promotion without capture under victim 0).
    pub capture: [[[i16; 8]; 64]; 16],
    /// The static evaluation's learnt error per pawn structure (feature `corr`); kept here
    /// because it lives and is cleared with the histories, per thread.
    pub corr: CorrectionHistory,
    /// Switches for ablation matches (search `Features`): an unused heuristic scores 0.
    pub use_cont: bool,
    pub use_killers: bool,
    pub use_counter: bool,
    pub use_history: bool,
    pub use_capture: bool,
}

impl Heuristics {
    pub fn new() -> Box<Heuristics> {
        Box::new(Heuristics {
            history: [[[0; 64]; 64]; 2],
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            counter: [[Move::NULL; 64]; 16],
            cont: vec![0; CONT_ROW * CONT_ROW],
            capture: [[[0; 8]; 64]; 16],
            corr: CorrectionHistory::new(),
            use_cont: true,
            use_killers: true,
            use_counter: true,
            use_history: true,
            use_capture: false,
        })
    }

    pub fn clear(&mut self) {
        let (cont, killers, counter, history, capture) =
            (self.use_cont, self.use_killers, self.use_counter, self.use_history, self.use_capture);
        *self = *Heuristics::new();
        (self.use_cont, self.use_killers, self.use_counter, self.use_history, self.use_capture) =
            (cont, killers, counter, history, capture);
    }

    /// Start of a search: killers are position-specific, forget them; halve the history
    /// so the old game phase matters less.
    pub fn new_search(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 2;
                }
            }
        }
    }

    #[inline(always)]
    pub fn history_of(&self, side: Color, m: Move) -> i32 {
        self.history[side][sq64(m.from())][sq64(m.to())]
    }

    /// The butterfly entry of `m` moved toward `bonus` (see `gravity`).
    #[inline(always)]
    pub fn update_history(&mut self, side: Color, m: Move, bonus: i32) {
        let h = &mut self.history[side][sq64(m.from())][sq64(m.to())];
        *h = gravity(*h, bonus);
    }

    /// The quiet-move history score of `m` (moving `piece`): butterfly plus the continuation
    /// entries under the rows in `conts` (NO_CONT where there is none).
    #[inline(always)]
    pub fn quiet_score(&self, side: Color, m: Move, piece: u8, conts: [usize; 2]) -> i32 {
        let mut h = self.history_of(side, m);
        if self.use_cont {
            let col = cont_col(piece, m.to());
            for row in conts {
                if row != NO_CONT {
                    h += self.cont[row + col] as i32;
                }
            }
        }
        h
    }

    /// Rewards (bonus > 0) or punishes a quiet move in the butterfly and continuation tables.
    #[inline(always)]
    pub fn update_quiet(&mut self, side: Color, m: Move, piece: u8, conts: [usize; 2], bonus: i32) {
        self.update_history(side, m, bonus);
        if self.use_cont {
            let col = cont_col(piece, m.to());
            for row in conts {
                if row != NO_CONT {
                    let h = &mut self.cont[row + col];
                    *h = gravity(*h as i32, bonus) as i16;
                }
            }
        }
    }

    /// The capture-history score of the tactical move `m` on `board` (0 when unused).
    #[inline(always)]
    pub fn capture_score(&self, board: &Board, m: Move) -> i32 {
        if !self.use_capture {
            return 0;
        }
        let (piece, to, victim) = capture_key(board, m);
        self.capture[piece][to][victim] as i32
    }

    /// Rewards (bonus > 0) or punishes the tactical move `m` on `board` in the capture
    /// history, with the same gravity as the quiet histories.
    #[inline(always)]
    pub fn update_capture(&mut self, board: &Board, m: Move, bonus: i32) {
        let (piece, to, victim) = capture_key(board, m);
        let h = &mut self.capture[piece][to][victim];
        *h = gravity(*h as i32, bonus) as i16;
    }

    /// The counter move to the opponent's last move `prev` (made on `board`), or NULL.
    #[inline(always)]
    pub fn counter_move(&self, board: &Board, prev: Move) -> Move {
        if prev.is_null() || !self.use_counter {
            Move::NULL
        } else {
            self.counter[board.piece_at(prev.to()) as usize & 15][sq64(prev.to())]
        }
    }

    #[inline(always)]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        if self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
    }
}

/// A history entry moved toward `bonus` with "gravity": the step shrinks as the entry nears
/// the bound, so every entry stays within -HISTORY_MAX..HISTORY_MAX. The one update rule of
/// the butterfly, continuation and capture histories.
#[inline(always)]
fn gravity(entry: i32, bonus: i32) -> i32 {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    entry + b - entry * b.abs() / HISTORY_MAX
}

/// The capture-history indices of a tactical move (castling never is one): the moving
/// piece's code, the destination and the victim's kind (a pawn for en passant, 0 for a
/// promotion that takes nothing).
#[inline(always)]
fn capture_key(board: &Board, m: Move) -> (usize, usize, usize) {
    let victim = if m.is_en_passant() { PAWN } else { kind_of(board.piece_at(m.to())) };
    (board.piece_at(m.from()) as usize & 15, sq64(m.to()), victim as usize)
}

/// True for captures (en passant included).
#[inline(always)]
pub fn is_capture(board: &Board, m: Move) -> bool {
    m.is_en_passant() || (board.piece_at(m.to()) != EMPTY && !m.is_castle())
}

/// Captures and promotions: the moves quiescence searches and LMR does not reduce as quiets.
#[inline(always)]
pub fn is_tactical(board: &Board, m: Move) -> bool {
    m.is_promotion() || is_capture(board, m)
}

/// MVV-LVA: most valuable victim first, then least valuable attacker.
#[inline(always)]
pub fn mvv_lva(board: &Board, m: Move) -> i32 {
    let victim = if m.is_en_passant() { PAWN } else { kind_of(board.piece_at(m.to())) };
    let attacker = kind_of(board.piece_at(m.from()));
    SEE_VALUE[victim as usize] * 8 - attacker as i32
}

/// Scores `moves` for the main search into `scores` (`counter`: `Heuristics::counter_move`
/// of the node, read before its first move was searched).
pub fn score_moves(
    board: &Board,
    moves: &MoveList,
    scores: &mut [i32; 256],
    tt_move: Move,
    heur: &Heuristics,
    ply: usize,
    counter: Move,
) {
    for (i, &m) in moves.iter().enumerate() {
        scores[i] = if m == tt_move {
            TT_MOVE
        } else if m.is_promotion() && m.promo() != QUEEN {
            UNDER_PROMOTION + m.promo() as i32
        } else if is_tactical(board, m) {
            // A capture of a piece worth at least the capturer cannot lose material at once;
            // only the others need the exchange played out.
            let victim = if m.is_en_passant() { PAWN } else { kind_of(board.piece_at(m.to())) };
            let attacker = kind_of(board.piece_at(m.from()));
            let good = SEE_VALUE[victim as usize] >= SEE_VALUE[attacker as usize] || see_ge(board, m, 0);
            let promo = if m.is_promotion() { SEE_VALUE[QUEEN as usize] * 8 } else { 0 };
            let learnt = heur.capture_score(board, m) / CAPTURE_HISTORY_DIV;
            if good {
                GOOD_CAPTURE + mvv_lva(board, m) + promo + learnt
            } else {
                BAD_CAPTURE + mvv_lva(board, m) + learnt
            }
        } else if heur.use_killers && m == heur.killers[ply][0] {
            KILLER_1
        } else if heur.use_killers && m == heur.killers[ply][1] {
            KILLER_2
        } else if m == counter {
            COUNTER
        } else {
            QUIET_UNSCORED
        };
    }
}

/// The score a quiet move has until `score_quiets` gives it its history: below the
/// killers and the counter move, above the losing captures.
pub const QUIET_UNSCORED: i32 = 0;

/// Gives the quiet moves of `moves[from..]` still at QUIET_UNSCORED their history scores.
/// Called when the picking reaches them: most nodes cut off on the table move, a capture
/// or a killer before, and then the history tables (the continuation ones are megabytes,
/// read at random) are never read.
pub fn score_quiets(
    board: &Board,
    moves: &MoveList,
    scores: &mut [i32; 256],
    from: usize,
    heur: &Heuristics,
    conts: [usize; 2],
) {
    if !heur.use_history {
        return;
    }
    let side = board.side_to_move();
    for (i, &m) in moves.iter().enumerate().skip(from) {
        if scores[i] == QUIET_UNSCORED {
            scores[i] = heur.quiet_score(side, m, board.piece_at(m.from()), conts);
        }
    }
}

/// Scores captures/promotions for quiescence: MVV-LVA, queen promotions first.
pub fn score_captures(board: &Board, moves: &MoveList, scores: &mut [i32; 256]) {
    for (i, &m) in moves.iter().enumerate() {
        let promo = if m.is_promotion() { SEE_VALUE[m.promo() as usize] * 8 } else { 0 };
        scores[i] = if is_capture(board, m) { mvv_lva(board, m) } else { 0 } + promo;
    }
}

/// Moves the best-scored move of `moves[i..]` to index `i` and returns it with its score.
#[inline(always)]
pub fn pick(moves: &mut MoveList, scores: &mut [i32; 256], i: usize) -> (Move, i32) {
    let n = moves.len();
    // The first index of the highest score, in two passes that the compiler vectorises (a
    // running "best so far" compare chains every step on the previous one); the same move
    // as that loop picks, ties included.
    let rest = &scores[i..n];
    let top = rest.iter().copied().max().unwrap_or(i32::MIN);
    let best = i + rest.iter().position(|&s| s == top).unwrap_or(0);
    let ms = moves.as_mut_slice();
    ms.swap(i, best);
    scores.swap(i, best);
    (ms[i], scores[i])
}

/// True when a picked score marks a capture found losing by SEE.
#[inline(always)]
pub fn is_bad_capture_score(score: i32) -> bool {
    (BAD_CAPTURE - 100_000..BAD_CAPTURE + 100_000).contains(&score)
}

/// True when a picked score is a killer or counter move.
#[inline(always)]
pub fn is_refutation_score(score: i32) -> bool {
    (COUNTER..=KILLER_1).contains(&score)
}
