//! Game-end rules beside checkmate: repetition, the fifty-move rule and insufficient
//! material, with the same meaning python-chess gives them (so they can be tested against
//! it), plus the cheap forms the search uses.

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::chess::zobrist::EP_KEY;

/// How a game stands, as in PGN: "1-0", "0-1", "1/2-1/2" or "*".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
    Ongoing,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Ongoing => "*",
        }
    }
}

impl Board {
    /// How many times the current position has occurred, this one included, counting the
    /// positions of the move history that came with the board, as python-chess counts them:
    /// same piece placement, side to move, castling rights, and en-passant square only where
    /// an en-passant capture is legal (a square whose capturing pawn is pinned does not make
    /// a position different). Null moves are moves here, as in python-chess (the search's
    /// own test, `is_search_repetition`, stops at them).
    pub fn repetition_count(&self) -> usize {
        let key = self.key;
        let n = self.history.len();
        let mut count = 1;
        // Only positions since the last capture or pawn move can repeat.
        let window = (self.halfmove as usize).min(n);
        if window == 0 {
            return 1;
        }
        for j in (n - window..n).rev() {
            let u = &self.history[j];
            if u.key == key || (u.ep != 0 && self.same_but_unusable_ep(j, key)) {
                count += 1;
            }
        }
        count
    }

    /// Whether the position before move `j` of the history, which has an en-passant square
    /// in its key, is the position `key` names once that square is dropped because no legal
    /// capture uses it. Inside a repetition window only its oldest position can carry an
    /// en-passant square (it follows the double push that began the window, and no pawn
    /// has moved since), so this is asked at most once a call; the board of that moment is
    /// rebuilt only when the keys already match without the square.
    fn same_but_unusable_ep(&self, j: usize, key: u64) -> bool {
        let u = &self.history[j];
        if u.key ^ EP_KEY[file_of(u.ep as Square)] != key {
            return false;
        }
        let mut then = self.clone();
        while then.history.len() > j {
            then.unmake_move();
        }
        !then.has_legal_en_passant()
    }

    /// True when the current position has occurred at least `count` times.
    pub fn is_repetition(&self, count: usize) -> bool {
        self.repetition_count() >= count
    }

