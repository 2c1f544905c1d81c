//! The search: iterative deepening over a negamax alpha-beta with principal variation
//! search (<https://www.chessprogramming.org/Principal_Variation_Search>), aspiration
//! windows, a transposition table, quiescence, and the usual selectivity (null move, late
//! move reductions, reverse futility, futility and late move pruning, SEE pruning, check
//! extension), and Lazy SMP threads sharing the table.
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
use crate::engine::pool::Pool;
use crate::engine::timeman::{self, Budget, Clock, Iteration, TimeManager};
use crate::engine::tt::*;
use crate::engine::MAX_PLY;
use crate::eval::classic::{evaluate, SEE_VALUE};
use crate::eval::nnue::{Accumulator, AccumulatorStack, Network};
use crate::tablebase::Tablebases;

pub const INF: i32 = 32001;
pub const MATE: i32 = 32000;
/// Scores beyond this are mates (a mate is at most MAX_PLY plies away).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
pub const MAX_DEPTH: u32 = (MAX_PLY - 8) as u32;
/// A tablebase win found `ply` plies from the root scores `TB_WIN - ply`: above every
/// evaluation the search trusts as such, below every mate score (a mate found by search
/// is shown as one; a tablebase win is a win whose mate is not yet seen).
pub const TB_WIN: i32 = MATE_BOUND - 1 - MAX_PLY as i32;

/// How the search uses Syzygy tables (the UCI options of the same names, as Stockfish has
/// them).
#[derive(Clone)]
pub struct Syzygy {
    pub tables: Arc<Tablebases>,
    /// `SyzygyProbeDepth`: positions with as many pieces as the largest table are probed
    /// only at this remaining depth or more (smaller ones always).
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: probe positions of at most this many pieces (capped by the
    /// largest table loaded).
    pub probe_limit: usize,
    /// `Syzygy50MoveRule`: a win the 50-move rule spoils counts as a draw.
    pub rule50: bool,
}

impl Syzygy {
    /// The most pieces probed: the limit, capped by the largest table.
    fn cardinality(&self) -> u32 {
        self.probe_limit.min(self.tables.max_pieces()) as u32
    }
}

/// How long and how deep to search. Unset limits do not apply; with none set the search
/// runs to `MAX_DEPTH` or until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The side to move's clock (UCI `wtime`/`btime`, increments, `movestogo`): the time
    /// manager (`engine::timeman`) makes a budget of it.
    pub clock: Option<Clock>,
    /// A fixed time for this move (UCI `movetime`), less `overhead` when that is given.
    pub movetime: Option<Duration>,
    /// The move overhead (UCI `Move Overhead`) kept off the clock for latency; `None`:
    /// `DEFAULT_MOVE_OVERHEAD_MS` for a clock, nothing for a movetime (exact).
    pub overhead: Option<Duration>,
    /// An explicit target, for callers that manage time themselves: no new iteration
    /// starts after it has passed (it may grow with an unstable best move), nor one that is
    /// not expected to finish before the hard limit.
    pub soft: Option<Duration>,
    /// An explicit cap: the search stops mid-iteration when it is reached (the smaller of
    /// this and the budget's cap applies).
    pub hard: Option<Duration>,
    /// A ponder search (UCI `go ponder`): the time limits sleep until this flag is raised
    /// (UCI `ponderhit`); the hard limit then counts from that moment, the target from the
    /// search's start, so a search that has pondered long enough answers at once.
    pub ponder: Option<Arc<AtomicBool>>,
    pub multipv: usize,
    /// Restrict the root moves (UCI `go searchmoves`); empty = all.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// The time budget of these limits (`engine::timeman`): from the clock or the movetime,
    /// then capped by an explicit `hard` and retargeted by an explicit `soft`.
    pub fn budget(&self) -> Budget {
        let mut b = match (&self.clock, self.movetime) {
            (None, None) => Budget::UNLIMITED,
            (clock, movetime) => {
                let default = if clock.is_some() { timeman::DEFAULT_MOVE_OVERHEAD_MS } else { 0 };
                let overhead = self.overhead.unwrap_or(Duration::from_millis(default));
                timeman::allocate(clock.as_ref(), movetime, overhead)
            }
        };
        if let Some(soft) = self.soft {
            b = Budget::explicit(Some(soft), b.hard);
        }
        if let Some(h) = self.hard {
            if b.soft.is_none() {
                b = Budget::explicit(None, Some(h));
            }
            b.hard = Some(b.hard.map_or(h, |x| x.min(h)));
            b.soft = b.soft.map(|x| x.min(h));
            b.max_soft = b.max_soft.map(|x| x.min(h));
        }
        b
    }
}

/// The kind of bound a reported score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    pub fn as_str(self) -> &'static str {
        match self {
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Upper => "upper",
        }
    }
}

/// One principal variation.
#[derive(Clone, Debug)]
pub struct Line {
    /// 1-based MultiPV index.
    pub multipv: usize,
    pub score: i32,
    pub bound: Bound,
    pub depth: u32,
    pub seldepth: u32,
    pub pv: Vec<Move>,
}

