//! Move text: UCI (<https://www.chessprogramming.org/UCI>) in and out.
//! Castling is written as the king's two-square move (e1g1) in standard chess and as king
//! takes rook (e1h1) in Chess960; either form is accepted on input.

use crate::chess::board::Board;
use crate::chess::error::MoveError;
use crate::chess::types::*;

impl Board {
    /// The UCI text of a move in this position.
    pub fn move_to_uci(&self, m: Move) -> String {
        if m.is_null() {
            return "0000".to_string();
        }
        let to = if m.is_castle() && self.chess960 { self.castle_rook_of(m) } else { m.to() };
        let mut s = square_name(m.from());
        s.push_str(&square_name(to));
        if m.is_promotion() {
            s.push(b" pnbrqk"[m.promo() as usize] as char);
        }
        s
    }

    /// The rook cell a castling move castles with.
    fn castle_rook_of(&self, m: Move) -> Square {
        self.castle_rook_for(self.side, m)
    }

    /// The rook cell a castling move of `side` castles with (the castling rooks are fixed by
    /// the set-up, so this holds for the moves of the history too).
    fn castle_rook_for(&self, side: Color, m: Move) -> Square {
        let kingside = file_of(m.to()) == 6;
        self.castle_rook[2 * side + if kingside { 0 } else { 1 }] as Square
    }

    /// The moves played, oldest first, each with the square its UCI text names as the target
    /// (the rook's cell for a Chess960 castling): what `unmake_move` and `move_to_uci` would
    /// give one by one, without unmaking anything.
    pub fn history_with_uci_targets(&self) -> impl DoubleEndedIterator<Item = (Move, Square)> + ExactSizeIterator + '_ {
        let n = self.history.len();
        self.history.iter().enumerate().map(move |(i, u)| {
            let m = u.mv;
            // Every move, the null move too, hands the turn over: the mover of the i-th is
            // the side to move now when an even number of moves follow it.
            let side = (self.side ^ (n - i)) & 1;
            let to = if m.is_castle() && self.chess960 { self.castle_rook_for(side, m) } else { m.to() };
            (m, to)
        })
    }

    /// Parses UCI text into a legal move of this position (the checked entry point).
    /// Malformed text gives `MoveError::Invalid`, a well-formed but illegal move `Illegal`.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveError> {
        let mut ml = MoveList::new();
        self.generate_legal(&mut ml);
        self.parse_uci_among(text, ml.as_slice())
    }

    /// `parse_uci` against a list of this position's legal moves generated earlier.
    pub fn parse_uci_among(&self, text: &str, legal: &[Move]) -> Result<Move, MoveError> {
        let invalid = |why| MoveError::Invalid(text.to_string(), why);
        if !text.is_ascii() {
            return Err(invalid("expected ASCII text like e2e4 or e7e8q"));
        }
        if text.len() != 4 && text.len() != 5 {
            return Err(invalid("expected 4 or 5 characters like e2e4 or e7e8q"));
        }
        let from = parse_square(&text[0..2]).ok_or_else(|| invalid("the from-square is not a1..h8"))?;
        let to = parse_square(&text[2..4]).ok_or_else(|| invalid("the to-square is not a1..h8"))?;
        let promo = match text.as_bytes().get(4) {
            None => 0,
            Some(b'q') => QUEEN,
            Some(b'r') => ROOK,
            Some(b'b') => BISHOP,
            Some(b'n') => KNIGHT,
            Some(_) => return Err(invalid("the promotion piece must be one of q, r, b, n")),
        };
        if from == to {
            return Err(invalid("from- and to-square are the same"));
        }
        for &m in legal {
            if m.from() != from || m.promo() != promo {
                continue;
            }
            if m.to() == to && !(m.is_castle() && self.chess960) {
                return Ok(m);
            }
            if m.is_castle() && self.castle_rook_of(m) == to {
                return Ok(m);
            }
        }
        Err(MoveError::Illegal(text.to_string(), self.fen()))
    }

    /// The cell a move's UCI text names as its destination: the king's destination, or in
    /// Chess960 the castling rook's cell (king takes rook).
    pub fn uci_target(&self, m: Move) -> Square {
        if m.is_castle() && self.chess960 {
            self.castle_rook_of(m)
        } else {
            m.to()
        }
    }

    /// Parses and plays a UCI move; on error the board is unchanged.
    pub fn push_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.parse_uci(text)?;
        self.make_move(m);
        Ok(m)
    }

    /// All legal moves as UCI text.
    pub fn legal_moves_uci(&self) -> Vec<String> {
        let mut ml = MoveList::new();
        self.generate_legal(&mut ml);
        ml.iter().map(|&m| self.move_to_uci(m)).collect()
    }
}
