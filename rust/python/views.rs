//! Views onto a board: `board.legal_moves` / `board.pseudo_legal_moves` (live: they always
//! answer for the board as it is now, like python-chess's generators).

use super::board::PyBoard;
use super::moves::{interned, PyMove};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyTuple};

/// The legal (or pseudo-legal) moves of a board's current position: iterate for `Move`
/// objects, `len`, `in` (a kibitz or python-chess Move, or UCI text), `count()`, `any()`.
/// Live: it reads the board at each use, so one view stays right as the board changes.
#[pyclass(module = "kibitz", name = "LegalMoveGenerator", frozen)]
pub struct PyLegalMoves {
    pub(crate) board: Source,
}

/// What a move view reads: a kibitz Board (the fast path), or any object with python-chess's
/// methods (`generate_legal_moves`, `is_legal`; `generate_pseudo_legal_moves`,
/// `is_pseudo_legal`), as python-chess's generators take any board-like object.
pub(crate) enum Source {
    Board(Py<PyBoard>),
    Other(Py<PyAny>),
}

impl Source {
    fn of(obj: &Bound<'_, PyAny>) -> Source {
        match obj.cast::<PyBoard>() {
            Ok(b) => Source::Board(b.clone().unbind()),
            Err(_) => Source::Other(obj.clone().unbind()),
        }
    }
}

/// The moves an object's python-chess method gives, as a list (each call walks it once).
fn listed<'py>(obj: &Bound<'py, PyAny>, method: &str) -> PyResult<Bound<'py, PyList>> {
    PyList::new(obj.py(), obj.call_method0(method)?.try_iter()?.collect::<PyResult<Vec<_>>>()?)
}

#[pymethods]
impl PyLegalMoves {
    /// `LegalMoveGenerator(board)`, as python-chess's (the same view as `board.legal_moves`);
    /// any object with `generate_legal_moves` and `is_legal` will do.
    #[new]
    fn new(board: &Bound<'_, PyAny>) -> Self {
        PyLegalMoves { board: Source::of(board) }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        match &self.board {
            Source::Board(b) => b.get().legal_tuple(py)?.bind(py).try_iter(),
            Source::Other(o) => listed(o.bind(py), "generate_legal_moves")?.try_iter(),
        }
    }

    /// `len()` of a Board's view (python-chess's generators have none: for another object
    /// it is a TypeError, so that `list(view)` walks the object's moves once).
    fn __len__(&self) -> PyResult<usize> {
        match &self.board {
            Source::Board(b) => b.get().legal_count(),
            Source::Other(_) => {
                Err(PyTypeError::new_err("this move view of a board-like object has no len(); use count()"))
            }
        }
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.count(py)? > 0)
    }

    /// The number of legal moves.
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        match &self.board {
            Source::Board(_) => self.__len__(),
            Source::Other(o) => Ok(listed(o.bind(py), "generate_legal_moves")?.len()),
        }
    }

    /// True when there is at least one legal move.
    fn any(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.count(py)? > 0)
    }

    fn __contains__(&self, py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        match &self.board {
            Source::Board(b) => b.get().is_legal_move(py, m),
            Source::Other(o) => o.bind(py).call_method1("is_legal", (m,))?.is_truthy(),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        match &self.board {
            Source::Board(b) => Ok(format!("<LegalMoveGenerator ({})>", b.get().sans(py, false)?.join(", "))),
            Source::Other(o) => Ok(format!("<LegalMoveGenerator of {}>", o.bind(py).repr()?)),
        }
    }
}

/// The pseudo-legal moves of a board's current position (legal moves plus those that leave
/// the own king attacked), as python-chess's `pseudo_legal_moves`. Live like `legal_moves`.
#[pyclass(module = "kibitz", name = "PseudoLegalMoveGenerator", frozen)]
pub struct PyPseudoLegalMoves {
    pub(crate) board: Source,
}

#[pymethods]
impl PyPseudoLegalMoves {
    /// `PseudoLegalMoveGenerator(board)`, as python-chess's; any object with
    /// `generate_pseudo_legal_moves` and `is_pseudo_legal` will do.
    #[new]
    fn new(board: &Bound<'_, PyAny>) -> Self {
        PyPseudoLegalMoves { board: Source::of(board) }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        match &self.board {
            Source::Board(b) => {
                let indexes = b.get().pseudo_indexes()?;
                PyTuple::new(py, indexes.iter().map(|&i| interned(py, i)))?.try_iter()
            }
            Source::Other(o) => listed(o.bind(py), "generate_pseudo_legal_moves")?.try_iter(),
        }
    }

    /// `len()` of a Board's view (python-chess's generators have none: for another object
    /// it is a TypeError, so that `list(view)` walks the object's moves once).
    fn __len__(&self) -> PyResult<usize> {
        match &self.board {
            Source::Board(b) => Ok(b.get().pseudo_indexes()?.len()),
            Source::Other(_) => {
                Err(PyTypeError::new_err("this move view of a board-like object has no len(); use count()"))
            }
        }
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.count(py)? > 0)
    }

    /// The number of pseudo-legal moves.
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        match &self.board {
            Source::Board(_) => self.__len__(),
            Source::Other(o) => Ok(listed(o.bind(py), "generate_pseudo_legal_moves")?.len()),
        }
    }

    /// True when there is at least one pseudo-legal move.
    fn any(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.count(py)? > 0)
    }

    fn __contains__(&self, py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let b = match &self.board {
            Source::Board(b) => b,
            Source::Other(o) => return o.bind(py).call_method1("is_pseudo_legal", (m,))?.is_truthy(),
        };
        // A drop (or anything not a move) is in no move list.
        let Ok(Some((from, to, promo))) = PyMove::fields_of(m) else {
            return Ok(false);
        };
        let index = super::moves::move_index(from as usize, to as usize, promo);
        Ok(b.get().pseudo_indexes()?.contains(&index))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        match &self.board {
            Source::Board(b) => Ok(format!("<PseudoLegalMoveGenerator ({})>", b.get().sans(py, true)?.join(", "))),
            Source::Other(o) => Ok(format!("<PseudoLegalMoveGenerator of {}>", o.bind(py).repr()?)),
        }
    }
}

pub(crate) use super::squareset::PySquareSet;
