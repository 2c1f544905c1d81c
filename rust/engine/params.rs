//! Every number the search is tuned by, in one place, each with what it does and where its
//! value came from. Matches are self-play at the time control given, W-L-D from the side
//! with the feature, Elo with its 95% interval; `docs/search.md` gathers them in one table.
//! Values marked "set by hand" have not been measured on their own.

// ------------------------------------------------------------------ aspiration windows

/// Aspiration windows start at this depth (shallower iterations search the full window).
/// Set by hand.
pub(crate) const ASPIRATION_MIN_DEPTH: u32 = 5;
/// The first window: this many centipawns on each side of the last score. Measured (the
/// feature `asp`): with vs without, 40 games at 2+0.05, +16 -11 =13, +44 +/- 91 Elo.
pub(crate) const ASPIRATION_WINDOW: i32 = 20;
/// After a failure the window grows by half again plus this much. Set by hand.
pub(crate) const ASPIRATION_GROWTH: i32 = 5;
/// Past this half-width the window opens fully. Set by hand.
pub(crate) const ASPIRATION_MAX: i32 = 1000;

// ------------------------------------------------------------------ node pruning

/// The table's bound is not trusted this close to the fifty-move rule (its score may have
/// been reached by a line the rule now cuts). Set by hand.
pub(crate) const TT_CUTOFF_MAX_HALFMOVE: u32 = 90;
/// A tablebase result is stored this many plies deeper than the node's depth (nothing a
/// search could add changes it). Set by hand.
pub(crate) const TB_STORE_DEPTH_BONUS: i32 = 6;

/// Reverse futility pruning (`rfp`) up to this depth ...
pub(crate) const RFP_MAX_DEPTH: i32 = 7;
/// ... when the eval exceeds beta by this much per ply ...
pub(crate) const RFP_MARGIN: i32 = 80;
/// ... less this when the eval is improving. Measured with futility and late move pruning
/// (features `rfp`, `fut`, `lmp` together): 40 games at 2+0.05, +22 -2 =16, +191 +/- 88 Elo.
pub(crate) const RFP_IMPROVING: i32 = 60;

/// Null-move pruning (`nmp`) from this depth, ...
pub(crate) const NMP_MIN_DEPTH: i32 = 3;
/// ... reducing by R = NMP_BASE_R + depth / NMP_DEPTH_DIV ...
pub(crate) const NMP_BASE_R: i32 = 3;
pub(crate) const NMP_DEPTH_DIV: i32 = 4;
/// ... plus one per NMP_EVAL_DIV centipawns above beta, at most NMP_EVAL_MAX more ...
pub(crate) const NMP_EVAL_DIV: i32 = 200;
pub(crate) const NMP_EVAL_MAX: i32 = 2;
/// ... and verified by a reduced normal search from this depth (zugzwang). Measured: 40
/// games at 2+0.05, +20 -14 =6, +52 +/- 103 Elo (a run with 9 time forfeits, 6 ours, on an
/// overloaded machine).
pub(crate) const NMP_VERIFY_DEPTH: i32 = 10;

/// Internal iterative reduction (`iir`) from this depth, for nodes without a table move.
/// Measured: 60 games at 2+0.05, +18 -20 =22, -12 +/- 71 Elo: no gain visible at that speed,
/// kept as the usual practice.
pub(crate) const IIR_MIN_DEPTH: i32 = 4;

/// Singular extensions (`se`, off by default) from this depth, ...
pub(crate) const SE_MIN_DEPTH: i32 = 8;
/// ... when the table entry is at most this many plies shallower than the node, ...
pub(crate) const SE_TT_DEPTH_MARGIN: i32 = 3;
/// ... searching the other moves against the table score less this much per ply. Measured
/// with continuation history (features `se`, `cont` together), before the double and
/// negative extensions below: 141 games at 5+0.05, +47 -50 =44, about -7 +/- 45 Elo; so
/// both stay off.
pub(crate) const SE_MARGIN_PER_DEPTH: i32 = 2;
/// A singular table move whose alternatives fail low by this much more is extended two
/// plies instead of one (not in PV nodes), at most SE_DOUBLE_MAX times on one line. The
/// values engines that describe the method use; set by hand.
pub(crate) const SE_DOUBLE_MARGIN: i32 = 20;
pub(crate) const SE_DOUBLE_MAX: u8 = 6;

// ------------------------------------------------------------------ move pruning

/// Late move pruning (`lmp`) up to this depth, after LMP_BASE + depth^2 quiet moves (half
/// as many when not improving). Measured with reverse futility (see RFP_IMPROVING).
pub(crate) const LMP_MAX_DEPTH: i32 = 7;
pub(crate) const LMP_BASE: i32 = 3;

/// Futility pruning (`fut`) of quiet moves up to this depth, when the eval plus
/// FUTILITY_BASE + FUTILITY_PER_DEPTH * depth stays at or below alpha. Measured with
/// reverse futility (see RFP_IMPROVING).
pub(crate) const FUTILITY_MAX_DEPTH: i32 = 6;
pub(crate) const FUTILITY_BASE: i32 = 100;
pub(crate) const FUTILITY_PER_DEPTH: i32 = 90;

