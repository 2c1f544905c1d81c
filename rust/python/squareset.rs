//! `kibitz.SquareSet`: python-chess's `SquareSet`, a mutable set of squares over a 64-bit
//! mask (a1 = bit 0), with its whole API and its semantics: built from an int (anything
//! with `__int__`, masked to 64 bits, so `~BB_E4` works) or from squares (list indexing
//! rules: -64..63, negative counting from h8); the set operators with an int or squares on
//! the right, the reflected ones with squares only (an int on the left is a TypeError, as
//! there); in-place updates; `remove`/`pop` raising KeyError; the subset comparisons of a
//! `collections.abc.Set`; unhashable, as a mutable set is. The board's `pieces()`,
//! `attackers()`, `attacks()`, `pin()` and `checkers()` return it.

use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyIterator, PyList, PyTuple};

const ALL: u64 = u64::MAX;

/// A set of squares.
#[pyclass(module = "kibitz", name = "SquareSet")]
pub struct PySquareSet {
    pub(crate) mask: u64,
}

/// A square argument as python-chess reads one (`BB_SQUARES[square]`): an index in
/// -64..=63, negative ones counted from the end; else IndexError, or TypeError for a
/// value that is not an index.
pub(crate) fn square_index(obj: &Bound<'_, PyAny>) -> PyResult<u32> {
    // A plain int (the common case) is read without calling its `__index__`.
    let value = match obj.cast::<PyInt>() {
        Ok(i) => i.extract::<i64>(),
        Err(_) => match obj.call_method0("__index__") {
            Ok(i) => i.extract::<i64>(),
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "list indices must be integers or slices, not {}",
                    obj.get_type().name()?
                )))
            }
        },
    };
    match value {
        Ok(i) if (0..64).contains(&i) => Ok(i as u32),
        Ok(i) if (-64..0).contains(&i) => Ok((i + 64) as u32),
        _ => Err(PyIndexError::new_err("list index out of range")),
    }
}

/// `SquareSet(obj)`'s mask: an int-like (anything with `__int__`, masked to 64 bits), else
/// an iterable of squares.
pub(crate) fn mask_of(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(s) = obj.cast::<PySquareSet>() {
        return Ok(s.borrow().mask);
    }
    if let Ok(m) = obj.extract::<u64>() {
        return Ok(m);
    }
    if obj.hasattr("__int__")? {
        let value = obj.call_method0("__int__")?;
        return value.bitand(ALL)?.extract::<u64>();
    }
    let mut mask = 0u64;
    for sq in obj.try_iter()? {
        mask |= 1 << square_index(&sq?)?;
    }
    Ok(mask)
}

fn squares_of(mask: u64) -> Vec<u32> {
    let mut out = Vec::with_capacity(mask.count_ones() as usize);
    let mut m = mask;
    while m != 0 {
        out.push(m.trailing_zeros());
        m &= m - 1;
    }
    out
}

fn flip_vertical(mask: u64) -> u64 {
    mask.swap_bytes()
}

/// The whole line through a and b (edge to edge) when aligned, else 0; and the squares
/// strictly between them.
fn line_through(a: u32, b: u32) -> u64 {
    if a == b {
        return 0;
    }
    let (fa, ra, fb, rb) = (a as i32 % 8, a as i32 / 8, b as i32 % 8, b as i32 / 8);
    let (df, dr) = (fb - fa, rb - ra);
    let (sf, sr) = if df == 0 {
        (0, 1)
    } else if dr == 0 {
        (1, 0)
    } else if df == dr {
        (1, 1)
    } else if df == -dr {
        (1, -1)
    } else {
        return 0;
    };
    let mut mask = 1u64 << a;
    for dir in [1, -1] {
        let (mut f, mut r) = (fa + dir * sf, ra + dir * sr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            mask |= 1 << (r * 8 + f);
            f += dir * sf;
            r += dir * sr;
        }
    }
    mask
}

fn between_mask(a: u32, b: u32) -> u64 {
    let line = line_through(a, b);
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    // Bits strictly above lo and strictly below hi.
    let span = (ALL << lo << 1) & !(ALL << hi);
    if line == 0 {
        0
    } else {
        line & span
    }
}

