//! kibitz: a chess engine core on a 10x12 mailbox with piece lists.
//!
//! The crate is built in layers; each uses only the layers below it, and nothing below
//! reaches up:
//!
//! | layer | room | what it is |
//! |---|---|---|
//! | bindings | `python/` | the PyO3 extension `kibitz._core` (behind the `python` feature), built on this file's public surface only |
//! | engine | `engine/` | choosing a move: iterative deepening, alpha-beta, quiescence, move ordering, SEE, the transposition table, threads |
//! | tablebases | `tablebase/` | Syzygy WDL and DTZ probing (through `shakmaty-syzygy`), for the engine and for Python |
//! | evaluation | `eval/` | scoring a position: the hand-written evaluation with its tuned weights, and the neural net |
//! | rules | `chess/` | positions and moves: board, make/unmake, move generation, FEN, SAN, PGN, perft, game end |
//! | variants | `variant/` | a separate, table-driven generator for chess variants; uses nothing from the others |
//!
//! The `pub use` list below is the whole public Rust surface. Modules are private, so a
//! name is public only by being listed here.

mod chess;
mod engine;
mod eval;
mod tablebase;
mod variant;

#[cfg(feature = "python")]
mod python;

pub use chess::board::Board;
pub use chess::draw::Outcome;
pub use chess::error::{FenError, MoveError};
pub use chess::fen::{FEN_CAPACITY, STARTPOS};
pub use chess::movegen::{MoveKind, MoveSink};
pub use chess::perft::{divide, divide_until, perft, perft_full, perft_until};
pub use chess::pgn::{PgnGame, PgnReader, ReadError as PgnReadError};
pub use chess::planes::{fill_planes, set_planes, PLANES, PLANE_VALUES};
pub use chess::polyglot_random::POLYGLOT_RANDOM;
pub use chess::san::{SanFault, NULL_SANS};
pub use chess::setup::{castling_field_ok, parse_board_fen, piece_of_symbol, py_repr, Setup};
pub use chess::setup_moves::{line, to_chess960_target, SetupMove, SetupMoves};
pub use chess::types::{
    color_of, file_of, kind_of, make_piece, parse_square, rank_of, sq120, sq64, square_name, Color, Move, MoveList,
    Square, BISHOP, BLACK, EMPTY, KING, KNIGHT, OFFBOARD, PAWN, QUEEN, ROOK, WHITE,
};
pub use eval::classic::{evaluate, SEE_VALUE};
// Evaluation tuning (Texel's method, tools/texel.rs): the weight table and the trace.
pub use engine::bench::{bench, bench_positions, BenchPosition, BENCH_DEPTH, BENCH_HASH_MB};
pub use engine::engine::{available_cores, Engine};
pub use engine::tt::AllocError;
pub use engine::types::{
    mate_in, Bound, Features, Info, Limits, Line, SearchOutcome, Syzygy, UnknownFeature, INF, MATE, MATE_BOUND,
    MAX_DEPTH, MAX_THREADS, NO_DEADLINE, TB_WIN,
};
pub use engine::wdl::{material as wdl_material, wdl};
pub use eval::classic::{trace_eval, EgScale, EvalTrace};
pub use eval::nnue::{
    embedded as embedded_net, Accumulator, AccumulatorStack, KingBuckets, NetError, NetParams, Network, SimdPath,
    INPUTS as NNUE_INPUTS, MAX_HIDDEN as NNUE_MAX_HIDDEN, MAX_KING_BUCKETS as NNUE_MAX_KING_BUCKETS,
};
pub use eval::texel::quiescence_leaf;
pub use eval::weights::{Weights, NUM_WEIGHTS, WEIGHTS, WEIGHT_FIELDS};
pub use tablebase::{to_shakmaty, AddedTables, TablebaseError, Tablebases, VariantTablebases, DEFAULT_OPEN_FILES};
// What the bindings use beyond the public surface, re-exported for them alone: they reach
// the library only through this file (scripts/check_layers.py checks it).
#[cfg(feature = "python")]
pub(crate) use chess::fen::fen_fields;
#[cfg(feature = "python")]
pub(crate) use chess::movetext::{is_blank, is_py_space, plain_tokens, Plain};
pub use variant::{
    divide_until as variant_divide_until, perft as variant_perft, perft_until as variant_perft_until, Compiled,
    GameValue, VBoard, VMove, Variant, VariantError, VariantSet,
};
