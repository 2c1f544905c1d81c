//! Errors: one enum per failure, each variant with a fixed message. The Python layer turns
//! them into `FenError`, `InvalidMoveError` and `IllegalMoveError` (all `ValueError`s) in one place.

use std::fmt;

/// Why a FEN string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 to 6 space-separated fields.
    FieldCount(usize),
    /// The board field does not have 8 ranks.
    RankCount(usize),
    /// A rank describes more or fewer than 8 squares (rank number 1..8, squares described).
    RankLength(usize, usize),
    /// A character that is neither a piece letter nor a digit 1-8.
    PieceLetter(char),
    /// Two digits in a row in one rank, like "44" (rank number 1..8, the rank's text).
    ConsecutiveDigits(usize, String),
    /// A side has no king or more than one (colour name, count).
    KingCount(&'static str, usize),
    /// A pawn on the first or last rank (square name).
    PawnOnBackRank(String),
    /// More than 16 pieces for one side (colour name, count).
    TooManyPieces(&'static str, usize),
    /// The side-to-move field is not `w` or `b`.
    SideToMove(String),
    /// The side that is not to move is in check (colour name).
    OppositeCheck(&'static str),
    /// The castling field is malformed or names a right without king and rook in place.
    Castling(String),
    /// The en-passant field is malformed or impossible.
    EnPassant(String),
    /// The halfmove clock is not a non-negative integer.
    HalfmoveClock(String),
    /// The fullmove number is not a non-negative integer (0 is read as 1).
    FullmoveNumber(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "expected 4 to 6 space-separated fields, found {n}"),
            FenError::RankCount(n) => write!(f, "board field has {n} ranks, expected 8 separated by '/'"),
            FenError::RankLength(r, n) => write!(f, "rank {r} describes {n} squares, expected 8"),
            FenError::PieceLetter(c) => write!(f, "invalid piece letter {c:?} in board field"),
            FenError::ConsecutiveDigits(r, text) => {
                write!(f, "rank {r} ({text:?}) has two digits in a row: write its empty squares as one number")
            }
            FenError::KingCount(side, n) => write!(f, "{side} has {n} kings, expected exactly one"),
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on the first or last rank ({sq})"),
            FenError::TooManyPieces(side, n) => write!(f, "{side} has {n} pieces, at most 16 allowed"),
            FenError::SideToMove(s) => write!(f, "side to move must be 'w' or 'b', found {s:?}"),
            FenError::OppositeCheck(side) => write!(f, "the side not to move ({side}) is in check"),
            FenError::Castling(why) => write!(f, "bad castling field: {why}"),
            FenError::EnPassant(why) => write!(f, "bad en-passant field: {why}"),
            FenError::HalfmoveClock(s) => write!(f, "halfmove clock must be a non-negative integer, found {s:?}"),
            FenError::FullmoveNumber(s) => write!(f, "fullmove number must be a non-negative integer, found {s:?}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Why move text (UCI or SAN) was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a UCI move at all (the text, the reason).
    Invalid(String, &'static str),
    /// A well-formed move that is not legal in the position (the text, the position's FEN).
    Illegal(String, String),
    /// A SAN move that fits more than one legal move (the text, the position's FEN).
    Ambiguous(String, String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Invalid(text, why) => write!(f, "invalid UCI move {text:?}: {why}"),
            MoveError::Illegal(text, fen) => write!(f, "illegal move {text} in {fen}"),
            MoveError::Ambiguous(text, fen) => write!(f, "ambiguous move {text} in {fen}: say which piece moves"),
        }
    }
}

impl std::error::Error for MoveError {}