/// Progress reported after an iteration (and when the best move changes during one).
#[derive(Clone, Debug)]
pub struct Info {
    pub lines: Vec<Line>,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    /// Tablebase probes that answered (UCI `tbhits`).
    pub tbhits: u64,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub lines: Vec<Line>,
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub tbhits: u64,
    pub checkmate: bool,
    pub stalemate: bool,
    /// The root position was in the tablebases and the root moves were cut to those that
    /// keep its value by DTZ.
    pub tb_root: bool,
}

/// Converts a score to "mate in N moves" (positive: the side to move mates), if it is one.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

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

/// Switches for the selective features. They exist to measure each feature by a match
/// (engine with vs without it); each has a short name (`Features::NAMES`, used by
/// `Features::set`, kibitz.Engine's `features` argument and the hidden UCI options
/// `SearchOff` / `SearchOn`): asp, nmp, rfp, fut, lmp, lmr, see (main-search SEE pruning),
/// qsee (quiescence SEE pruning), delta, ext, iir, tm (soft-limit stability factor), tt (no
/// table probes in the tree: no cut-offs, table move or stored eval), killers, counter,
/// history (the move-ordering heuristics; `history` also drops LMR's history term), corr
/// (correction history), nnue. All are on by default except three that have not yet shown
/// a gain: cont (continuation history), se (singular extensions) and corr. Measured together against the search without
/// them (self-play, 5+0.05, sequential test [0, 10] stopped undecided after 141 games):
/// +47 -50 =44, about -7 +/- 45 Elo (benches/results/sprt-bundle1-5+0.05.log); continuation
/// history alone, with every quiet move scored at every node, +33 -38 =64 after 135 games;
/// correction history alone, +53 -45 =112 after 210 games (about +13 Elo, undecided;
/// benches/results/sprt-corr-5+0.05.log).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub aspiration: bool,
    pub null_move: bool,
    pub reverse_futility: bool,
    pub futility: bool,
    pub late_move_pruning: bool,
    pub lmr: bool,
    pub see_pruning: bool,
    pub qsearch_see: bool,
    pub delta: bool,
    pub check_extension: bool,
    pub iir: bool,
    pub time_stability: bool,
    pub tt: bool,
    pub killers: bool,
    pub counter: bool,
    pub history: bool,
    pub cont: bool,
    pub singular: bool,
    /// Correction history (engine/correction.rs): the static evaluation corrected by the
    /// search's learnt error for the pawn structure.
    pub correction: bool,
    /// New engines evaluate with the embedded net (else the hand-written evaluation);
    /// switching `nnue` off gives the hand-written one, for matches and benches.
    pub nnue: bool,
    /// For tests (off by default, no name): every evaluation also recomputes the
    /// accumulators from scratch and panics if the incremental ones differ.
    pub verify_nnue: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            aspiration: true,
            null_move: true,
            reverse_futility: true,
            futility: true,
            late_move_pruning: true,
            lmr: true,
            see_pruning: true,
            qsearch_see: true,
            delta: true,
            check_extension: true,
            iir: true,
            time_stability: true,
            tt: true,
            killers: true,
            counter: true,
            history: true,
            cont: false,
            singular: false,
            correction: false,
            nnue: true,
            verify_nnue: false,
        }
    }
}

/// A feature name that `Features` does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFeature(pub String);

impl std::fmt::Display for UnknownFeature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown search feature {:?} (known: {})", self.0, Features::NAMES.join(", "))
    }
}

impl std::error::Error for UnknownFeature {}

impl Features {
    /// The switchable features' names.
    pub const NAMES: [&'static str; 20] = [
        "asp", "nmp", "rfp", "fut", "lmp", "lmr", "see", "qsee", "delta", "ext", "iir", "tm", "tt", "killers",
        "counter", "history", "cont", "se", "corr", "nnue",
    ];

    fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "asp" => &mut self.aspiration,
            "nmp" => &mut self.null_move,
            "rfp" => &mut self.reverse_futility,
            "fut" => &mut self.futility,
            "lmp" => &mut self.late_move_pruning,
            "lmr" => &mut self.lmr,
            "see" => &mut self.see_pruning,
            "qsee" => &mut self.qsearch_see,
            "delta" => &mut self.delta,
            "ext" => &mut self.check_extension,
            "iir" => &mut self.iir,
            "tm" => &mut self.time_stability,
            "tt" => &mut self.tt,
            "killers" => &mut self.killers,
            "counter" => &mut self.counter,
            "history" => &mut self.history,
            "cont" => &mut self.cont,
            "se" => &mut self.singular,
            "corr" => &mut self.correction,
            "nnue" => &mut self.nnue,
            _ => return None,
        })
    }

    /// Turns the feature `name` (one of `NAMES`) on or off.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), UnknownFeature> {
        let slot = self.switch(name).ok_or_else(|| UnknownFeature(name.to_string()))?;
        *slot = on;
        Ok(())
    }

    /// Whether the feature `name` is on (`None` for an unknown name).
    pub fn get(&self, name: &str) -> Option<bool> {
        let mut copy = *self;
        copy.switch(name).copied()
    }

    /// The defaults with the features listed in `on` turned on, then those in `off` turned
    /// off (comma-separated names, spaces ignored; empty lists allowed). An unknown name is
    /// an error and nothing is changed.
    pub fn from_lists(on: &str, off: &str) -> Result<Features, UnknownFeature> {
        let mut f = Features::default();
        for (list, value) in [(on, true), (off, false)] {
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                f.set(name, value)?;
            }
        }
        Ok(f)
    }
}