/// SEE pruning (`see`) of quiet moves up to this depth that lose more than
/// SEE_QUIET_MARGIN * depth^2 centipawns, ...
pub(crate) const SEE_QUIET_MAX_DEPTH: i32 = 7;
pub(crate) const SEE_QUIET_MARGIN: i32 = 30;
/// ... and of bad captures up to this depth that lose more than SEE_CAPTURE_MARGIN * depth.
/// Measured with quiescence's SEE pruning (features `see`, `qsee` together): 40 games at
/// 2+0.05, +18 -7 =15, +98 +/- 89 Elo.
pub(crate) const SEE_CAPTURE_MAX_DEPTH: i32 = 6;
pub(crate) const SEE_CAPTURE_MARGIN: i32 = 90;

/// Delta pruning (`delta`) in quiescence: a capture whose victim plus this margin leaves
/// the stand-pat score at or below alpha is not searched. Set by hand.
pub(crate) const DELTA_MARGIN: i32 = 200;

// ------------------------------------------------------------------ reductions, extensions

/// Late move reductions (`lmr`) from this depth, after this many moves; the reduction
/// table is `LMR_OFFSET + ln(depth) ln(moves) / LMR_DIVISOR`, adjusted by one ply each for a
/// PV node, a node that is not improving, a killer or counter move and a checking move, and
/// by up to LMR_HISTORY_MAX plies by history (one per LMR_HISTORY_DIV). Measured: 40 games
/// at 2+0.05, +12 -12 =16, 0 +/- 85 Elo (late move pruning already skips the same moves);
/// kept as the standard technique, to re-measure at longer controls.
pub(crate) const LMR_MIN_DEPTH: i32 = 3;
pub(crate) const LMR_MIN_MOVES: usize = 2;
pub(crate) const LMR_OFFSET: f64 = 0.75;
pub(crate) const LMR_DIVISOR: f64 = 2.25;
pub(crate) const LMR_HISTORY_DIV: i32 = 8192;
pub(crate) const LMR_HISTORY_MAX: i32 = 2;
/// At an expected cut node (`cutnode`, off by default) late moves are reduced this many
/// plies more: a cut-off is expected from an early move, the late ones rarely matter.
/// Set by hand (the usual value); screened and tested by the matches in docs/search.md.
pub(crate) const LMR_CUT_NODE: i32 = 1;

/// The check extension (`ext`) applies while the line is shorter than this many times the
/// root depth (perpetual checks cannot explode). Measured: 60 games at 2+0.05, +17 -18 =25,
/// -6 +/- 68 Elo: no difference at that speed; kept, cheap, for longer controls.
pub(crate) const EXTENSION_PLY_FACTOR: i32 = 2;

// ------------------------------------------------------------------ histories

/// A cut-off's history bonus: depth^2, at most HISTORY_BONUS_MAX, times HISTORY_BONUS_SCALE
/// (the other quiet moves tried get the same as a malus). Set by hand.
pub(crate) const HISTORY_BONUS_MAX: i32 = 400;
pub(crate) const HISTORY_BONUS_SCALE: i32 = 32;

/// Capture history (`caphist`, off by default) adds its entry divided by this to a
/// capture's MVV-LVA order score (entries within -HISTORY_MAX..HISTORY_MAX, so at most
/// 1024 either way: about a pawn's worth of victim). Screened at 5000 nodes a move
/// (`tools/nodematch.rs`): with 4 (up to half a queen's worth, so that a pawn capture could
/// pass a queen capture) -40 [-77, -5] after 100 pairs, stopped; with 16, +10 [-10, +31]
/// over 300 pairs (benches/results/search-screens/).
pub(crate) const CAPTURE_HISTORY_DIV: i32 = 16;

// ------------------------------------------------------------------ correction history

/// Correction history (`corr`, off by default, engine/correction.rs): 2^CORR_SIZE_LOG2
/// pawn-structure entries per side to move (16,384: 128 KB a thread). Set by hand. Measured
/// (self-play, 5+0.05, sequential test [0, 10] stopped undecided after 210 games): +53 -45
/// =112, about +13 Elo; at a fixed 5,000 nodes a move, +17 [-13, +48] over 300 games.
pub(crate) const CORR_SIZE_LOG2: u32 = 14;
/// Entries hold centipawns times CORR_GRAIN ...
pub(crate) const CORR_GRAIN: i32 = 256;
/// ... at most CORR_MAX (a correction of 64 centipawns either way) ...
pub(crate) const CORR_MAX: i32 = 64 * CORR_GRAIN;
/// ... and move toward a new difference by (depth + 1) / CORR_WEIGHT_SCALE, the weight
/// capped at CORR_WEIGHT_MAX. The usual values of engines that describe the method; set by
/// hand.
pub(crate) const CORR_WEIGHT_SCALE: i32 = 256;
pub(crate) const CORR_WEIGHT_MAX: i32 = 16;
