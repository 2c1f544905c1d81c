//! The engine: the long-lived state a search runs on (the transposition table, the
//! ordering histories, the net, the tablebases) and its threads. `Engine::search` runs the
//! main thread's search (`search.rs`) and, with more threads, starts the Lazy SMP helpers
//! on the same root; the main thread alone keeps the clock, reports and answers.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::chess::board::Board;
use crate::engine::order::Heuristics;
use crate::engine::pool::Pool;
use crate::engine::search::{clamp_eval, Search};
use crate::engine::tt::{AllocError, TranspositionTable};
use crate::engine::types::{Features, Info, Limits, SearchOutcome, Syzygy, MAX_THREADS};
use crate::eval::classic::evaluate;
use crate::eval::nnue::{AccumulatorStack, Network};

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
            h.use_capture = features.capture_history;
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