/// The searcher with its long-lived state: the table and the ordering heuristics.
pub struct Engine {
    /// Shared with the helper threads during a search; changed (`tt_mut`) only when they
    /// are idle.
    tt: Arc<TranspositionTable>,
    heur: Box<Heuristics>,
    pub features: Features,
    /// Search threads asked for (Lazy SMP): 1 = the main thread alone, the deterministic
    /// default.
    threads: usize,
    /// The most threads that search at once (`set_thread_limit`): by default the machine's
    /// cores, since more threads than cores only take time from the main thread, which keeps
    /// the clock.
    thread_limit: usize,
    /// The helper threads, kept alive between searches.
    pool: Pool,
    /// The neural evaluation, shared read-only by every search thread; `None` means the
    /// hand-written `eval::evaluate`. New engines start with the embedded net.
    net: Option<Arc<Network>>,
    /// Syzygy tablebases, when set: probed in the tree and used to cut the root moves.
    syzygy: Option<Syzygy>,
}

/// The machine's hardware threads (1 when unknown).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// Raises a stop flag when dropped: the helpers stop even if the main search unwinds.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Engine {
    pub fn new(hash_mb: usize) -> Engine {
        Engine::with_table(TranspositionTable::new(hash_mb))
    }

    /// An engine with a table of `hash_mb` megabytes, or `AllocError` when that memory
    /// cannot be had (instead of the abort `new` would end in).
    pub fn try_new(hash_mb: usize) -> Result<Engine, AllocError> {
        Ok(Engine::with_table(TranspositionTable::try_new(hash_mb)?))
    }

    fn with_table(tt: TranspositionTable) -> Engine {
        let features = Features::default();
        Engine {
            tt: Arc::new(tt),
            heur: Heuristics::new(),
            features,
            threads: 1,
            thread_limit: available_cores(),
            pool: Pool::default(),
            net: if features.nnue { crate::eval::nnue::embedded() } else { None },
            syzygy: None,
        }
    }

    /// The table, for a change: waits for the helper threads of the last search to finish
    /// (they hold the only other references, and drop them before they report idle).
    fn tt_mut(&mut self) -> &mut TranspositionTable {
        self.pool.wait_idle();
        if Arc::get_mut(&mut self.tt).is_none() {
            // Unreachable while the helpers keep their promise; a fresh table keeps the
            // engine working all the same.
            self.tt = Arc::new(TranspositionTable::new(self.tt.size_mb()));
        }
        Arc::get_mut(&mut self.tt).expect("a table just made has no other owner")
    }

    /// The evaluation the search uses from now on: a net, or `None` for the hand-written
    /// one. The table is cleared, since its stored evaluations came from the other one.
    pub fn set_net(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
        self.tt_mut().clear();
    }

    /// The net the search evaluates with (`None`: the hand-written evaluation).
    pub fn net(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// The static evaluation the search would use for `board`, in centipawns from the side
    /// to move's point of view (the net's when one is set).
    pub fn static_eval(&self, board: &Board) -> i32 {
        match &self.net {
            Some(net) => clamp_eval(AccumulatorStack::new(net, board).evaluate(net, board.side_to_move())),
            None => evaluate(board),
        }
    }

    /// Sets (or with `None` removes) the tablebases the search probes.
    pub fn set_syzygy(&mut self, syzygy: Option<Syzygy>) {
        self.pool.wait_idle();
        self.syzygy = syzygy;
    }

    /// The tablebases the search probes, if any.
    pub fn syzygy(&self) -> Option<&Syzygy> {
        self.syzygy.as_ref()
    }

    /// Forget the table and the histories (a new game).
    pub fn clear(&mut self) {
        self.tt_mut().clear();
        self.heur.clear();
        self.pool.for_each_heuristics(|h| h.clear());
    }

    /// Number of search threads asked for, 1..=MAX_THREADS (clamped). At most
    /// `thread_limit` of them search (`effective_threads`); the helper threads are started
    /// here, off the clock, and kept for the following searches.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
        self.pool.resize(self.threads.min(self.thread_limit) - 1);
    }

    /// The threads asked for (`set_threads`).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The most threads that search at once, 1..=MAX_THREADS (clamped); by default the
    /// machine's cores (`available_cores`). Threads beyond the cores share them with the
    /// main thread, which alone keeps the clock and answers: raise it only to measure.
    pub fn set_thread_limit(&mut self, limit: usize) {
        self.thread_limit = limit.clamp(1, MAX_THREADS);
        self.set_threads(self.threads);
    }

    pub fn thread_limit(&self) -> usize {
        self.thread_limit
    }

    /// The threads that search: the main one and the helpers started (`threads` at most
    /// `thread_limit`, fewer if the system refused some).
    pub fn effective_threads(&self) -> usize {
        1 + self.pool.len()
    }

    /// Waits until the helper threads of the last search have stopped (a search returns
    /// as soon as its main thread is done; its helpers stop within moments).
    pub fn wait_for_helpers(&self) {
        self.pool.wait_idle();
    }

    /// A new empty table of `hash_mb` megabytes; on `AllocError` the engine keeps an empty
    /// table of the old size (or 1 MB) and stays usable.
    pub fn resize(&mut self, hash_mb: usize) -> Result<(), AllocError> {
        self.tt_mut().resize(hash_mb)
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `board` within `limits`. `stop` may be set from another thread at any time;
    /// the search then returns its best move so far within a few milliseconds. `report` is
    /// called after each iteration; returning false stops the search.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info) -> bool,
    ) -> SearchOutcome {
        let start = Instant::now();
        self.tt_mut().new_search();
        let features = self.features;
        let prepare = move |h: &mut Heuristics| {
            h.new_search();
            h.use_killers = features.killers;
            h.use_counter = features.counter;
            h.use_history = features.history;
            h.use_cont = features.cont;
        };
        prepare(&mut self.heur);
        let helper_nodes = Arc::new(AtomicU64::new(0));
        let helpers = self.pool.len();
        if helpers == 0 {
            let net = self.net.as_deref();
            let mut s = Search::new(board, &self.tt, &mut self.heur, stop, &helper_nodes, start, limits, features, net);
            s.syzygy = self.syzygy.clone();
            return s.run(limits, report);
        }

        // Lazy SMP (<https://www.chessprogramming.org/Lazy_SMP>): helper threads search the
        // same root through the shared table, without time limits, until the main thread
        // (which alone keeps the clock, reports and decides the move) is done. Half the
        // helpers start one ply deeper, so that the threads do not walk the tree in step.
        // The main thread answers without waiting for them: it raises their stop flag
        // (also if it unwinds) and returns; they finish in the background.
        let helper_stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
        let helper_limits = Arc::new(Limits {
            depth: limits.depth,
            multipv: 1,
            searchmoves: limits.searchmoves.clone(),
            ..Limits::default()
        });
        for i in 0..helpers {
            let (tt, net, stop, nodes, lim) = (
                Arc::clone(&self.tt),
                self.net.clone(),
                Arc::clone(&helper_stop.0),
                Arc::clone(&helper_nodes),
                Arc::clone(&helper_limits),
            );
            let board = board.clone();
            let syzygy = self.syzygy.clone();
            self.pool.run(
                i,
                Box::new(move |h: &mut Heuristics| {
                    prepare(h);
                    let mut s = Search::new(&board, &tt, h, &stop, &nodes, start, &lim, features, net.as_deref());
                    s.main = false;
                    s.syzygy = syzygy;
                    s.start_depth = 1 + (i as u32 + 1) % 2;
                    s.run(&lim, &mut |_| true);
                }),
            );
        }
        let net = self.net.as_deref();
        let mut s = Search::new(board, &self.tt, &mut self.heur, stop, &helper_nodes, start, limits, features, net);
        s.syzygy = self.syzygy.clone();
        s.run(limits, report)
        // helper_stop is dropped here: the helpers stop.
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

struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    bound: Bound,
    depth: u32,
    seldepth: u32,
    pv: Vec<Move>,
}