    /// The search's repetition test at a node `ply` plies below a root whose history length
    /// was `root_len`: one earlier occurrence inside the searched line is enough (the side
    /// to move can repeat again), an occurrence only in the game before the root needs two
    /// (a real threefold).
    #[inline]
    pub(crate) fn is_search_repetition(&self, root_len: usize) -> bool {
        let key = self.key;
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        if window < 4 {
            return false;
        }
        let mut before_root = 0;
        let mut j = n;
        // Step back two plies at a time while the position stays within the halfmove
        // window and no null move (search only, not a game move) lies in between.
        while n - j + 2 <= window {
            if self.history[j - 1].mv.is_null() || self.history[j - 2].mv.is_null() {
                return false;
            }
            j -= 2;
            // history[j] holds the key of the position before move j.
            let u = &self.history[j];
            if u.key == key || (u.ep != 0 && self.same_but_unusable_ep(j, key)) {
                if j >= root_len {
                    return true;
                }
                before_root += 1;
                if before_root >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// The fifty-move rule can be claimed: 100 half-moves without a capture or pawn move,
    /// and the side to move is not checkmated.
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmove >= 100 && self.has_legal_move()
    }

    /// The seventy-five-move rule (automatic draw): 150 half-moves, not checkmate.
    pub fn is_seventyfive_moves(&self) -> bool {
        self.halfmove >= 150 && self.has_legal_move()
    }

    /// Colour `c` cannot checkmate by any sequence of legal moves (python-chess's
    /// `has_insufficient_material`): a bare king; a king and one knight when the other side
    /// has nothing but king and queens; kings and bishops all on one square colour with no
    /// pawns or knights on the board.
    pub fn has_insufficient_material(&self, c: Color) -> bool {
        let mut knights = 0;
        let mut bishops = 0;
        for &sq in self.pieces(c) {
            match kind_of(self.cells[sq as usize]) {
                PAWN | ROOK | QUEEN => return false,
                KNIGHT => knights += 1,
                BISHOP => bishops += 1,
                _ => {}
            }
        }
        if knights > 0 {
            let lone = knights == 1 && bishops == 0;
            let them_only_queens = self.pieces(c ^ 1).iter().all(|&sq| {
                let k = kind_of(self.cells[sq as usize]);
                k == KING || k == QUEEN
            });
            return lone && them_only_queens;
        }
        if bishops > 0 {
            let mut colours = [false; 2];
            for cc in [WHITE, BLACK] {
                for &sq in self.pieces(cc) {
                    let sq = sq as usize;
                    match kind_of(self.cells[sq]) {
                        BISHOP => colours[(file_of(sq) + rank_of(sq)) & 1] = true,
                        PAWN | KNIGHT => return false,
                        _ => {}
                    }
                }
            }
            return !(colours[0] && colours[1]);
        }
        true
    }

    /// Neither side can checkmate.
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(WHITE) && self.has_insufficient_material(BLACK)
    }

    /// The search's cheap dead-draw test: K v K, K+minor v K, K+B v K+B on one colour.
    #[inline]
    pub(crate) fn is_dead_draw_material(&self) -> bool {
        let total = self.count[WHITE] + self.count[BLACK];
        if total > 4 {
            return false;
        }
        self.is_insufficient_material()
    }

    /// The game's outcome as python-chess's `Board.outcome(claim_draw=...)` decides it:
    /// checkmate, stalemate, insufficient material, the 75-move rule and fivefold repetition
    /// end the game; with `claim_draw` also a fifty-move or threefold-repetition claim, made
    /// now or with the next move.
    pub fn outcome(&self, claim_draw: bool) -> Outcome {
        let has_move = self.has_legal_move();
        if !has_move {
            if self.in_check() {
                return if self.side == WHITE { Outcome::BlackWins } else { Outcome::WhiteWins };
            }
            return Outcome::Draw;
        }
        if self.is_insufficient_material() || self.halfmove >= 150 {
            return Outcome::Draw;
        }
        let reps = self.repetition_count();
        if reps >= 5 {
            return Outcome::Draw;
        }
        if claim_draw && (reps >= 3 || self.can_claim_fifty_moves() || self.can_claim_threefold_repetition()) {
            return Outcome::Draw;
        }
        Outcome::Ongoing
    }

    /// The fifty-move rule can be claimed now, or by announcing a move (one that is not a
    /// capture or pawn move) that reaches 100 half-moves (as python-chess defines it).
    pub fn can_claim_fifty_moves(&self) -> bool {
        if self.is_fifty_moves() {
            return true;
        }
        if self.halfmove < 99 {
            return false;
        }
        let mut b = self.clone();
        let mut ml = MoveList::new();
        self.generate_legal(&mut ml);
        ml.iter().any(|&m| {
            b.make_move(m);
            let ok = b.is_fifty_moves();
            b.unmake_move();
            ok
        })
    }

    /// Threefold repetition can be claimed now, or by announcing a move that makes it.
    pub fn can_claim_threefold_repetition(&self) -> bool {
        if self.repetition_count() >= 3 {
            return true;
        }
        let mut b = self.clone();
        let mut ml = MoveList::new();
        self.generate_legal(&mut ml);
        ml.iter().any(|&m| {
            b.make_move(m);
            let ok = b.repetition_count() >= 3;
            b.unmake_move();
            ok
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_shuffle_repeats() {
        let mut b = Board::startpos();
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                b.push_uci(m).unwrap();
            }
        }
        assert_eq!(b.repetition_count(), 3);
        assert!(b.is_repetition(3));
        assert_eq!(b.outcome(true), Outcome::Draw);
        assert_eq!(b.outcome(false), Outcome::Ongoing);
        // Inside a search rooted at the start, the first return already counts.
        assert!(b.is_search_repetition(0));
        b.unmake_move();
        assert_eq!(b.repetition_count(), 2);
    }

    #[test]
    fn insufficient_material() {
        for (fen, want) in [
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/3K4/5N2/8 w - - 0 1", true),
            ("8/8/4k3/8/8/3K4/5NN1/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3K4/5B2/8 w - - 0 1", true),
            ("8/8/4k3/2b5/8/3K4/5B2/8 w - - 0 1", true),
            ("8/8/4k3/3b4/8/3K4/5B2/8 w - - 0 1", false),
            ("8/8/4k3/8/8/3K4/5P2/8 w - - 0 1", false),
        ] {
            assert_eq!(Board::from_fen(fen).unwrap().is_insufficient_material(), want, "{fen}");
        }
    }
}
