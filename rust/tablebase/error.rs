//! Why a Syzygy probe has no answer, for the standard tables and the variants' alike.

use shakmaty_syzygy::SyzygyError;

/// Why a probe has no answer. Fixed messages, one variant per cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablebaseError {
    /// The position has castling rights; the tables hold no such positions.
    Castling,
    /// More pieces than the largest table loaded.
    TooManyPieces { pieces: u32, max: usize },
    /// The table of this material (e.g. "KRvKP") is not among the loaded files.
    MissingTable { material: String },
    /// The position cannot be a tablebase position (e.g. the side not to move is in check).
    InvalidPosition,
    /// A table file could not be read, or its contents are not a Syzygy table.
    Corrupt { message: String },
}

impl std::fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TablebaseError::Castling => write!(f, "syzygy tables do not contain positions with castling rights"),
            TablebaseError::TooManyPieces { pieces, max } => {
                write!(f, "the position has {pieces} pieces; the loaded tables hold at most {max}")
            }
            TablebaseError::MissingTable { material } => write!(f, "no table for {material} is loaded"),
            TablebaseError::InvalidPosition => write!(f, "the position is not legal, so no table holds it"),
            TablebaseError::Corrupt { message } => write!(f, "a table could not be read: {message}"),
        }
    }
}

impl std::error::Error for TablebaseError {}

pub(super) fn convert_error(e: SyzygyError) -> TablebaseError {
    match e {
        SyzygyError::Castling => TablebaseError::Castling,
        SyzygyError::TooManyPieces => TablebaseError::TooManyPieces { pieces: 0, max: 0 },
        SyzygyError::MissingTable { material, .. } => TablebaseError::MissingTable { material: material.to_string() },
        // The crate's message may carry a backtrace on later lines: keep the first.
        SyzygyError::ProbeFailed { error, material, .. } => TablebaseError::Corrupt {
            message: format!("{material}: {}", error.to_string().lines().next().unwrap_or("unreadable").trim()),
        },
    }
}