struct Search<'a> {
    board: Board,
    tt: &'a TranspositionTable,
    heur: &'a mut Heuristics,
    stop: &'a AtomicBool,
    /// Nodes of the helper threads (Lazy SMP), added in steps of CHECK_EVERY; the main
    /// thread reports its own count plus this.
    helper_nodes: &'a AtomicU64,
    /// The main thread reports and decides; helpers (false) only fill the table.
    main: bool,
    /// First iteration's depth (helpers vary it).
    start_depth: u32,
    start: Instant,
    /// The time decisions (`engine::timeman`); only the main thread's has a budget.
    tm: TimeManager,
    /// Set while a ponder search waits for `ponderhit`: no time limit applies until then.
    ponder: Option<Arc<AtomicBool>>,
    /// The hard limit, from the search's start (None: none, or still pondering).
    hard: Option<Duration>,
    /// Iterations completed, and whether the root has one legal move (played at once on a
    /// clock).
    completed: u32,
    only_move: bool,
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
    /// Move-ordering scores, one row per ply (kept here rather than on each node's stack
    /// frame, where zeroing 1 KB per node cost about 3 % of the search).
    scores: Box<[[i32; 256]; MAX_PLY + 1]>,
    lmr: Box<[[u8; 64]; 64]>,
    f: Features,
    /// The net and this thread's accumulators along the line being searched (pushed and
    /// popped with every make and unmake), or `None` for the hand-written evaluation.
    nnue: Option<(&'a Network, AccumulatorStack)>,
    /// Syzygy tables to probe, and this thread's count of probes that answered.
    syzygy: Option<Syzygy>,
    tbhits: u64,
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
fn clamp_eval(v: i32) -> i32 {
    v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}

/// Most search threads accepted (the UCI `Threads` maximum; GUIs often set the maximum).
pub const MAX_THREADS: usize = 1024;

/// How often (in nodes) the clock and the stop flag are read: 1024 nodes are about a
/// millisecond at this engine's speed, well inside the few-ms stop promise.
const CHECK_EVERY: u64 = 1024;

impl<'a> Search<'a> {
    #[allow(clippy::too_many_arguments)]
    fn new(
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
            tm: {
                let mut tm = TimeManager::new(limits.budget());
                tm.adjust = f.time_stability;
                tm
            },
            ponder: limits.ponder.clone().filter(|p| !p.load(Ordering::SeqCst)),
            hard: None,
            completed: 0,
            only_move: false,
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
            scores: Box::new([[0; 256]; MAX_PLY + 1]),
            lmr: lmr_table(),
            f,
            nnue: net.map(|n| (n, AccumulatorStack::new(n, board))),
            syzygy: None,
            tbhits: 0,
        }
        .with_clock_running()
    }

    /// Arms the hard limit unless the search ponders (then `ponderhit` arms it).
    fn with_clock_running(mut self) -> Self {
        if self.ponder.is_none() {
            self.hard = self.tm.budget.hard;
        }
        self
    }

    /// A ponder search notices `ponderhit`: the hard limit counts from now, the target
    /// from the search's start, so a search that pondered long enough stops at once (with
    /// the best move of its last iteration).
    fn poll_ponderhit(&mut self) {
        let Some(flag) = &self.ponder else { return };
        if !flag.load(Ordering::Relaxed) {
            return;
        }
        self.ponder = None;
        let now = self.start.elapsed();
        self.hard = self.tm.budget.hard.map(|h| now + h);
        if self.completed > 0 && self.tm.budget.timed() && (self.only_move || self.time_to_stop(now)) {
            self.stopped = true;
        }
    }

    /// After an iteration (or at ponderhit): should the next iteration not be started?
    fn time_to_stop(&self, elapsed: Duration) -> bool {
        let hard_left = self.hard.map(|h| h.saturating_sub(elapsed));
        self.tm.stop_after_iteration(elapsed, hard_left)
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

    /// Counts a node and says whether the search must stop: node limit (exact), stop flag
    /// and hard time limit (every CHECK_EVERY nodes).
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
            if self.ponder.is_some() {
                self.poll_ponderhit();
            }
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(h) = self.hard {
                if self.start.elapsed() >= h {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn run(&mut self, limits: &Limits, report: &mut dyn FnMut(&Info) -> bool) -> SearchOutcome {
        let mut ml = MoveList::new();
        self.board.generate_legal(&mut ml);
        let mut root: Vec<RootMove> = ml
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                bound: Bound::Upper,
                depth: 0,
                seldepth: 0,
                pv: vec![mv],
            })
            .collect();
        if ml.is_empty() || root.is_empty() {
            let in_check = self.board.in_check();
            return SearchOutcome {
                best: None,
                ponder: None,
                lines: Vec::new(),
                depth: 0,
                seldepth: 0,
                nodes: 0,
                elapsed: self.start.elapsed(),
                hashfull: self.tt.hashfull(),
                tbhits: 0,
                checkmate: ml.is_empty() && in_check,
                stalemate: ml.is_empty() && !in_check,
                tb_root: false,
            };
        }
        // In the tablebases: only the moves that keep the position's value (the quickest
        // conversion by DTZ when it is won) are searched, so a won ending is converted and a
        // drawn one is held whatever the evaluation thinks.
        let tb_root = self.tb_filter_root(&mut root);
        // Initial order: table move, then captures by MVV-LVA, so that even a search stopped
        // at once returns a sensible legal move.
        {
            let tt_move = self.tt.probe(self.board.key()).map(|e| e.mv).unwrap_or(Move::NULL);
            let b = &self.board;
            root.sort_by_key(|r| {
                if r.mv == tt_move {
                    -1_000_000
                } else if is_tactical(b, r.mv) {
                    -mvv_lva(b, r.mv) - 10_000
                } else {
                    0
                }
            });
        }
        let multipv = limits.multipv.clamp(1, root.len());
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // Only one legal move and the clock running: play it at once (a one-ply search gives
        // it a score).
        let timed = self.tm.budget.timed();
        self.only_move = root.len() == 1 && timed && limits.depth.is_none() && limits.nodes.is_none();
        if self.hard == Some(Duration::ZERO) {
            max_depth = 1; // no time at all: the quickest legal answer
        }

        for depth in self.start_depth.min(max_depth)..=max_depth {
            let iter_start = self.start.elapsed();
            for r in root.iter_mut() {
                r.prev_score = r.score;
            }
            self.root_depth = depth as i32;
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = root[pv_idx].prev_score;
                // Aspiration window around the last score, widened on each failure
                // (params.rs: ASPIRATION_*).
                let mut delta = ASPIRATION_WINDOW;
                let (mut alpha, mut beta) =
                    if self.f.aspiration && depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-INF), (prev + delta).min(INF))
                    } else {
                        (-INF, INF)
                    };
                loop {
                    let score = self.root_search(&mut root, pv_idx, depth as i32, alpha, beta, report);
                    root[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2 + ASPIRATION_GROWTH;
                    if delta > ASPIRATION_MAX {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                root[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed = depth;
            let took = self.start.elapsed() - iter_start;
            let best = &root[0];
            let score = (best.score.abs() < MATE_BOUND).then_some(best.score);
            self.tm.record(Iteration { depth, best: best.mv, score }, took);
            let info = self.info(&root, multipv, depth);
            if !report(&info) {
                self.stopped = true;
                break;
            }
            self.poll_ponderhit();
            let clock_running = timed && self.ponder.is_none();
            if self.only_move && clock_running {
                break;
            }
            // A forced mate found at full width needs no deeper search once confirmed twice.
            if limits.depth.is_none()
                && mate_in(root[0].score).is_some_and(|m| m > 0 && (depth as i32) >= 2 * m + 6)
                && multipv == 1
            {
                break;
            }
            // The time manager: stop when the adjusted target has passed, or when the next
            // iteration cannot end before the hard limit.
            if clock_running && self.time_to_stop(self.start.elapsed()) {
                break;
            }
        }

        let elapsed = self.start.elapsed();
        let fallback = if self.board.in_check() { 0 } else { self.evaluate() };
        let lines: Vec<Line> = (0..multipv)
            .map(|i| {
                let r = &root[i];
                // A move never scored (search stopped before it) reports its last score,
                // else the static evaluation.
                let score = if r.score > -INF {
                    r.score
                } else if r.prev_score > -INF {
                    r.prev_score
                } else {
                    fallback
                };
                Line { multipv: i + 1, score, bound: r.bound, depth: r.depth, seldepth: r.seldepth, pv: r.pv.clone() }
            })
            .collect();
        let best = root[0].mv;
        let ponder = if root[0].pv.len() >= 2 { Some(root[0].pv[1]) } else { self.ponder_from_tt(best) };
        SearchOutcome {
            best: Some(best),
            ponder,
            depth: if self.completed > 0 { self.completed } else { lines[0].depth },
            seldepth: lines[0].seldepth,
            lines,
            nodes: self.total_nodes(),
            elapsed,
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits,
            checkmate: false,
            stalemate: false,
            tb_root,
        }
    }

    /// The table's move in the position after `best`, if legal there.
    fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        self.board.make_move(best);
        let reply = self.tt.probe(self.board.key()).map(|e| e.mv).filter(|&m| !m.is_null() && self.board.is_legal(m));
        self.board.unmake_move();
        reply
    }

    /// Cuts the root moves to those that keep the root's tablebase value, when the root is
    /// in the tables (no castling rights, few enough pieces, every child's table present).
    /// Each move is ranked by the DTZ of the position it leads to: a win ranks by how soon
    /// the winning side zeroes the 50-move counter (a capture or pawn move zeroes at once),
    /// a loss by how late, a draw in between; with `rule50`, a win or loss beyond the
    /// 50-move limit counts as a draw. Keeps the best-ranked moves; true when it cut.
    fn tb_filter_root(&mut self, root: &mut Vec<RootMove>) -> bool {
        let Some(tb) = self.syzygy.clone() else { return false };
        let pieces = (self.board.occ[WHITE] | self.board.occ[BLACK]).count_ones();
        if self.board.castling_rights() != 0 || pieces > tb.cardinality() || root.len() < 2 {
            return false;
        }
        let mut ranks = Vec::with_capacity(root.len());
        for r in root.iter() {
            let zeroing = is_tactical(&self.board, r.mv) || kind_of(self.board.piece_at(r.mv.from())) == PAWN;
            self.board.make_move(r.mv);
            let rank = if !self.board.has_legal_move() {
                if self.board.in_check() {
                    Some(2000) // mate at once
                } else {
                    Some(0)
                }
            } else {
                tb.tables.probe_dtz(&self.board).ok().map(|child| {
                    // `child` is the opponent's DTZ: negative when the opponent loses.
                    let plies = if zeroing { 1 } else { child.abs() + 1 };
                    // The child's own counter (0 after a zeroing move) plus its DTZ.
                    let beyond_50 = tb.rule50 && child.abs() + self.board.halfmove_clock() as i32 > 100;
                    match child.signum() {
                        -1 if !beyond_50 => 1000 - plies,
                        1 if !beyond_50 => -1000 + plies,
                        _ => 0,
                    }
                })
            };
            self.board.unmake_move();
            match rank {
                Some(v) => ranks.push(v),
                None => return false, // a child's table is missing: search them all
            }
        }
        self.tbhits += ranks.len() as u64;
        let best = *ranks.iter().max().expect("at least two root moves");
        let mut keep = ranks.iter().map(|&v| v == best);
        root.retain(|_| keep.next().unwrap_or(false));
        true
    }

    fn info(&self, root: &[RootMove], multipv: usize, depth: u32) -> Info {
        let lines = (0..multipv)
            .map(|i| Line {
                multipv: i + 1,
                score: root[i].score,
                bound: root[i].bound,
                depth,
                seldepth: root[i].seldepth,
                pv: root[i].pv.clone(),
            })
            .collect();
        Info {
            lines,
            depth,
            seldepth: root[0].seldepth,
            nodes: self.total_nodes(),
            elapsed: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits,
        }
    }

    /// One pass over the root moves `root[pv_idx..]` with window (alpha, beta).
    // The index is the move's rank in the root list (PV move, late-move reduction), not
    // just a way to reach the element.
    #[allow(clippy::needless_range_loop)]
    fn root_search(
        &mut self,
        root: &mut [RootMove],
        pv_idx: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        report: &mut dyn FnMut(&Info) -> bool,
    ) -> i32 {
        let mut best = -INF;
        let mut best_move = Move::NULL;
        self.evals[0] = if self.board.in_check() { -INF } else { self.evaluate() };
        for i in pv_idx..root.len() {
            let m = root[i].mv;
            self.pv_len[1] = 1;
            self.moves_played[0] = m;
            self.make(m);
            self.cont_rows[0] = cont_row(self.board.piece_at(m.to()), m.to());
            let gives_check = self.board.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let score = if i == pv_idx {
                -self.search(new_depth, -beta, -alpha, 1, true)
            } else {
                // Late quiet root moves are reduced by one ply when deep enough.
                let quiet = !gives_check && !is_tactical_after(&self.board, m);
                let r = if depth >= 3 && i >= pv_idx + 4 && quiet { 1 } else { 0 };
                let mut sc = -self.search(new_depth - r, -alpha - 1, -alpha, 1, false);
                if sc > alpha && r > 0 && !self.stopped {
                    sc = -self.search(new_depth, -alpha - 1, -alpha, 1, false);
                }
                if sc > alpha && sc < beta && !self.stopped {
                    sc = -self.search(new_depth, -beta, -alpha, 1, true);
                }
                sc
            };
            self.unmake();
            if self.stopped {
                break;
            }
            let rm = &mut root[i];
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.depth = depth as u32;
                rm.seldepth = self.seldepth as u32;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                // A new best move in the middle of a long iteration is worth reporting.
                if i != pv_idx && pv_idx == 0 && score > alpha && self.start.elapsed() > Duration::from_secs(1) {
                    let line = Line {
                        multipv: 1,
                        score,
                        bound: if score >= beta { Bound::Lower } else { Bound::Exact },
                        depth: depth as u32,
                        seldepth: rm.seldepth,
                        pv: rm.pv.clone(),
                    };
                    let info = Info {
                        lines: vec![line],
                        depth: depth as u32,
                        seldepth: self.seldepth as u32,
                        nodes: self.total_nodes(),
                        elapsed: self.start.elapsed(),
                        hashfull: self.tt.hashfull(),
                        tbhits: self.tbhits,
                    };
                    if !report(&info) {
                        self.stopped = true;
                    }
                }
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                best_move = m;
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
            if self.stopped {
                break;
            }
        }
        if !self.stopped && !best_move.is_null() && pv_idx == 0 {
            let bound = if best >= beta { BOUND_LOWER } else { BOUND_EXACT };
            self.tt.store(self.board.key(), best_move, score_to_tt(best, 0), self.evals[0], depth, bound);
        }
        best
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
    fn search(&mut self, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize, pv_node: bool) -> i32 {
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
                && self.board.non_pawn_material(self.board.side_to_move()) > 0
            {
                let r = NMP_BASE_R + depth / NMP_DEPTH_DIV + ((eval - beta) / NMP_EVAL_DIV).min(NMP_EVAL_MAX);
                self.moves_played[ply] = Move::NULL;
                self.cont_rows[ply] = NO_CONT;
                self.board.make_null();
                if let Some((net, acc)) = &mut self.nnue {
                    acc.push_made(net, &self.board); // the same pieces: a copy when evaluated
                }
                self.tt.prefetch(self.board.key());
                let score = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
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
                    let v = self.search(depth - 1 - r, beta - 1, beta, ply, false);
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
        // good one here and is searched a ply deeper. If they reach beta instead, several
        // moves refute the opponent's last one and the node is cut (multi-cut).
        let mut singular = false;
        if self.f.singular && depth >= SE_MIN_DEPTH && ply > 0 && excluded.is_null() && !tt_move.is_null() {
            if let Some(e) = entry {
                let tt_score = score_from_tt(e.score as i32, ply);
                if e.bound() & BOUND_LOWER != 0
                    && e.depth as i32 >= depth - SE_TT_DEPTH_MARGIN
                    && tt_score.abs() < MATE_BOUND
                {
                    let s_beta = tt_score - SE_MARGIN_PER_DEPTH * depth;
                    self.excluded[ply] = tt_move;
                    let v = self.search((depth - 1) / 2, s_beta - 1, s_beta, ply, false);
                    self.excluded[ply] = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        singular = true;
                    } else if s_beta >= beta {
                        return s_beta;
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
                        && !self.board.see_ge(m, -SEE_QUIET_MARGIN * depth * depth)
                    {
                        continue;
                    }
                } else if self.f.see_pruning
                    && depth <= SEE_CAPTURE_MAX_DEPTH
                    && is_bad_capture_score(order_score)
                    && !self.board.see_ge(m, -SEE_CAPTURE_MARGIN * depth)
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
            let extend = (self.f.check_extension && gives_check) || (singular && m == tt_move);
            let ext = if extend && (ply as i32) < EXTENSION_PLY_FACTOR * self.root_depth { 1 } else { 0 };
            let new_depth = depth - 1 + ext;

            // Step 14. Principal variation search: the first move with the full window, the
            // others with a null window (re-searched when they beat alpha), reduced by late
            // move reductions [lmr] when quiet (or losing captures) after the first few.
            let score = if searched == 0 {
                -self.search(new_depth, -beta, -alpha, ply + 1, pv_node)
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
                    if quiet && !is_refutation_score(order_score) {
                        // History (butterfly plus continuation): up to two plies less for
                        // moves that did well, two more for ones that did badly.
                        r -= (order_score / LMR_HISTORY_DIV).clamp(-LMR_HISTORY_MAX, LMR_HISTORY_MAX);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut sc = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if sc > alpha && r > 0 {
                    sc = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if sc > alpha && sc < beta && pv_node {
                    sc = -self.search(new_depth, -beta, -alpha, ply + 1, true);
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
                        if quiet {
                            self.heur.add_killer(ply, m);
                            if !prev.is_null() {
                                let pc = self.board.piece_at(prev.to()) as usize & 15;
                                self.heur.counter[pc][sq64(prev.to())] = m;
                            }
                            let bonus = (depth * depth).min(HISTORY_BONUS_MAX) * HISTORY_BONUS_SCALE;
                            self.heur.update_quiet(us, m, self.board.piece_at(m.from()), conts, bonus);
                            for &q in &quiets_tried[..nquiets] {
                                self.heur.update_quiet(us, q, self.board.piece_at(q.from()), conts, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && nquiets < quiets_tried.len() {
                quiets_tried[nquiets] = m;
                nquiets += 1;
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

    /// Quiescence search (captures only, all moves in check), as numbered steps.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        // Step 1. Node entry: the limits, a draw by rule, the ply limit.
        if let Some(score) = self.node_entry(ply) {
            return score;
        }
        // Step 2. The transposition table [tt].
        let in_check = self.board.in_check();
        let key = self.board.key();
        let entry = if self.f.tt { self.tt.probe(key) } else { None };
        let mut tt_eval = None;
        if let Some(e) = entry {
            let score = score_from_tt(e.score as i32, ply);
            if bound_cuts(e.bound(), score, alpha, beta) {
                return score;
            }
            tt_eval = Some(e.eval as i32);
        }

        // Step 3. Stand pat: out of check the side to move may decline every capture.
        let mut best;
        let stand_pat;
        let raw_eval;
        if in_check {
            best = -INF;
            stand_pat = -INF;
            raw_eval = -INF;
        } else {
            raw_eval = match tt_eval {
                Some(v) if v.abs() < MATE_BOUND => v,
                _ => self.evaluate(),
            };
            stand_pat = self.corrected(raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
        }

        // Step 4. The moves: every legal move in check, else the captures, by MVV-LVA.
        let mut moves = MoveList::new();
        if in_check {
            self.board.generate_legal(&mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            self.board.generate_captures(&mut moves);
        }
        score_captures(&self.board, &moves, &mut self.scores[ply]);
        let orig_alpha = alpha;
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            let (m, _) = pick(&mut moves, &mut self.scores[ply], i);
            if !in_check {
                if m.is_promotion() && m.promo() != QUEEN {
                    continue;
                }
                // Step 5. Delta pruning [delta]: even winning the victim (plus a margin for
                // positional gain) leaves us below alpha.
                if self.f.delta && !m.is_promotion() {
                    let victim = if m.is_en_passant() { PAWN } else { kind_of(self.board.piece_at(m.to())) };
                    if stand_pat + SEE_VALUE[victim as usize] + DELTA_MARGIN <= alpha {
                        continue;
                    }
                }
                // Step 6. SEE pruning [qsee]: losing captures are not searched (measured with
                // the tree search's SEE pruning, params.rs SEE_CAPTURE_MARGIN).
                if self.f.qsearch_see && !self.board.see_ge(m, 0) {
                    continue;
                }
            }
            self.make(m);
            self.tt.prefetch(self.board.key());
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // Step 7. The result goes to the table at depth 0.
        let bound = bound_of(best, alpha, orig_alpha, beta);
        self.tt.store(key, best_move, score_to_tt(best, ply), raw_eval.max(-MATE_BOUND), 0, bound);
        best
    }
}

/// Was `m` (just made on `board`) a capture or promotion? Looks at the undo record.
fn is_tactical_after(board: &Board, m: Move) -> bool {
    m.is_promotion() || board.history.last().is_some_and(|u| u.captured != EMPTY)
}
