//! The rules library: everything about chess positions and moves, and nothing about
//! choosing one. No search and no evaluation live here; the engine (`crate::engine`) and
//! the evaluation (`crate::eval`) are built on top of it and nothing here imports them.
//!
//! From the bottom up:
//! - `types`: squares, pieces, colours, `Move`, `MoveList`; `geometry`: the 10x12 mailbox's
//!   tables and the attack sets of every piece, computed at compile time.
//! - `zobrist` (with Polyglot's random table, `polyglot_random`): position keys.
//! - `board`: the position (mailbox, piece lists, bitboards, undo stack) and its invariant
//!   checker; then what extends it, one concern per file: `attack` (attack, check and pin
//!   tests), `makemove` (make/unmake as a pair), `movegen` (legal and pseudo-legal moves),
//!   `fen` (reading and writing positions), `draw` (game end, repetition), `query` (what
//!   the Python API asks of a position); `setup`: a position as plain data, python-chess's
//!   model (any placement, rights and en-passant square as given), which becomes a `Board`
//!   through the FEN of what the core can play.
//! - Notation: `notation` (UCI and long algebraic), `san` (standard algebraic), `pgn`
//!   (a streaming reader of game collections), `movetext` (plain movetext lines split into
//!   tokens as python-chess splits them).
//! - `perft`: leaf counts, the move generator's proof; `planes`: a position as 18 planes
//!   of 8x8 for neural networks.
//! - `error`: one error enum per failure, with fixed messages.

pub(crate) mod attack;
pub(crate) mod board;
pub(crate) mod draw;
pub(crate) mod error;
pub(crate) mod fen;
pub(crate) mod geometry;
pub(crate) mod makemove;
pub(crate) mod movegen;
// Read by the Python readers (the bindings) only: without them it is not used.
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub(crate) mod movetext;
pub(crate) mod notation;
pub(crate) mod perft;
pub(crate) mod pgn;
pub(crate) mod planes;
pub(crate) mod polyglot_random;
pub(crate) mod query;
pub(crate) mod san;
pub(crate) mod setup;
pub(crate) mod setup_moves;
pub(crate) mod types;
pub(crate) mod zobrist;
