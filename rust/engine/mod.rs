//! The engine: choosing a move. Built on the rules library (`crate::chess`) and the
//! evaluation (`crate::eval`); it reports through return values and callbacks and never
//! prints protocol text (the UCI front end in Python owns the text).
//!
//! - `bench`: the bench (fixed positions to a fixed depth) and its node-count signature.
//! - `types`: what a search is asked and answers (limits, reports, outcome, the score scale,
//!   the feature switches).
//! - `engine`: the `Engine`, its table, histories, net and tablebases, and the Lazy SMP
//!   threads that search with it.
//! - `search`: one thread's search: iterative deepening, the root search, the tree search
//!   and quiescence as numbered steps.
//! - `params`: every margin, depth limit and reduction constant of the search, each with
//!   where its value came from (the table of measured effects is `docs/search.md`).
//! - `picker`: the staged move picker (table move, captures, quiet moves).
//! - `order`: move ordering (killers, histories, counter moves) and the staged picker's
//!   scores.
//! - `pool`: the helper threads, started once and kept between searches.
//! - `correction`: correction history, the static evaluation's learnt error per pawn
//!   structure.
//! - `see`: static exchange evaluation, for ordering and pruning captures.
//! - `tt`: the transposition table shared by the threads.
//! - `wdl`: win/draw/loss chances from a score (UCI_ShowWDL), fitted on self-play.

pub(crate) mod bench;
pub(crate) mod correction;
// `engine::engine` is the Engine, as Stockfish's engine.cpp: found by its name.
#[allow(clippy::module_inception)]
pub(crate) mod engine;
pub(crate) mod order;
pub(crate) mod params;
pub(crate) mod picker;
pub(crate) mod pool;
pub(crate) mod search;
pub(crate) mod see;
pub(crate) mod tt;
pub(crate) mod types;
pub(crate) mod wdl;

/// The deepest ply a search line can reach: the size of the per-ply tables (killers, the
/// principal variation, the evaluation stack). 128 is well beyond what a game search
/// reaches (depth is capped at `MAX_DEPTH` = 120 plies of nominal depth, and extensions are
/// bounded by this).
pub const MAX_PLY: usize = 128;
