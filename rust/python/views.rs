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

/// Which moves a view lists.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Legal,
    PseudoLegal,
}

impl Kind {
    /// python-chess's generator and test of this kind, for a board-like object.
    fn methods(self) -> (&'static str, &'static str) {
        match self {
            Kind::Legal => ("generate_legal_moves", "is_legal"),
            Kind::PseudoLegal => ("generate_pseudo_legal_moves", "is_pseudo_legal"),
        }
    }

    fn class(self) -> &'static str {
        match self {
            Kind::Legal => "LegalMoveGenerator",
            Kind::PseudoLegal => "PseudoLegalMoveGenerator",
        }
    }
}

impl Source {
    fn of(obj: &Bound<'_, PyAny>) -> Source {
        match obj.cast::<PyBoard>() {
            Ok(b) => Source::Board(b.clone().unbind()),
            Err(_) => Source::Other(obj.clone().unbind()),
        }
    }

    fn iter<'py>(&self, py: Python<'py>, kind: Kind) -> PyResult<Bound<'py, PyIterator>> {
        match (self, kind) {
            (Source::Board(b), Kind::Legal) => b.get().legal_tuple(py)?.bind(py).try_iter(),
            (Source::Board(b), Kind::PseudoLegal) => {
                let indexes = b.get().pseudo_indexes()?;
                PyTuple::new(py, indexes.iter().map(|&i| interned(py, i)))?.try_iter()
            }
            (Source::Other(o), _) => listed(o.bind(py), kind.methods().0)?.try_iter(),
        }
    }

    /// `len()` of a Board's view (python-chess's generators have none: for another object
    /// it is a TypeError, so that `list(view)` walks the object's moves once).
    fn len(&self, kind: Kind) -> PyResult<usize> {
        match (self, kind) {
            (Source::Board(b), Kind::Legal) => b.get().legal_count(),
            (Source::Board(b), Kind::PseudoLegal) => Ok(b.get().pseudo_indexes()?.len()),
            (Source::Other(_), _) => {
                Err(PyTypeError::new_err("this move view of a board-like object has no len(); use count()"))
            }
        }
    }

    fn count(&self, py: Python<'_>, kind: Kind) -> PyResult<usize> {
        match self {
            Source::Board(_) => self.len(kind),
            Source::Other(o) => Ok(listed(o.bind(py), kind.methods().0)?.len()),
        }
    }

    fn contains(&self, py: Python<'_>, m: &Bound<'_, PyAny>, kind: Kind) -> PyResult<bool> {
        match (self, kind) {
            (Source::Board(b), Kind::Legal) => b.get().is_legal_move(py, m),
            (Source::Board(b), Kind::PseudoLegal) => {
                // A drop (or anything not a move) is in no move list.
                let Ok(Some(fields)) = PyMove::fields_of(m) else {
                    return Ok(false);
                };
                b.get().is_pseudo_legal_move(py, m, fields)
            }
            (Source::Other(o), _) => o.bind(py).call_method1(kind.methods().1, (m,))?.is_truthy(),
        }
    }

    fn repr(&self, py: Python<'_>, kind: Kind) -> PyResult<String> {
        match self {
            Source::Board(b) => {
                Ok(format!("<{} ({})>", kind.class(), b.get().sans(py, kind == Kind::PseudoLegal)?.join(", ")))
            }
            Source::Other(o) => Ok(format!("<{} of {}>", kind.class(), o.bind(py).repr()?)),
        }
    }
}

/// The moves an object's python-chess method gives, as a list (each call walks it once).
fn listed<'py>(obj: &Bound<'py, PyAny>, method: &str) -> PyResult<Bound<'py, PyList>> {
    PyList::new(obj.py(), obj.call_method0(method)?.try_iter()?.collect::<PyResult<Vec<_>>>()?)
}

/// The Python methods of a move view of `$kind`: both views are the same but for it.
macro_rules! view_methods {
    ($view:ident, $kind:expr, $attr:literal, $what:literal) => {
        #[pymethods]
        impl $view {
            #[doc = concat!("The view `board.", $attr, "` gives, as python-chess's generator class; any object")]
            #[doc = "with python-chess's generator and test methods will do."]
            #[new]
            fn new(board: &Bound<'_, PyAny>) -> Self {
                $view { board: Source::of(board) }
            }

            fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
                self.board.iter(py, $kind)
            }

            fn __len__(&self) -> PyResult<usize> {
                self.board.len($kind)
            }

            fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
                Ok(self.board.count(py, $kind)? > 0)
            }

            #[doc = concat!("The number of ", $what, " moves.")]
            fn count(&self, py: Python<'_>) -> PyResult<usize> {
                self.board.count(py, $kind)
            }

            #[doc = concat!("True when there is at least one ", $what, " move.")]
            fn any(&self, py: Python<'_>) -> PyResult<bool> {
                Ok(self.board.count(py, $kind)? > 0)
            }

            fn __contains__(&self, py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<bool> {
                self.board.contains(py, m, $kind)
            }

            fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
                self.board.repr(py, $kind)
            }
        }
    };
}

view_methods!(PyLegalMoves, Kind::Legal, "legal_moves", "legal");

/// The pseudo-legal moves of a board's current position (legal moves plus those that leave
/// the own king attacked), as python-chess's `pseudo_legal_moves`. Live like `legal_moves`.
#[pyclass(module = "kibitz", name = "PseudoLegalMoveGenerator", frozen)]
pub struct PyPseudoLegalMoves {
    pub(crate) board: Source,
}

view_methods!(PyPseudoLegalMoves, Kind::PseudoLegal, "pseudo_legal_moves", "pseudo-legal");

pub(crate) use super::squareset::PySquareSet;