#[pymethods]
impl PySquareSet {
    #[new]
    #[pyo3(signature = (squares = None))]
    fn new(squares: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PySquareSet { mask: squares.map(mask_of).transpose()?.unwrap_or(0) })
    }

    /// The mask as an int.
    #[getter]
    fn mask(&self) -> u64 {
        self.mask
    }

    #[setter]
    fn set_mask(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask = value.bitand(ALL)?.extract()?;
        Ok(())
    }

    // ------------------------------------------------------------ the set

    fn __contains__(&self, square: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.mask & (1 << square_index(square)?) != 0)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyTuple::new(py, squares_of(self.mask))?.try_iter()
    }

    fn __reversed__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let mut squares = squares_of(self.mask);
        squares.reverse();
        PyTuple::new(py, squares)?.try_iter()
    }

    fn __len__(&self) -> usize {
        self.mask.count_ones() as usize
    }

    fn __bool__(&self) -> bool {
        self.mask != 0
    }

    fn add(&mut self, square: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask |= 1 << square_index(square)?;
        Ok(())
    }

    fn discard(&mut self, square: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask &= !(1 << square_index(square)?);
        Ok(())
    }

    /// Removes a square; KeyError when it is not in the set.
    fn remove(&mut self, square: &Bound<'_, PyAny>) -> PyResult<()> {
        let bit = 1 << square_index(square)?;
        if self.mask & bit == 0 {
            return Err(PyKeyError::new_err(square.clone().unbind()));
        }
        self.mask &= !bit;
        Ok(())
    }

    /// Removes and returns the lowest square; KeyError when the set is empty.
    fn pop(&mut self) -> PyResult<u32> {
        if self.mask == 0 {
            return Err(PyKeyError::new_err("pop from empty SquareSet"));
        }
        let square = self.mask.trailing_zeros();
        self.mask &= self.mask - 1;
        Ok(square)
    }

    fn clear(&mut self) {
        self.mask = 0;
    }

    fn copy(&self) -> Self {
        PySquareSet { mask: self.mask }
    }

    fn isdisjoint(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.mask & mask_of(other)? == 0)
    }

    fn issubset(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.mask & !mask_of(other)? == 0)
    }

    fn issuperset(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(!self.mask & mask_of(other)? == 0)
    }

    fn union(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: self.mask | mask_of(other)? })
    }

    fn intersection(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: self.mask & mask_of(other)? })
    }

    fn difference(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: self.mask & !mask_of(other)? })
    }

    fn symmetric_difference(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: self.mask ^ mask_of(other)? })
    }

    #[pyo3(signature = (*others))]
    fn update(&mut self, others: &Bound<'_, PyTuple>) -> PyResult<()> {
        for other in others.iter() {
            self.mask |= mask_of(&other)?;
        }
        Ok(())
    }

    #[pyo3(signature = (*others))]
    fn intersection_update(&mut self, others: &Bound<'_, PyTuple>) -> PyResult<()> {
        for other in others.iter() {
            self.mask &= mask_of(&other)?;
        }
        Ok(())
    }

    fn difference_update(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask &= !mask_of(other)?;
        Ok(())
    }

    fn symmetric_difference_update(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask ^= mask_of(other)?;
        Ok(())
    }

    // ------------------------------------------------------------ operators

    fn __or__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.union(other)
    }

    fn __and__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.intersection(other)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.difference(other)
    }

    fn __xor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.symmetric_difference(other)
    }

    fn __ior__(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask |= mask_of(other)?;
        Ok(())
    }

    fn __iand__(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask &= mask_of(other)?;
        Ok(())
    }

    fn __isub__(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask &= !mask_of(other)?;
        Ok(())
    }

    fn __ixor__(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask ^= mask_of(other)?;
        Ok(())
    }

    fn __lshift__(&self, shift: u32) -> Self {
        PySquareSet { mask: if shift >= 64 { 0 } else { self.mask << shift } }
    }

    fn __rshift__(&self, shift: u32) -> Self {
        PySquareSet { mask: if shift >= 64 { 0 } else { self.mask >> shift } }
    }

    fn __ilshift__(&mut self, shift: u32) {
        self.mask = if shift >= 64 { 0 } else { self.mask << shift };
    }

    fn __irshift__(&mut self, shift: u32) {
        self.mask = if shift >= 64 { 0 } else { self.mask >> shift };
    }

    fn __invert__(&self) -> Self {
        PySquareSet { mask: !self.mask }
    }

    fn __int__(&self) -> u64 {
        self.mask
    }

    fn __index__(&self) -> u64 {
        self.mask
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match mask_of(other) {
            Ok(m) => Ok((m == self.mask).into_pyobject(py)?.to_owned().into_any().unbind()),
            Err(e) if e.is_instance_of::<PyTypeError>(py) || e.is_instance_of::<pyo3::exceptions::PyValueError>(py) => {
                Ok(py.NotImplemented())
            }
            Err(e) => Err(e),
        }
    }

    fn __ne__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let eq = self.__eq__(py, other)?;
        if eq.is(py.NotImplemented()) {
            return Ok(eq);
        }
        let value: bool = eq.extract(py)?;
        Ok((!value).into_pyobject(py)?.to_owned().into_any().unbind())
    }

    // ------------------------------------------------------------ squares

    /// All subsets of the set, the empty one first (the carry-rippler).
    fn carry_rippler<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let mask = self.mask;
        let mut subsets = Vec::new();
        let mut subset = 0u64;
        loop {
            subsets.push(subset);
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        PyList::new(py, subsets)?.try_iter()
    }

    /// The set seen from the other side (ranks reversed).
    fn mirror(&self) -> Self {
        PySquareSet { mask: flip_vertical(self.mask) }
    }

    /// 64 booleans, one per square a1..h8.
    fn tolist(&self) -> Vec<bool> {
        (0..64).map(|s| self.mask & (1 << s) != 0).collect()
    }

    /// The line through two squares, edge to edge (empty when they are not aligned).
    #[classmethod]
    fn ray(_cls: &Bound<'_, pyo3::types::PyType>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: line_through(square_index(a)?, square_index(b)?) })
    }

    /// The squares strictly between two aligned squares (empty otherwise).
    #[classmethod]
    fn between(_cls: &Bound<'_, pyo3::types::PyType>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: between_mask(square_index(a)?, square_index(b)?) })
    }

    /// The set of one square.
    #[classmethod]
    fn from_square(_cls: &Bound<'_, pyo3::types::PyType>, square: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PySquareSet { mask: 1 << square_index(square)? })
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
        Ok((slf.get_type(), (slf.borrow().mask,)))
    }
}
