//! The evaluation: how good a position is, from the side to move's point of view.
//! Built on the rules library (`crate::chess`) only; the engine calls it.
//!
//! - `classic`: the hand-written evaluation (material, piece-square tables, mobility, pawn
//!   structure, king safety), traceable for tuning; `weights`: its tuned numbers.
//! - `texel`: the quiescence leaf that Texel tuning evaluates.
//! - `nnue`: the neural network (a (768 -> H) x 2 -> 1 perspective net) with incrementally
//!   updated accumulators; the search uses it when a net is loaded.

pub(crate) mod classic;
pub(crate) mod nnue;
pub(crate) mod texel;
pub(crate) mod weights;
