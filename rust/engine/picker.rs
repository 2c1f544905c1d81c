//! The staged move picker of the tree search: the moves of a node in the order they are
//! tried, generated and scored only as far as they are needed.
//!
//! Stages, in order:
//! 1. `TableMove`: the transposition table's move, tried before any move is generated.
//!    Where it exists it mostly cuts the node off, and the node never generates its moves.
//! 2. `Generate`: the legal moves are generated and scored (captures by SEE and MVV-LVA,
//!    killers, the counter move; quiet moves wait), the table move taken out as if it had
//!    been picked first, so that the others come in the order they would have had with it.
//! 3. `Captures`: picked best first by selection (no full sort: a cut-off after a move or
//!    two costs no sort), until the first quiet move's turn comes.
//! 4. `Quiets`: the quiet moves get their history scores then (a node cut off by a capture
//!    never scores them), and the picking goes on down to the losing captures.
//!
//! The ordering scores are those of `order.rs`; the picker only decides when each is made.

use crate::chess::board::Board;
use crate::chess::types::*;
use crate::engine::order::*;

/// Where the picker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    TableMove,
    Generate,
    Captures,
    Quiets,
}

/// What the picker hands out next.
pub(crate) enum Picked {
    /// A move with its ordering score.
    Move(Move, i32),
    /// The node has no legal move at all (mate or stalemate).
    NoMoves,
    /// Every move has been handed out.
    Done,
}

pub(crate) struct MovePicker {
    stage: Stage,
    tt_move: Move,
    /// The table move was handed out first (so it is skipped among the generated moves).
    tt_first: bool,
    counter: Move,
    conts: [usize; 2],
    moves: MoveList,
    next: usize,
}

impl MovePicker {
    /// A picker for a node whose table move is `tt_move` (`tt_first`: legal and to be tried
    /// before generating), with the counter move and the continuation rows of the moves one
    /// and two plies back.
    pub(crate) fn new(tt_move: Move, tt_first: bool, counter: Move, conts: [usize; 2]) -> MovePicker {
        MovePicker {
            stage: if tt_first { Stage::TableMove } else { Stage::Generate },
            tt_move,
            tt_first,
            counter,
            conts,
            moves: MoveList::new(),
            next: 0,
        }
    }

    /// The next move to try. `scores` is this ply's row of ordering scores.
    pub(crate) fn next(&mut self, board: &Board, scores: &mut [i32; 256], heur: &Heuristics, ply: usize) -> Picked {
        if self.stage == Stage::TableMove {
            self.stage = Stage::Generate;
            return Picked::Move(self.tt_move, TT_MOVE);
        }
        if self.stage == Stage::Generate {
            board.generate_legal(&mut self.moves);
            if self.moves.is_empty() {
                return Picked::NoMoves;
            }
            score_moves(board, &self.moves, scores, self.tt_move, heur, ply, self.counter);
            if self.tt_first {
                // Already tried: take it out of the picking as picking it would.
                let (_picked, _) = pick(&mut self.moves, scores, 0);
                debug_assert_eq!(_picked, self.tt_move, "a table move is_legal_quick accepted was not generated");
                self.next = 1;
            }
            self.stage = Stage::Captures;
        }
        if self.next == self.moves.len() {
            return Picked::Done;
        }
        let i = self.next;
        self.next += 1;
        let (mut m, mut score) = pick(&mut self.moves, scores, i);
        if self.stage == Stage::Captures && score == QUIET_UNSCORED {
            // The picking has reached the quiet moves: order them by history now.
            score_quiets(board, &self.moves, scores, i, heur, self.conts);
            self.stage = Stage::Quiets;
            (m, score) = pick(&mut self.moves, scores, i);
        }
        Picked::Move(m, score)
    }
}
