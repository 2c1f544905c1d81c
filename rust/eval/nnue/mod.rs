//! NNUE evaluation (<https://www.chessprogramming.org/NNUE>): inference for kibitz's
//! perspective network, with incrementally updated accumulators.
//!
//! # Architecture
//!
//! `(768·B -> H) x 2 -> 1`, squared clipped ReLU, one output picked from O output buckets;
//! B = 1 without king buckets, O = 1 without output buckets.
//!
//! * **Inputs**, 768 per perspective. For perspective `P` (WHITE or BLACK), a piece of colour
//!   `C` and kind `K` (PAWN = 1 .. KING = 6, `types.rs`) on square `s` (0..64, a1 = 0, h8 = 63,
//!   the numbering of `attack.rs`) is feature
//!   `(C == P ? 0 : 1) * 384 + (K - 1) * 64 + (P == WHITE ? s : s ^ 56)`:
//!   each side sees the board from its own side, its own pieces first.
//! * **King buckets** (optional, file version 2): 768 inputs per bucket. Perspective `P`'s
//!   own king on square `k` as `P` sees it (`P == WHITE ? k : k ^ 56`) picks bucket
//!   `map[k]` (the 64-byte map of the file), and its features are `map[k] * 768 +` the
//!   feature above. With mirroring on, a king on the e- to h-files (as `P` sees it) also
//!   flips every square's file (`s ^ 7`) for `P`. A king's move that changes its side's
//!   bucket or mirror half makes that side's accumulator be computed from scratch; every
//!   other move updates it as below.
//! * **Hidden layer**, H neurons per perspective (H a multiple of 16, 16..=1024; the first
//!   net uses 256). Both perspectives share the weights:
//!   `acc_P[j] = b[j] + sum over P's active features f of W[f][j]`, in i16 (the trainer must
//!   keep the weights small enough that no sum leaves the i16 range, see Quantisation below;
//!   the code wraps if one does).
//! * **Activation** (SCReLU): `a = clamp(acc, 0, QA)^2`, an i32 below 2^16.
//! * **Output buckets** (optional, file version 3): O rows of output weights and O biases;
//!   a position with p pieces on the board (kings included) is scored by bucket
//!   `min((p - 1) * O / 32, O - 1)` (with O = 8: 2-4 pieces bucket 0, 5-8 bucket 1, ...,
//!   29-32 bucket 7). The accumulator keeps the piece count, updated with each move's delta.
//! * **Output**: with `stm` the side to move and `nstm` the other, and `w`, `b_out` the
//!   position's bucket's weights and bias,
//!   `S = sum_j a_stm[j] * w[j] + sum_j a_nstm[j] * w[H + j]` (exact, i64),
//!   `out = S / QA + b_out` (i64), `eval = out * SCALE / (QA * QB)` centipawns from the side
//!   to move's point of view, both divisions truncating towards zero, saturated to i32.
//!   In float terms: `eval = SCALE * (sum_j clamp(x_stm[j], 0, 1)^2 * v[j] + ... + c)` with
//!   `x = acc / QA`, `v = w / QB`, `c = b_out / (QA * QB)`; `Network::evaluate_float`
//!   computes exactly that, and differs from `Network::evaluate` by less than
//!   `1 + SCALE / (QA * QB)` centipawns.
//!
//! # File format (versions 1, 2 and 3; the canonical description, the trainer writes exactly this)
//!
//! All integers little-endian, no padding:
//!
//! | offset | type | content |
//! |---|---|---|
//! | 0 | 8 bytes | magic `KBZNNUE\0` |
//! | 8 | u32 | version: 1, 2 with king buckets, 3 with output buckets (and king buckets or not) |
//! | 12 | u32 | inputs: 768, or 768·B with B (1..=32) king buckets |
//! | 16 | u32 | H (multiple of 16, 16..=1024) |
//! | 20 | u32 | SCALE (1..=10000; 400) |
//! | 24 | u32 | QA (1..=255; 255) |
//! | 28 | u32 | QB (1..=32767; 64) |
//! | 32 | u32 | versions 2 and 3: flags, bit 0 = mirroring (the other bits 0) |
//! | 36 | 64 bytes | versions 2 and 3: the bucket map, `map[k]` < B for the own king's square `k`, B = the largest entry + 1 (version 3 without king buckets: all zeros, flags 0) |
//! | 100 | u32 | version 3 only: O, the output buckets, 2..=32 |
//! | 32 (100, 104) | i16 x inputs·H | feature weights, row by row: feature `f`'s row at `f*H .. f*H + H` |
//! | | i16 x H | feature biases |
//! | | i16 x O·2·H | output weights, bucket by bucket, each side to move's half first (O = 1 in versions 1 and 2) |
//! | | i32 x O | output biases, in units of 1 / (QA·QB) |
//! | | u64 | FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`) of every byte before it |
//!
//! Nothing follows the checksum: the size is exactly `32 + 2*(768*H + 3*H) + 4 + 8` bytes
//! (394,796 for H = 256) for version 1, `100 + 2*(768*B*H + 3*H) + 4 + 8` for version 2,
//! `104 + 2*(768*B*H + H) + O*(4*H + 4) + 8` for version 3. `Network::from_bytes` rejects, with a `NetError` that says what is
//! wrong, a wrong magic, another version, inputs other than 768 (or 768 per bucket), a map
//! that names another number of buckets, unknown flags, an output-bucket count outside 2..=32, a bad H, a zero or
//! out-of-range SCALE / QA / QB, a short file (expected and actual size), trailing bytes and
//! a checksum mismatch; `Network::to_bytes` writes the same format.
//!
//! # Quantisation (what the trainer does)
//!
//! From a float network whose output times SCALE is centipawns: feature weights and biases
//! `round(x * QA)`, output weights `round(v * QB)`, output bias `round(c * QA * QB)`. With
//! QA = 255 an accumulator holds floats in about [-128.5, 128.5], and no position's sum
//! may leave that range: clipping the feature weights to [-1.98, 1.98] and the biases to
//! [-64, 64] is one sufficient choice (at most 32 pieces: 32 * 1.98 + 64 < 128).
//! `Network::accumulator_range` bounds every accumulator of a given net, to check one.
//! Output weights must stay within [-32768, 32767] / QB (±511.9 with QB = 64).
//!
//! # Incremental updates
//!
//! `AccumulatorStack::push_made(net, board)` right after `make_move` (or
//! `push(net, board_before, move)` before it) derives the changed features from the move
//! itself (quiet move, capture, en passant, promotion, castling including Chess960, null
//! move) and records them; the first `current` / `evaluate` at a ply writes it (and any
//! ply below it not yet written) as parent + added rows - removed rows in one pass per
//! perspective, so plies the search never evaluates cost no vector work. `pop` steps back.
//! Nothing is recomputed from scratch except by `refresh` / `reset`.
//!
//! # SIMD
//!
//! The accumulator update and the output dot product (`simd.rs`) come in two versions: AVX2
//! intrinsics (`#[target_feature(enable = "avx2")]`), and portable code over 16-value blocks
//! that autovectorises to SSE2, the x86-64 baseline. The path is chosen at run time
//! (`is_x86_feature_detected!`, once per process), so the one manylinux wheel uses AVX2
//! where the CPU has it and still runs everywhere; both give identical results (tested).

mod accumulator;
mod features;
mod network;
mod simd;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::{KingBuckets, INPUTS, MAX_HIDDEN, MAX_KING_BUCKETS};
pub use network::{NetError, NetParams, Network};
pub use simd::SimdPath;

use std::sync::{Arc, OnceLock};

/// The net that ships inside kibitz (and so inside the wheel): trained by `training/train.py`
/// from kibitz's own self-play records (docs/nnue.md, "The neural evaluation (NNUE)", has
/// the command that reproduces it from the data).
static EMBEDDED_NET: &[u8] = include_bytes!("default.nnue");

/// The embedded net, read once per process and shared by every engine. `None` only if the
/// embedded bytes were not a valid net (a packaging bug, tested against): the engines then
/// fall back to the hand-written evaluation rather than fail.
pub fn embedded() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(EMBEDDED_NET).ok().map(Arc::new)).clone()
}
