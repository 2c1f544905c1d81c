//! The tree search of one thread: iterative deepening over a negamax alpha-beta with
//! principal variation search (<https://www.chessprogramming.org/Principal_Variation_Search>),
//! aspiration windows, a transposition table, quiescence, and the usual selectivity (null
//! move, late move reductions, reverse futility, futility and late move pruning, SEE
//! pruning, check extension). The engine that owns the table and runs this search on its
//! threads (Lazy SMP) is `engine.rs`; the limits and answers are `types.rs`.
//!
//! Scores are centipawns from the side to move's point of view; `MATE - n` means the side to
//! move mates in n plies, `-(MATE - n)` that it is mated in n plies; 0 is a draw.
//!
//! The tree search and quiescence are written as numbered steps; their numbers live in
//! `params.rs`, each with the match that measured it (W/D/L, Elo with its 95% interval, games,
//! time control), gathered in `docs/search.md`; `Features` (the UCI options `SearchOff` /
//! `SearchOn`) switch the steps off for such matches. The staged move picker is `picker.rs`,
//! the time decisions `timeman.rs`. The whole search as of these measurements against Phalanx XXV (xboard,
//! -b- -l-): 40 games at 2+0.05, +25 -11 =4, +127 +/- 114 Elo; 200 games at 10+0.1
//! (concurrency 2, balanced_8ply openings): +123 -52 =25 (67.7%), +129 +/- 48 Elo, with no
//! illegal moves, time forfeits or crashes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::engine::order::*;
use crate::engine::params::*;
use crate::engine::picker::{MovePicker, Picked};
use crate::engine::see::see_ge;
use crate::engine::tt::*;
use crate::engine::types::*;
use crate::engine::MAX_PLY;
use crate::eval::classic::{evaluate, non_pawn_material, SEE_VALUE};
use crate::eval::nnue::{Accumulator, AccumulatorStack, Network};

#[inline(always)]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn lmr_table() -> Box<[[u8; 64]; 64]> {
    // Reductions grow with the logarithms of depth and move number (the shape most engines
    // use); offset and divisor in params.rs.
    let mut t = Box::new([[0u8; 64]; 64]);
    for d in 1..64 {
        for m in 1..64 {
            t[d][m] = (LMR_OFFSET + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as u8;
        }
    }
    t
}

pub(crate) struct Search<'a> {
    board: Board,
    tt: &'a TranspositionTable,
    heur: &'a mut Heuristics,
    stop: &'a AtomicBool,
    /// Nodes of the helper threads (Lazy SMP), added in steps of CHECK_EVERY; the main
    /// thread reports its own count plus this.
    helper_nodes: &'a AtomicU64,
    /// The main thread reports and decides; helpers (false) only fill the table.
    pub(crate) main: bool,
    /// First iteration's depth (helpers vary it).
    pub(crate) start_depth: u32,
    start: Instant,
    /// The target: no iteration starts once it has passed (None: none).
    soft: Option<Duration>,
    /// The cap, from the search's start (None: none).
    hard: Option<Duration>,
    /// The cap the caller may move while the search runs (`Limits::deadline`), in ms.
    deadline: Option<Arc<AtomicU64>>,
    /// Iterations completed.
    completed: u32,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    root_len: usize,
    root_depth: i32,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 2],
    moves_played: [Move; MAX_PLY + 2],
    /// The continuation-history row of the move made at each ply (NO_CONT for a null move).
    cont_rows: [usize; MAX_PLY + 2],
    /// The move a singular-extension search leaves out at each ply (NULL: none).
    excluded: [Move; MAX_PLY + 2],
    /// Double singular extensions on the line down to each ply (bounded by SE_DOUBLE_MAX).
    double_extensions: [u8; MAX_PLY + 2],
    /// Move-ordering scores, one row per ply (kept here rather than on each node's stack
    /// frame, where zeroing 1 KB per node cost about 3 % of the search).
    scores: Box<[[i32; 256]; MAX_PLY + 1]>,
    lmr: Box<[[u8; 64]; 64]>,
    f: Features,
    /// The net and this thread's accumulators along the line being searched (pushed and
    /// popped with every make and unmake), or `None` for the hand-written evaluation.
    nnue: Option<(&'a Network, AccumulatorStack)>,
    /// Syzygy tables to probe, and this thread's count of probes that answered.
    pub(crate) syzygy: Option<Syzygy>,
    tbhits: u64,
    /// The root's rank in the tablebases (`tb_filter_root`), when it is in them: what the
    /// shown scores say (a won, drawn or lost ending), where the search has found no mate.
    tb_root_rank: Option<i32>,
}

