//! `move_stack`: python-chess's list of the moves played, one list object per board.
//!
//! python-chess keeps `move_stack` as a plain list, so `board.move_stack[-1]` and
//! `len(board.move_stack)` cost nothing and `board.move_stack is board.move_stack`. kibitz's
//! moves live in the core board's history; building a new list from it on every read cost
//! about 22 ns a move (5 µs at 240 plies, 30 times python-chess). The board now keeps the
//! list it handed out, with a copy of the core moves it was made from, and brings it up to
//! date on each read: the moves still on the history are found by comparing core moves (about
//! a nanosecond each), the list is cut where the history differs and the new moves appended.
//! So a read after a push or a pop touches one item, and every read returns the same list.
//!
//! The list is a snapshot brought up to date when `move_stack` is read, not a live one: a
//! list kept from before a `push` grows with it at the next read of `move_stack`. A list the
//! caller changed (another length) is rebuilt whole at the next read; the board never takes
//! moves from it. Stacks that run through attribute assignments (`State::before`) are rare
//! and are rebuilt whole at each read, into the same list.

use super::super::moves::{history_py_move, PyMove};
use crate::{Board as CoreBoard, Move};

use pyo3::prelude::*;
use pyo3::types::PyList;

/// The list `move_stack` handed out and what it holds.
pub(crate) struct StackList {
    list: Py<PyList>,
    /// The core moves the list's items were made from, in order (none after `set_all`,
    /// whose list then differs in length unless it is empty).
    moves: Vec<Move>,
    /// The board's Chess960 flag when the items were made (it changes how castling is
    /// written, so every item).
    chess960: bool,
}

impl StackList {
    pub(super) fn new(py: Python<'_>) -> StackList {
        StackList { list: PyList::empty(py).unbind(), moves: Vec::new(), chess960: false }
    }

    /// Releases the list (the GIL is held; the board is being freed).
    pub(super) fn release(self, py: Python<'_>) {
        drop(self.list.into_bound(py));
    }

    /// The list holding `all` (a stack through assignments, made whole by the caller).
    pub(super) fn set_all(&mut self, py: Python<'_>, all: Vec<Py<PyMove>>) -> PyResult<Py<PyList>> {
        let list = self.list.bind(py);
        list.set_slice(0, list.len(), PyList::new(py, all)?.as_any())?;
        self.moves.clear();
        Ok(self.list.clone_ref(py))
    }

    /// The list brought up to date with the history of `core`: the items that still stand
    /// for its first moves are kept, the rest cut and the new moves appended.
    pub(super) fn sync(&mut self, py: Python<'_>, core: &CoreBoard) -> PyResult<Py<PyList>> {
        let list = self.list.bind(py);
        let chess960 = core.is_chess960();
        let n = core.ply();
        let kept = if self.chess960 == chess960 && list.len() == self.moves.len() {
            self.moves.iter().zip(core.move_history()).take_while(|(a, b)| *a == b).count()
        } else {
            0
        };
        if kept == list.len() && kept == n {
            return Ok(self.list.clone_ref(py));
        }
        if kept < list.len() {
            list.del_slice(kept, list.len())?;
        }
        self.moves.truncate(kept);
        for (m, to) in core.history_with_uci_targets().skip(kept) {
            list.append(history_py_move(py, m, to))?;
            self.moves.push(m);
        }
        self.chess960 = chess960;
        Ok(self.list.clone_ref(py))
    }
}
