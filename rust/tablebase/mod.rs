//! Syzygy endgame tablebases (<https://www.chessprogramming.org/Syzygy_Bases>): win, draw
//! or loss (WDL) and distance to zeroing (DTZ) of positions with few pieces, read from
//! `.rtbw` / `.rtbz` files (`variants.rs`: Atomic's and Antichess's tables).
//!
//! Probing is done by the `shakmaty-syzygy` crate (GPL-3.0-or-later like kibitz, by the
//! author of python-chess's prober, well kept and tested against Stockfish's and Fathom's
//! answers): the table format is a compressed, permutation-indexed encoding that is long
//! and subtle to decode, and a second implementation of it would buy nothing. The crate
//! probes `shakmaty` positions, so this file converts a kibitz `Board` into one, from the
//! board's bitboards (no FEN text in between); `benches/syzygy_bench.rs` measures what the
//! conversion costs next to a probe.
//!
//! Layering: built on the rules library only; the engine (`crate::engine`) and the Python
//! bindings use it.

mod error;
mod files;
mod variants;

use error::convert_error;
pub use error::TablebaseError;
use files::new_tables;
pub use variants::VariantTablebases;

use std::path::Path;
use std::sync::Arc;

use shakmaty::{Bitboard, ByColor, ByRole, CastlingMode, Chess, FromSetup, Setup};
use shakmaty_syzygy::Tablebase;

use crate::chess::board::Board;
use crate::chess::geometry::SQ64;
use crate::chess::types::*;

/// What `Tablebases::add_directory` did: how many table files it added, and which it
/// skipped, with why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddedTables {
    pub files: usize,
    pub skipped: Vec<(String, String)>,
}

/// Whether a file name is a Syzygy table's: `K...vK...` with piece letters, `.rtbw` or
/// `.rtbz`.
fn is_table_name(path: &Path) -> bool {
    let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { return false };
    let Some((white, black)) = stem.split_once('v') else { return false };
    let side = |s: &str| s.starts_with('K') && s.chars().all(|c| "KQRBNP".contains(c));
    side(white) && side(black)
}

/// How many table files are kept open at once unless told otherwise (python-chess's
/// `max_fds` default): well under the usual limit of 1,024 files a process may hold open,
/// which a set of six- or seven-piece tables would pass.
pub const DEFAULT_OPEN_FILES: usize = 128;

/// A set of Syzygy tables, from one or more directories. Probing takes `&self` and may be
/// shared between threads (tables are opened on first use, behind the crate's locks).
pub struct Tablebases {
    inner: Tablebase<Chess>,
    files: usize,
    open_files: Option<Arc<files::LimitedFiles>>,
}

impl Default for Tablebases {
    fn default() -> Self {
        Self::new()
    }
}

impl Tablebases {
    /// An empty set: every probe answers `MissingTable` / `TooManyPieces`. At most
    /// `DEFAULT_OPEN_FILES` table files are open at once.
    pub fn new() -> Tablebases {
        Tablebases::with_open_files(Some(DEFAULT_OPEN_FILES))
    }

    /// An empty set reading its files with at most `limit` of them open at once (None: no
    /// limit; each file stays open once read).
    pub fn with_open_files(limit: Option<usize>) -> Tablebases {
        let (inner, open_files) = new_tables(limit);
        Tablebases { inner, files: 0, open_files }
    }

    /// A new limit of open files (at least one), kept at once; no effect on a set made
    /// without a limit.
    pub fn set_open_files(&self, limit: usize) {
        if let Some(files) = &self.open_files {
            files.set_limit(limit);
        }
    }

    /// Adds the tables of a directory: every file named as Syzygy names its tables
    /// (`KRvK.rtbw`, `KRvK.rtbz`; other names are not tables and are passed over). A table
    /// file that cannot be used (unreadable, or of a size no table of its material can
    /// have, as a truncated download) is skipped and reported in `skipped` with the
    /// reason; the others are added. Tables are opened when first probed. Errs only when
    /// the directory itself cannot be listed.
    pub fn add_directory(&mut self, path: &Path) -> std::io::Result<AddedTables> {
        let mut entries: Vec<_> = std::fs::read_dir(path)?.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        entries.sort();
        let mut added = AddedTables::default();
        for file in entries {
            let is_table = matches!(file.extension().and_then(|e| e.to_str()), Some("rtbw" | "rtbz"));
            if !is_table {
                continue;
            }
            match self.add_file(&file) {
                Ok(()) => added.files += 1,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidInput && !is_table_name(&file) => {}
                Err(e) => added.skipped.push((file.display().to_string(), e.to_string())),
            }
        }
        Ok(added)
    }

