//! The Syzygy tables of two variants, Atomic (`.atbw`/`.atbz`) and Antichess, which is
//! also Giveaway without castling (`.gtbw`/`.gtbz`), probed by `shakmaty-syzygy` on
//! `shakmaty`'s positions of those variants. The variant boards live in Python
//! (`kibitz.variant.boards`), so a position comes in as its FEN. Suicide's tables, which
//! the crate does not read, are left to the Python prober.

use std::path::Path;
use std::sync::Arc;

use shakmaty::fen::Fen;
use shakmaty::variant::{Antichess, Atomic};
use shakmaty::{CastlingMode, FromSetup, Position};
use shakmaty_syzygy::{Syzygy, Tablebase};

use super::error::{convert_error, TablebaseError};
use super::files::{new_tables, LimitedFiles};

/// Which variant's tables a `VariantTablebases` holds.
enum Tables {
    Atomic(Tablebase<Atomic>),
    Antichess(Tablebase<Antichess>),
}

/// A set of one variant's Syzygy tables. Probing takes `&self` and may be shared between
/// threads, as `Tablebases`.
pub struct VariantTablebases {
    tables: Tables,
    open_files: Option<Arc<LimitedFiles>>,
}

impl VariantTablebases {
    /// The tables of the variant python-chess names `uci_variant` ("atomic", "antichess"
    /// or "giveaway"), reading their files with at most `open_files` of them open (None:
    /// no limit); `None` for any other variant.
    pub fn new(uci_variant: &str, open_files: Option<usize>) -> Option<VariantTablebases> {
        let (tables, open_files) = match uci_variant {
            "atomic" => {
                let (t, files) = new_tables(open_files);
                (Tables::Atomic(t), files)
            }
            "antichess" | "giveaway" => {
                let (t, files) = new_tables(open_files);
                (Tables::Antichess(t), files)
            }
            _ => return None,
        };
        Some(VariantTablebases { tables, open_files })
    }

    /// A new limit of open files, as `Tablebases::set_open_files`.
    pub fn set_open_files(&self, limit: usize) {
        if let Some(files) = &self.open_files {
            files.set_limit(limit);
        }
    }

    /// Adds one table file of the variant. Errs, adding nothing, when the name is not a
    /// table's, the file cannot be read, or its size shows it is corrupt.
    pub fn add_file(&mut self, path: &Path) -> std::io::Result<()> {
        match &mut self.tables {
            Tables::Atomic(t) => t.add_file(path),
            Tables::Antichess(t) => t.add_file(path),
        }
    }

    /// WDL of the position (a FEN without castling rights) for the side to move, as
    /// `Tablebases::probe_wdl`.
    pub fn probe_wdl(&self, fen: &str) -> Result<i32, TablebaseError> {
        match &self.tables {
            Tables::Atomic(t) => wdl(t, fen),
            Tables::Antichess(t) => wdl(t, fen),
        }
    }

    /// DTZ of the position for the side to move, in plies, as `Tablebases::probe_dtz`.
    pub fn probe_dtz(&self, fen: &str) -> Result<i32, TablebaseError> {
        match &self.tables {
            Tables::Atomic(t) => dtz(t, fen),
            Tables::Antichess(t) => dtz(t, fen),
        }
    }
}

fn wdl<S: Position + Clone + Syzygy + FromSetup>(t: &Tablebase<S>, fen: &str) -> Result<i32, TablebaseError> {
    t.probe_wdl_after_zeroing(&position::<S>(fen)?).map(|w| w as i32).map_err(convert_error)
}

fn dtz<S: Position + Clone + Syzygy + FromSetup>(t: &Tablebase<S>, fen: &str) -> Result<i32, TablebaseError> {
    t.probe_dtz(&position::<S>(fen)?).map(|d| d.ignore_rounding().0).map_err(convert_error)
}

/// The variant's position of a FEN; `InvalidPosition` for one the variant's rules do not
/// allow (an en-passant square no pawn can take on is dropped, as `to_shakmaty` does).
fn position<S: FromSetup + Position>(fen: &str) -> Result<S, TablebaseError> {
    let fen = Fen::from_ascii(fen.as_bytes()).map_err(|_| TablebaseError::InvalidPosition)?;
    if fen.as_setup().castling_rights.any() {
        return Err(TablebaseError::Castling);
    }
    fen.into_position::<S>(CastlingMode::Standard)
        .or_else(|e| e.ignore_invalid_ep_square())
        .map_err(|_| TablebaseError::InvalidPosition)
}
