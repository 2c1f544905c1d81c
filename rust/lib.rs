//! kibitz: a chess engine core on a 10x12 mailbox with piece lists.
//!
//! The `pub use` list below is the whole public Rust surface. Modules are private; the
//! Python bindings live in `python/` behind the `python` cargo feature, so `cargo test`
//! builds without Python.

mod attack;
mod board;
mod draw;
mod eval;
mod weights;
mod texel;
mod order;
mod search;
mod see;
mod tt;
mod error;
mod fen;
mod makemove;
mod movegen;
mod nnue;
mod notation;
mod perft;
mod query;
mod pgn;
mod san;
mod polyglot_random;
mod types;
mod variant;
mod zobrist;

#[cfg(feature = "python")]
mod python;

pub use board::Board;
pub use error::{FenError, MoveError};
pub use fen::STARTPOS;
pub use pgn::{PgnGame, PgnReader, ReadError as PgnReadError};
pub use perft::{divide, divide_until, perft, perft_full, perft_until};
pub use types::{
    color_of, file_of, kind_of, make_piece, parse_square, rank_of, sq120, sq64, square_name, Color, Move, MoveList,
    Square, BISHOP, BLACK, EMPTY, KING, KNIGHT, OFFBOARD, PAWN, QUEEN, ROOK, WHITE,
};
// Search and evaluation (issue 3).
pub use draw::Outcome;
pub use eval::{evaluate, SEE_VALUE};
// Evaluation tuning (Texel's method, examples/texel.rs): the weight table and the trace.
pub use eval::{trace_eval, EgScale, EvalTrace};
pub use texel::quiescence_leaf;
pub use weights::{Weights, NUM_WEIGHTS, WEIGHTS, WEIGHT_FIELDS};
pub use tt::AllocError;
pub use search::{mate_in, Bound, Engine, Features, Info, Limits, Line, SearchOutcome, INF, MATE, MATE_BOUND, MAX_DEPTH, MAX_THREADS};
// Table-driven generator for chess variants (issue 15).
pub use variant::{
    divide_until as variant_divide_until, perft as variant_perft, perft_until as variant_perft_until, Compiled, GameValue,
    VBoard, VMove, Variant, VariantError, VariantSet,
};
// NNUE inference (issue 14): not yet used by the search or the evaluation.
pub use nnue::{embedded as embedded_net, Accumulator, AccumulatorStack, NetError, NetParams, Network, SimdPath, INPUTS as NNUE_INPUTS, MAX_HIDDEN as NNUE_MAX_HIDDEN};