    /// Adds one table file (`KRvK.rtbw`). Errs, adding nothing, when the name is not a
    /// table's, the file cannot be read, or its size shows it is corrupt.
    pub fn add_file(&mut self, path: &Path) -> std::io::Result<()> {
        self.inner.add_file(path)?;
        self.files += 1;
        Ok(())
    }

    /// The number of table files added.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most pieces (kings included) of any loaded table; 0 when none is loaded.
    pub fn max_pieces(&self) -> usize {
        self.inner.max_pieces()
    }

    /// WDL of the position for the side to move, assuming it was reached by a capture
    /// or pawn move (the halfmove clock is not considered): 2 win, 1 win that the 50-move
    /// rule turns into a draw ("cursed"), 0 draw, -1 loss saved by the 50-move rule
    /// ("blessed"), -2 loss. Needs the WDL table.
    pub fn probe_wdl(&self, board: &Board) -> Result<i32, TablebaseError> {
        let pos = self.position(board)?;
        self.inner.probe_wdl_after_zeroing(&pos).map(|wdl| wdl as i32).map_err(convert_error)
    }

    /// DTZ of the position for the side to move, in plies: positive when it wins (the
    /// winning side zeroes the 50-move counter, by a capture or pawn move, after that
    /// many plies), negative when it loses, 0 for a draw. Values may be rounded by one
    /// where the table stores them rounded, as the format allows. Needs both tables.
    pub fn probe_dtz(&self, board: &Board) -> Result<i32, TablebaseError> {
        let pos = self.position(board)?;
        self.inner.probe_dtz(&pos).map(|dtz| dtz.ignore_rounding().0).map_err(convert_error)
    }

    /// The shakmaty position of a kibitz board, checked first against what the tables
    /// can hold (so that no work is done for a position with castling rights or too many
    /// pieces).
    fn position(&self, board: &Board) -> Result<Chess, TablebaseError> {
        if board.castling_rights() != 0 {
            return Err(TablebaseError::Castling);
        }
        let pieces = (board.occ[WHITE] | board.occ[BLACK]).count_ones();
        if self.max_pieces() == 0 {
            return Err(TablebaseError::MissingTable { material: material(board) });
        }
        if pieces as usize > self.max_pieces() {
            return Err(TablebaseError::TooManyPieces { pieces, max: self.max_pieces() });
        }
        to_shakmaty(board)
    }
}

/// The material of a position as Syzygy names its tables: "KRvKP" (White's pieces, then
/// Black's, each strongest first).
pub fn material(board: &Board) -> String {
    let side = |c: Color| -> String {
        [KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN]
            .iter()
            .map(|&k| {
                let n = board.bb[make_piece(k, c) as usize].count_ones() as usize;
                let letter = ['?', 'P', 'N', 'B', 'R', 'Q', 'K'][k as usize];
                std::iter::repeat_n(letter, n).collect::<String>()
            })
            .collect()
    };
    format!("{}v{}", side(WHITE), side(BLACK))
}

/// The kibitz board as a shakmaty position (standard castling; Syzygy positions have no
/// castling rights, which `Tablebases::position` checks first).
pub fn to_shakmaty(board: &Board) -> Result<Chess, TablebaseError> {
    let bb =
        |kind: u8| Bitboard(board.bb[make_piece(kind, WHITE) as usize] | board.bb[make_piece(kind, BLACK) as usize]);
    let by_role = ByRole {
        pawn: bb(PAWN),
        knight: bb(KNIGHT),
        bishop: bb(BISHOP),
        rook: bb(ROOK),
        queen: bb(QUEEN),
        king: bb(KING),
    };
    let by_color = ByColor { white: Bitboard(board.occ[WHITE]), black: Bitboard(board.occ[BLACK]) };
    let placement =
        shakmaty::Board::try_from_bitboards(by_role, by_color).map_err(|_| TablebaseError::InvalidPosition)?;
    let setup = Setup {
        board: placement,
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn: if board.side_to_move() == WHITE { shakmaty::Color::White } else { shakmaty::Color::Black },
        castling_rights: Bitboard::EMPTY,
        ep_square: board.ep_square().map(|cell| shakmaty::Square::new(SQ64[cell] as u32)),
        remaining_checks: None,
        halfmoves: board.halfmove_clock(),
        fullmoves: std::num::NonZeroU32::new(board.fullmove_number().max(1)).expect("at least 1"),
    };
    // kibitz keeps an en-passant square only when a pawn could take there; one whose
    // capture is illegal is still a valid position. A check no last move can have given
    // (a pawn and a knight at once) is probed as python-chess probes it: kibitz's board
    // holds such a position, and the tables answer for it.
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(pos) => Ok(pos),
        Err(e) => match e.ignore_invalid_ep_square() {
            Ok(pos) => Ok(pos),
            Err(e) => e.ignore_impossible_check().map_err(|_| TablebaseError::InvalidPosition),
        },
    }
}
