//! Views onto a board: `board.legal_moves` / `board.pseudo_legal_moves` (live: they always
//! answer for the board as it is now, like python-chess's generators) and `SquareSet`, the
//! set of squares `pieces()`, `attackers()`, `attacks()` and `checkers()` return.

use super::board::PyBoard;
use super::moves::{interned, PyMove};

use pyo3::exceptions::PyTypeError;
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
        let Some((from, to, promo)) = PyMove::fields_of(m)? else {
            return Ok(false);
        };
        let index = super::moves::move_index(from as usize, to as usize, promo);
        Ok(self.board.get().pseudo_indexes()?.contains(&index))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<PseudoLegalMoveGenerator ({})>", self.board.get().sans(py, true)?.join(", ")))
    }
}

/// A set of squares (python-chess's `SquareSet`): a 64-bit mask, a1 = bit 0. Iterates in
/// ascending square order; compares equal to an int mask, another SquareSet or a set of
/// squares; `|`, `&`, `-`, `^`, `~`, `int()`.
#[pyclass(module = "kibitz", name = "SquareSet", frozen)]
pub struct PySquareSet {
    pub(crate) mask: u64,
}

/// A mask from an int, a SquareSet or an iterable of squares (None when it is none of them).
fn mask_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    if let Ok(s) = obj.cast::<PySquareSet>() {
        return Ok(Some(s.get().mask));
    }
    if let Ok(m) = obj.extract::<u64>() {
        return Ok(Some(m));
    }
    if obj.hasattr("mask")? {
        if let Ok(m) = obj.getattr("mask")?.extract::<u64>() {
            return Ok(Some(m));
        }
    }
    let Ok(iter) = obj.try_iter() else {
        return Ok(None);
    };
    let mut mask = 0u64;
    for sq in iter {
        match sq?.extract::<u32>() {
            Ok(s) if s < 64 => mask |= 1 << s,
            _ => return Ok(None),
        }
    }
    Ok(Some(mask))
}

fn operand(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    mask_of(obj)?.ok_or_else(|| PyTypeError::new_err("expected a SquareSet, an int mask or squares"))
}

#[pymethods]
impl PySquareSet {
    #[new]
    #[pyo3(signature = (squares = None))]
    fn new(squares: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PySquareSet {
            mask: match squares {
                Some(s) => operand(s)?,
                None => 0,
            },
        })
    }

    /// The mask as an int.
    #[getter]
    fn mask(&self) -> u64 {
        self.mask
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let squares: Vec<u32> = (0..64).filter(|&s| self.mask & (1 << s) != 0).collect();
        PyTuple::new(py, squares)?.try_iter()
    }

    /// 64 booleans, one per square a1..h8 (python-chess's `tolist`).
    fn tolist(&self) -> Vec<bool> {
        (0..64).map(|s| self.mask & (1 << s) != 0).collect()
    }

    fn __len__(&self) -> usize {
        self.mask.count_ones() as usize
    }

    fn __bool__(&self) -> bool {
        self.mask != 0
    }

    fn __contains__(&self, square: &Bound<'_, PyAny>) -> bool {
        matches!(square.extract::<u32>(), Ok(s) if s < 64 && self.mask & (1 << s) != 0)
    }

    fn __int__(&self) -> u64 {
        self.mask
    }

    fn __index__(&self) -> u64 {
        self.mask
    }

    fn __hash__(&self) -> u64 {
        self.mask
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match mask_of(other)? {
            Some(m) => Ok((m == self.mask).into_pyobject(py)?.to_owned().into_any().unbind()),
            None => Ok(py.NotImplemented()),
        }
    }

    fn __or__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: self.mask | operand(other)? })
    }

    fn __and__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: self.mask & operand(other)? })
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: self.mask & !operand(other)? })
    }

    fn __xor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: self.mask ^ operand(other)? })
    }

    fn __ror__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.__or__(other)
    }

    fn __rand__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.__and__(other)
    }

    fn __rxor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.__xor__(other)
    }

    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: operand(other)? & !self.mask })
    }

    fn __invert__(&self) -> Self {
        PySquareSet { mask: !self.mask }
    }

    fn __repr__(&self) -> String {
        let h = format!("{:016x}", self.mask);
        format!("SquareSet(0x{}_{}_{}_{})", &h[0..4], &h[4..8], &h[8..12], &h[12..16])
    }

    /// An 8x8 grid of "1" (in the set) and "." with rank 8 on top, as python-chess prints it.
    fn __str__(&self) -> String {
        let mut s = String::with_capacity(128);
        for rank in (0..8).rev() {
            for file in 0..8 {
                s.push(if self.mask & (1 << (rank * 8 + file)) != 0 { '1' } else { '.' });
                if file < 7 {
                    s.push(' ');
                } else if rank > 0 {
                    s.push('\n');
                }
            }
        }
        s
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, pyo3::types::PyType>, (u64,))> {
        Ok((slf.get_type(), (slf.get().mask,)))
    }
}
