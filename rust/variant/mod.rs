//! A table-driven move generator for chess variants, beside the fast orthodox one: a
//! reference for people writing variant engines and move validators.
//!
//! Variants are data (`def`): an INI dialect close to Fairy-Stockfish's `variants.ini`,
//! pieces as named types or Betza notation (`betza`), compiled for the board size into
//! step and attack tables (`tables`). The board (`board`, with `fen`) is a padded
//! mailbox sized to the variant, up to 12 files by 10 ranks; `movegen` turns the piece
//! tables into moves (leapers, riders with a range, lame leapers, hoppers, move-only and
//! capture-only steps), with castling, en passant and promotion as side effects of the
//! king's and pawn's moves, and `attack` is the attack test; `perft` counts. Beside the mailbox the board keeps bitboards
//! (u128: up to 120 squares) of each side and piece type, which the check and pin
//! analysis, the attack test and perft's leaf count read through tables compiled from the
//! same piece definitions; no piece or variant is special-cased. Legality of one input
//! move generates only the moving piece's moves (`VBoard::parse_move`).
//!
//! Which entry points check: `VBoard::from_fen` and `VariantSet::build` validate their
//! input; `parse_move` returns only legal moves; `make` trusts its move (it must come from
//! `legal_moves` or `parse_move`), as perft's inner loop does.

mod attack;
mod betza;
mod board;
mod def;
mod fen;
mod geometry;
mod movegen;
mod perft;
mod set;
mod tables;

pub use board::VBoard;
pub use def::{GameValue, Variant, VariantError};
pub use geometry::VMove;
pub use perft::{divide_until, perft, perft_until};
pub use set::VariantSet;
pub use tables::Compiled;
