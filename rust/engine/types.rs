//! What a search is asked and what it answers: the score scale (mates, tablebase wins),
//! the limits (`Limits`, the clock and the node and depth caps), what each iteration
//! reports (`Info`, `Line`, `Bound`) and the final answer (`SearchOutcome`), and the
//! switches for the selective features (`Features`). The engine (`engine.rs`) takes and
//! gives these; the tree search (`search.rs`) fills them.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use crate::chess::types::*;
use crate::engine::MAX_PLY;
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
    pub(crate) fn cardinality(&self) -> u32 {
        self.probe_limit.min(self.tables.max_pieces()) as u32
    }
}

/// How long and how deep to search. Unset limits do not apply; with none set the search
/// runs to `MAX_DEPTH` or until stopped.
///
/// The search keeps only the mechanism of time: a target it will not start an iteration
/// after, a cap it stops at mid-iteration (checked every `CHECK_EVERY` nodes), and the
/// report after each finished iteration, whose `false` stops it. The decisions (a budget
/// from the clock, more time when the best move changes, the only move, ponderhit) belong
/// to the caller's time manager: the Python package's `kibitz.timeman`, as the design card
/// has it. Rust tools that need a clock give fixed budgets here.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// A target: no iteration starts once it has passed.
    pub soft: Option<Duration>,
    /// A cap: the search stops mid-iteration when it is reached.
    pub hard: Option<Duration>,
    /// A cap the caller may set or move while the search runs (a time manager arms it at
    /// `ponderhit`): milliseconds from the search's start, `NO_DEADLINE` for none. The
    /// earlier of this and `hard` applies.
    pub deadline: Option<Arc<AtomicU64>>,
    pub multipv: usize,
    /// Restrict the root moves (UCI `go searchmoves`); empty = all.
    pub searchmoves: Vec<Move>,
}

/// The value of `Limits::deadline` that means no cap.
pub const NO_DEADLINE: u64 = u64::MAX;

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
    /// Whether the iteration of `depth` is finished: false for a new best move reported in
    /// the middle of a long iteration (for the GUI; a time manager decides only on finished
    /// iterations).
    pub complete: bool,
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

/// Most search threads accepted (the UCI `Threads` maximum; GUIs often set the maximum).
pub const MAX_THREADS: usize = 1024;

/// Switches for the selective features. They exist to measure each feature by a match
/// (engine with vs without it); each has a short name (`Features::NAMES`, used by
/// `Features::set`, kibitz.Engine's `features` argument and the hidden UCI options
/// `SearchOff` / `SearchOn`): asp, nmp, rfp, fut, lmp, lmr, see (main-search SEE pruning),
/// qsee (quiescence SEE pruning), delta, ext, iir, tt (no table probes in the tree: no
/// cut-offs, table move or stored eval), killers, counter,
/// history (the move-ordering heuristics; `history` also drops LMR's history term), corr
/// (correction history), cutnode (deeper reductions at expected cut nodes), caphist (capture
/// history), nnue. All are on by default except those that have not yet shown a gain: cont
/// (continuation history), corr, cutnode and caphist. Singular extensions (se) are on since
/// they passed a sequential test at 5s+0.05s. Every measurement, with its log, is in
/// docs/search.md ("Measured effects").
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
    pub tt: bool,
    pub killers: bool,
    pub counter: bool,
    pub history: bool,
    pub cont: bool,
    pub singular: bool,
    /// Correction history (engine/correction.rs): the static evaluation corrected by the
    /// search's learnt error for the pawn structure.
    pub correction: bool,
    /// Late move reductions one ply deeper at expected cut nodes (the null-window children
    /// that a reduced search or a null move reached).
    pub cut_node: bool,
    /// Captures ordered by a capture history (how often a piece taking a piece on a square
    /// caused a cut-off) beside MVV-LVA.
    pub capture_history: bool,
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
            tt: true,
            killers: true,
            counter: true,
            history: true,
            cont: false,
            singular: true,
            correction: false,
            cut_node: false,
            capture_history: false,
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
    pub const NAMES: [&'static str; 21] = [
        "asp", "nmp", "rfp", "fut", "lmp", "lmr", "see", "qsee", "delta", "ext", "iir", "tt", "killers", "counter",
        "history", "cont", "se", "corr", "cutnode", "caphist", "nnue",
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
            "tt" => &mut self.tt,
            "killers" => &mut self.killers,
            "counter" => &mut self.counter,
            "history" => &mut self.history,
            "cont" => &mut self.cont,
            "se" => &mut self.singular,
            "corr" => &mut self.correction,
            "cutnode" => &mut self.cut_node,
            "caphist" => &mut self.capture_history,
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
