//! Views onto a board: `board.legal_moves` / `board.pseudo_legal_moves` (live: they always
//! answer for the board as it is now, like python-chess's generators).

use super::board::PyBoard;
use super::moves::{interned, PyMove};

use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyTuple};

/// The legal (or pseudo-legal) moves of a board's current position: iterate for `Move`
/// objects, `len`, `in` (a kibitz or python-chess Move, or UCI text), `count()`, `any()`.
/// Live: it reads the board at each use, so one view stays right as the board changes.
#[pyclass(module = "kibitz", name = "LegalMoveGenerator", frozen)]
pub struct PyLegalMoves {
    pub(crate) board: Py<PyBoard>,
}

#[pymethods]
impl PyLegalMoves {
    /// `LegalMoveGenerator(board)`, as python-chess's (the same view as `board.legal_moves`).
    #[new]
    fn new(board: Py<PyBoard>) -> Self {
        PyLegalMoves { board }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.board.get().legal_tuple(py)?.bind(py).try_iter()
    }

    fn __len__(&self) -> PyResult<usize> {
        self.board.get().legal_count()
    }

    fn __bool__(&self) -> PyResult<bool> {
        Ok(self.board.get().legal_count()? > 0)
    }

    /// The number of legal moves.
    fn count(&self) -> PyResult<usize> {
        self.board.get().legal_count()
    }

    /// True when there is at least one legal move.
    fn any(&self) -> PyResult<bool> {
        Ok(self.board.get().legal_count()? > 0)
    }

    fn __contains__(&self, py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.board.get().is_legal_move(py, m)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<LegalMoveGenerator ({})>", self.board.get().sans(py, false)?.join(", ")))
    }
}

/// The pseudo-legal moves of a board's current position (legal moves plus those that leave
/// the own king attacked), as python-chess's `pseudo_legal_moves`. Live like `legal_moves`.
#[pyclass(module = "kibitz", name = "PseudoLegalMoveGenerator", frozen)]
pub struct PyPseudoLegalMoves {
    pub(crate) board: Py<PyBoard>,
}

#[pymethods]
impl PyPseudoLegalMoves {
    /// `PseudoLegalMoveGenerator(board)`, as python-chess's.
    #[new]
    fn new(board: Py<PyBoard>) -> Self {
        PyPseudoLegalMoves { board }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let indexes = self.board.get().pseudo_indexes()?;
        PyTuple::new(py, indexes.iter().map(|&i| interned(py, i)))?.try_iter()
    }

    fn __len__(&self) -> PyResult<usize> {
        Ok(self.board.get().pseudo_indexes()?.len())
    }

    fn __bool__(&self) -> PyResult<bool> {
        Ok(!self.board.get().pseudo_indexes()?.is_empty())
    }

    /// The number of pseudo-legal moves.
    fn count(&self) -> PyResult<usize> {
        Ok(self.board.get().pseudo_indexes()?.len())
    }

    /// True when there is at least one pseudo-legal move.
    fn any(&self) -> PyResult<bool> {
        Ok(!self.board.get().pseudo_indexes()?.is_empty())
    }

    fn __contains__(&self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        // A drop (or anything not a move) is in no move list.
        let Ok(Some((from, to, promo))) = PyMove::fields_of(m) else {
            return Ok(false);
        };
        let index = super::moves::move_index(from as usize, to as usize, promo);
        Ok(self.board.get().pseudo_indexes()?.contains(&index))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<PseudoLegalMoveGenerator ({})>", self.board.get().sans(py, true)?.join(", ")))
    }
}

pub(crate) use super::squareset::PySquareSet;