/// Whether a stored score with bound `bound` settles a node searched with (alpha, beta):
/// exact, a lower bound at or above beta, or an upper bound at or below alpha. The one test
/// of the tree search, quiescence and the tablebase probe.
#[inline(always)]
fn bound_cuts(bound: u8, score: i32, alpha: i32, beta: i32) -> bool {
    bound == BOUND_EXACT || (bound == BOUND_LOWER && score >= beta) || (bound == BOUND_UPPER && score <= alpha)
}

/// The bound of a node's result `best`, searched with (`orig_alpha`, beta) and left with
/// `alpha`: at or above beta a lower bound, above the original alpha exact, else an upper.
#[inline(always)]
fn bound_of(best: i32, alpha: i32, orig_alpha: i32, beta: i32) -> u8 {
    if best >= beta {
        BOUND_LOWER
    } else if alpha > orig_alpha {
        BOUND_EXACT
    } else {
        BOUND_UPPER
    }
}

/// A net's output kept inside the range of ordinary scores: never a mate score, whatever the
/// net says.
#[inline(always)]
pub(crate) fn clamp_eval(v: i32) -> i32 {
    v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// How often (in nodes) the clock and the stop flag are read: 1024 nodes are about a
/// millisecond at this engine's speed, well inside the few-ms stop promise.
const CHECK_EVERY: u64 = 1024;

// Iterative deepening and the root (`search/root.rs`), quiescence (`search/quiesce.rs`):
// further methods of `Search`, in rooms of their own.
mod quiesce;
mod root;

impl<'a> Search<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        board: &Board,
        tt: &'a TranspositionTable,
        heur: &'a mut Heuristics,
        stop: &'a AtomicBool,
        helper_nodes: &'a AtomicU64,
        start: Instant,
        limits: &Limits,
        f: Features,
        net: Option<&'a Network>,
    ) -> Search<'a> {
        Search {
            board: board.clone(),
            tt,
            heur,
            stop,
            helper_nodes,
            main: true,
            start_depth: 1,
            start,
            soft: limits.soft,
            hard: limits.hard,
            deadline: limits.deadline.clone(),
            completed: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_len: board.ply(),
            root_depth: 0,
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            moves_played: [Move::NULL; MAX_PLY + 2],
            cont_rows: [NO_CONT; MAX_PLY + 2],
            excluded: [Move::NULL; MAX_PLY + 2],
            double_extensions: [0; MAX_PLY + 2],
            scores: Box::new([[0; 256]; MAX_PLY + 1]),
            lmr: lmr_table(),
            f,
            nnue: net.map(|n| (n, AccumulatorStack::new(n, board))),
            syzygy: None,
            tbhits: 0,
            tb_root_rank: None,
        }
    }

    /// Whether a cap has been reached `elapsed` after the start: the fixed one or the one
    /// the caller moves (read once per CHECK_EVERY nodes).
    fn past_cap(&self, elapsed: Duration) -> bool {
        if self.hard.is_some_and(|h| elapsed >= h) {
            return true;
        }
        self.deadline.as_ref().is_some_and(|d| {
            let ms = d.load(Ordering::Relaxed);
            ms != NO_DEADLINE && elapsed.as_millis() >= u128::from(ms)
        })
    }

    /// The static evaluation of the current position (side to move's view): the net's
    /// from the accumulators, or the hand-written one.
    #[inline]
    fn evaluate(&mut self) -> i32 {
        match &mut self.nnue {
            Some((net, acc)) => {
                // Every make was pushed and every unmake popped (a missed one would
                // evaluate another position).
                debug_assert_eq!(acc.depth(), self.board.ply() - self.root_len);
                if self.f.verify_nnue {
                    let fresh = Accumulator::from_board(net, &self.board);
                    assert!(acc.current(net) == &fresh, "incremental accumulator differs at {}", self.board.fen());
                }
                clamp_eval(acc.evaluate(net, self.board.side_to_move()))
            }
            None => evaluate(&self.board),
        }
    }

    /// Makes `m` on the board and pushes its accumulator (only recorded; computed when the
    /// position is evaluated).
    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.board.make_move(m);
        if let Some((net, acc)) = &mut self.nnue {
            acc.push_made(net, &self.board);
        }
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.board.unmake_move();
        if let Some((_, acc)) = &mut self.nnue {
            acc.pop();
        }
    }

    /// Nodes searched by all threads so far (exact for one thread).
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helper_nodes.load(Ordering::Relaxed)
    }

    /// Counts a node and says whether the search must stop: node limit (exact for one
    /// thread; the threads' total every CHECK_EVERY nodes), stop flag and hard time limit
    /// (every CHECK_EVERY nodes).
    #[inline(always)]
    fn tick(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if !self.main {
                self.helper_nodes.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            }
            // The node limit counts every thread's nodes: the main thread also stops the
            // search when they all add up to it (one thread alone stops exactly, above).
            if self.stop.load(Ordering::Relaxed)
                || (self.main && self.total_nodes() >= self.node_limit)
                || ((self.hard.is_some() || self.deadline.is_some()) && self.past_cap(self.start.elapsed()))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Draw by rule at an interior node: fifty moves (unless this is checkmate),
    /// repetition, dead material.
    #[inline]
    fn is_draw(&self) -> bool {
        if self.board.halfmove_clock() >= 100 {
            return !self.board.in_check() || self.board.has_legal_move();
        }
        self.board.is_search_repetition(self.root_len) || self.board.is_dead_draw_material()
    }

    /// The PV of this node becomes `m` followed by the child's PV.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// What every node does first, in search and quiescence alike: reset its PV, poll the
    /// limits, track the selective depth, and return a score at once for a stop, a draw or
    /// the ply limit. `None` means search on.
    #[inline(always)]
    fn node_entry(&mut self, ply: usize) -> Option<i32> {
        self.pv_len[ply] = ply;
        if self.tick() {
            return Some(0);
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.is_draw() {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(if self.board.in_check() { 0 } else { self.evaluate() });
        }
        None
    }

    /// The tree search (negamax alpha-beta with principal variation search), as numbered
    /// steps. Each step's measured effect is in params.rs beside its numbers and in the
    /// table of docs/search.md; the features named in brackets switch it off for matches.
    /// `cut`: an expected cut node (a null-window node reached by a reduced search or a null
    /// move, or the first child of an expected all node), where a cut-off is the likely result.
    #[allow(clippy::too_many_arguments)]
    fn search(&mut self, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize, pv_node: bool, cut: bool) -> i32 {
        // Step 1. Quiescence at the horizon.
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        // Step 2. Node entry: the limits, a draw by rule, the ply limit.
        if let Some(score) = self.node_entry(ply) {
            return score;
        }
        // Step 3. Mate distance pruning: no line from here can beat a mate already found
        // nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let in_check = self.board.in_check();
        let key = self.board.key();
        // Step 4. The transposition table [tt]: cut-offs, the table move first, the stored
        // eval. Measured: with vs without (self-play, 2+0.05): +40 -1 =4 after 45 games
        // (stopped there), +458 +/- 247 Elo -- the largest single feature.
        let entry = if self.f.tt { self.tt.probe(key) } else { None };
        let mut tt_move = Move::NULL;
        let mut tt_eval = None;
        // Inside a singular-extension search this node is searched without that move: the
        // table's result (which includes it) must not cut it off, nor be overwritten by it.
        let excluded = self.excluded[ply];
        if let Some(e) = entry {
            tt_move = e.mv;
            tt_eval = Some(e.eval as i32);
            let score = score_from_tt(e.score as i32, ply);
            if !pv_node
                && excluded.is_null()
                && e.depth as i32 >= depth
                && self.board.halfmove_clock() < TT_CUTOFF_MAX_HALFMOVE
                && bound_cuts(e.bound(), score, alpha, beta)
            {
                return score;
            }
        }

        // Step 5. Tablebase probe (<https://www.chessprogramming.org/Syzygy_Bases>): a position with
        // few enough pieces, just after a capture or pawn move (the WDL tables assume the
        // 50-move counter at zero) and without castling rights, gets its exact value from the
        // WDL table; a win or loss is a bound (the search may still find a quicker mate), a
        // draw exact.
        if let Some(tb) = &self.syzygy {
            let pieces = (self.board.occ[WHITE] | self.board.occ[BLACK]).count_ones();
            if ply > 0
                && excluded.is_null()
                && self.board.halfmove_clock() == 0
                && self.board.castling_rights() == 0
                && pieces <= tb.cardinality()
                && (pieces < tb.cardinality() || depth >= tb.probe_depth)
            {
                if let Ok(wdl) = tb.tables.probe_wdl(&self.board) {
                    self.tbhits += 1;
                    let draw_band = if tb.rule50 { 1 } else { 0 };
                    let (value, bound) = if wdl > draw_band {
                        (TB_WIN - ply as i32, BOUND_LOWER)
                    } else if wdl < -draw_band {
                        (-TB_WIN + ply as i32, BOUND_UPPER)
                    } else {
                        (0, BOUND_EXACT)
                    };
                    if bound_cuts(bound, value, alpha, beta) {
                        let stored_depth = (depth + TB_STORE_DEPTH_BONUS).min(MAX_DEPTH as i32);
                        self.tt.store(key, Move::NULL, score_to_tt(value, ply), -MATE_BOUND, stored_depth, bound);
                        return value;
                    }
                }
            }
        }

        // Step 6. Static evaluation, corrected by the pawn structure's learnt error [corr],
        // sharpened by the table score when its bound allows. The table keeps the raw one.
        let raw_eval;
        let static_eval;
        let mut eval;
        if in_check {
            raw_eval = -INF;
            static_eval = -INF;
            eval = -INF;
        } else {
            raw_eval = match tt_eval {
                Some(v) if v.abs() < MATE_BOUND => v,
                _ => self.evaluate(),
            };
            static_eval = self.corrected(raw_eval);
            eval = static_eval;
            if let Some(e) = entry {
                let sc = score_from_tt(e.score as i32, ply);
                let b = e.bound();
                let usable = (b == BOUND_LOWER && sc > eval) || (b == BOUND_UPPER && sc < eval) || b == BOUND_EXACT;
                if usable && sc.abs() < MATE_BOUND {
                    eval = sc;
                }
            }
        }
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        self.heur.killers[ply + 1] = [Move::NULL; 2];

        if !pv_node && !in_check && excluded.is_null() {
            // Step 7. Reverse futility pruning [rfp]: far enough above beta at low depth,
            // assume the opponent cannot catch up (margins: RFP_*). Not when beta is a mate
            // against the side to move: the eval cannot show that the mate is avoided (that
            // cut-off made a two-move mate look like three).
            if self.f.reverse_futility
                && depth <= RFP_MAX_DEPTH
                && eval - (RFP_MARGIN * depth - if improving { RFP_IMPROVING } else { 0 }) >= beta
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                return eval;
            }
            // Step 8. Null-move pruning [nmp]: give the opponent a free move; still above
            // beta after a reduced search, the node is cut (NMP_*). Not when the side to
            // move has only king and pawns (zugzwang); verified by a reduced normal search at
            // high depth.
            let prev = if ply >= 1 { self.moves_played[ply - 1] } else { Move::NULL };
            if self.f.null_move
                && depth >= NMP_MIN_DEPTH
                && eval >= beta
                && static_eval >= beta
                && !prev.is_null()
                && beta > -MATE_BOUND
                && non_pawn_material(&self.board, self.board.side_to_move()) > 0
            {
                let r = NMP_BASE_R + depth / NMP_DEPTH_DIV + ((eval - beta) / NMP_EVAL_DIV).min(NMP_EVAL_MAX);
                self.moves_played[ply] = Move::NULL;
                self.cont_rows[ply] = NO_CONT;
                self.board.make_null();
                if let Some((net, acc)) = &mut self.nnue {
                    acc.push_made(net, &self.board); // the same pieces: a copy when evaluated
                }
                self.tt.prefetch(self.board.key());
                let score = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, false, !cut);
                self.board.unmake_null();
                if let Some((_, acc)) = &mut self.nnue {
                    acc.pop();
                }
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    // Verify at high depth with a reduced normal search (zugzwang guard).
                    if depth < NMP_VERIFY_DEPTH {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                    let v = self.search(depth - 1 - r, beta - 1, beta, ply, false, false);
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }

        // Step 9. Internal iterative reduction [iir]: without a table move this node was not
        // searched before at useful depth; search it a ply shallower.
        if self.f.iir && depth >= IIR_MIN_DEPTH && tt_move.is_null() {
            depth -= 1;
        }

        // Step 10. Singular extension [se] (<https://www.chessprogramming.org/Singular_Extensions>): when the
        // table move's lower bound is deep enough, search the other moves at half depth
        // against a bound a little below it; if all fail low, the table move is the only
        // good one here and is searched a ply deeper (two plies when they fail low by a wide
        // margin outside the PV, at most SE_DOUBLE_MAX times on a line). If they reach beta
        // instead, several moves refute the opponent's last one and the node is cut
        // (multi-cut); if they do not but the table's bound is already at beta, the table
        // move is not the only good one and is searched a ply shallower.
        let mut singular_ext = 0;
        if self.f.singular && depth >= SE_MIN_DEPTH && ply > 0 && excluded.is_null() && !tt_move.is_null() {
            if let Some(e) = entry {
                let tt_score = score_from_tt(e.score as i32, ply);
                if e.bound() & BOUND_LOWER != 0
                    && e.depth as i32 >= depth - SE_TT_DEPTH_MARGIN
                    && tt_score.abs() < MATE_BOUND
                {
                    let s_beta = tt_score - SE_MARGIN_PER_DEPTH * depth;
                    self.excluded[ply] = tt_move;
                    let v = self.search((depth - 1) / 2, s_beta - 1, s_beta, ply, false, cut);
                    self.excluded[ply] = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        singular_ext =
                            if !pv_node && v < s_beta - SE_DOUBLE_MARGIN && self.double_extensions[ply] < SE_DOUBLE_MAX
                            {
                                2
                            } else {
                                1
                            };
                    } else if s_beta >= beta {
                        return s_beta;
                    } else if tt_score >= beta {
                        singular_ext = -1;
                    }
                }
            }
        }

        let prev = if ply >= 1 { self.moves_played[ply - 1] } else { Move::NULL };
        // The continuation rows of the moves one and two plies back.
        let conts = [
            if ply >= 1 { self.cont_rows[ply - 1] } else { NO_CONT },
            if ply >= 2 { self.cont_rows[ply - 2] } else { NO_CONT },
        ];
        // Step 11. The moves, from the staged picker (picker.rs): the table move before any
        // generation, then captures, killers and the counter move, then quiet moves by
        // history. Read now: the table move's search may change the counter-move table.
        let counter = self.heur.counter_move(&self.board, prev);
        let tt_first = !tt_move.is_null() && tt_move != excluded && self.board.is_legal_quick(tt_move);
        let mut picker = MovePicker::new(tt_move, tt_first, counter, conts);
        let mut check_info = None;

        let us = self.board.side_to_move();
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut nquiets = 0usize;
        let mut captures_tried: [Move; 32] = [Move::NULL; 32];
        let mut ncaptures = 0usize;
        // Late move pruning [lmp]: after this many quiet moves at low depth the rest are
        // skipped (LMP_*).
        let lmp_limit = (LMP_BASE + depth * depth) as usize / if improving { 1 } else { 2 };

        loop {
            let (m, order_score) = match picker.next(&self.board, &mut self.scores[ply], self.heur, ply) {
                Picked::Move(m, score) => (m, score),
                Picked::NoMoves => return if in_check { -MATE + ply as i32 } else { 0 },
                Picked::Done => break,
            };
            if m == excluded {
                continue;
            }
            let tactical = is_tactical(&self.board, m);
            let quiet = !tactical;

            // Step 12. Pruning of moves that cannot raise alpha, once one move has been
            // searched and no mate is at stake: late move pruning [lmp], futility [fut] (even
            // a good quiet move will not lift the eval above alpha), SEE pruning [see] of
            // quiet moves and captures that lose material.
            let mut prune_if_quiet_no_check = false;
            if ply > 0 && !in_check && best > -MATE_BOUND && searched > 0 {
                if quiet {
                    if self.f.late_move_pruning && depth <= LMP_MAX_DEPTH && nquiets >= lmp_limit {
                        prune_if_quiet_no_check = true;
                    }
                    if self.f.futility
                        && depth <= FUTILITY_MAX_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha
                    {
                        prune_if_quiet_no_check = true;
                    }
                    if self.f.see_pruning
                        && depth <= SEE_QUIET_MAX_DEPTH
                        && !prune_if_quiet_no_check
                        && !see_ge(&self.board, m, -SEE_QUIET_MARGIN * depth * depth)
                    {
                        continue;
                    }
                } else if self.f.see_pruning
                    && depth <= SEE_CAPTURE_MAX_DEPTH
                    && is_bad_capture_score(order_score)
                    && !see_ge(&self.board, m, -SEE_CAPTURE_MARGIN * depth)
                {
                    continue;
                }
            }

            // A pruned quiet move is still searched when it gives check: asked before making
            // it, since most such moves are then skipped (in the depth-9 bench 1.13 M of
            // 1.62 M makes were of moves made only to learn that they did not check).
            let ci = check_info.get_or_insert_with(|| self.board.check_info());
            let gives_check = self.board.gives_check_with(ci, m);
            if prune_if_quiet_no_check && !gives_check {
                continue;
            }
            self.moves_played[ply] = m;
            self.make(m);
            self.tt.prefetch(self.board.key());
            self.cont_rows[ply] = cont_row(self.board.piece_at(m.to()), m.to());
            // Step 13. Extensions: a checking move [ext], the singular table move [se];
            // bounded so that perpetual-check lines cannot explode.
            let mut ext = if m == tt_move { singular_ext } else { 0 };
            if self.f.check_extension && gives_check {
                ext = ext.max(1);
            }
            if ext > 0 && (ply as i32) >= EXTENSION_PLY_FACTOR * self.root_depth {
                ext = 0;
            }
            self.double_extensions[ply + 1] = self.double_extensions[ply] + (ext == 2) as u8;
            let new_depth = depth - 1 + ext;

            // Step 14. Principal variation search: the first move with the full window, the
            // others with a null window (re-searched when they beat alpha), reduced by late
            // move reductions [lmr] when quiet (or losing captures) after the first few.
            let score = if searched == 0 {
                -self.search(new_depth, -beta, -alpha, ply + 1, pv_node, !pv_node && !cut)
            } else {
                let mut r = 0;
                if self.f.lmr
                    && depth >= LMR_MIN_DEPTH
                    && searched >= LMR_MIN_MOVES
                    && (quiet || is_bad_capture_score(order_score))
                {
                    r = self.lmr[depth.min(63) as usize][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if is_refutation_score(order_score) {
                        r -= 1;
                    }
                    if gives_check {
                        r -= 1;
                    }
                    if cut && self.f.cut_node {
                        r += LMR_CUT_NODE;
                    }
                    if quiet && !is_refutation_score(order_score) {
                        // History (butterfly plus continuation): up to two plies less for
                        // moves that did well, two more for ones that did badly.
                        r -= (order_score / LMR_HISTORY_DIV).clamp(-LMR_HISTORY_MAX, LMR_HISTORY_MAX);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut sc = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, false, r > 0 || !cut);
                if sc > alpha && r > 0 {
                    sc = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, false, !cut);
                }
                if sc > alpha && sc < beta && pv_node {
                    sc = -self.search(new_depth, -beta, -alpha, ply + 1, true, false);
                }
                sc
            };
            self.unmake();
            if self.stopped {
                return 0;
            }
            searched += 1;

            // Step 15. A new best move; at a cut-off the killers, the counter move and the
            // histories learn from it (HISTORY_BONUS_*).
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if alpha >= beta {
                        let bonus = (depth * depth).min(HISTORY_BONUS_MAX) * HISTORY_BONUS_SCALE;
                        if quiet {
                            self.heur.add_killer(ply, m);
                            if !prev.is_null() {
                                let pc = self.board.piece_at(prev.to()) as usize & 15;
                                self.heur.counter[pc][sq64(prev.to())] = m;
                            }
                            self.heur.update_quiet(us, m, self.board.piece_at(m.from()), conts, bonus);
                            for &q in &quiets_tried[..nquiets] {
                                self.heur.update_quiet(us, q, self.board.piece_at(q.from()), conts, -bonus);
                            }
                        }
                        // Capture history [caphist]: the capture that cut off gains, the
                        // captures tried before it lose (also when a quiet move cut off).
                        if self.f.capture_history {
                            if !quiet {
                                self.heur.update_capture(&self.board, m, bonus);
                            }
                            for &c in &captures_tried[..ncaptures] {
                                self.heur.update_capture(&self.board, c, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && nquiets < quiets_tried.len() {
                quiets_tried[nquiets] = m;
                nquiets += 1;
            } else if !quiet && ncaptures < captures_tried.len() {
                captures_tried[ncaptures] = m;
                ncaptures += 1;
            }
        }

        // Step 16. The result goes to the table (not from a singular-extension search,
        // whose result is about the other moves only).
        if !excluded.is_null() {
            return if searched == 0 { alpha } else { best };
        }
        let bound = bound_of(best, alpha, orig_alpha, beta);
        // The correction learns from the result when it is a quiet judgement of this
        // position (not in check, no capture or promotion decided it) and its bound says
        // which side of the static eval the truth lies.
        if self.f.correction
            && !in_check
            && (best_move.is_null() || !is_tactical(&self.board, best_move))
            && best.abs() < MATE_BOUND
            && !(bound == BOUND_LOWER && best <= static_eval)
            && !(bound == BOUND_UPPER && best >= static_eval)
        {
            self.heur.corr.update(&self.board, depth, best, static_eval);
        }
        self.tt.store(key, best_move, score_to_tt(best, ply), raw_eval.max(-MATE_BOUND), depth, bound);
        best
    }

    /// `raw` (a static evaluation of the current position) with the correction history's
    /// learnt error added when the feature is on, kept off the mate range.
    #[inline]
    fn corrected(&self, raw: i32) -> i32 {
        if self.f.correction {
            (raw + self.heur.corr.correction(&self.board)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        } else {
            raw
        }
    }
}

/// Was `m` (just made on `board`) a capture or promotion? Looks at the undo record.
fn is_tactical_after(board: &Board, m: Move) -> bool {
    m.is_promotion() || board.history.last().is_some_and(|u| u.captured != EMPTY)
}
