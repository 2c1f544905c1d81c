//! `kibitz.Move` and `kibitz.Piece`: small immutable values shaped like python-chess's.
//!
//! Every move a board hands out is one of 64 x 64 x 5 interned objects (from, to, promotion
//! none/N/B/R/Q), built once on first use: iterating `legal_moves` or popping a move costs a
//! reference count, never an allocation. A Move's hash is python-chess's
//! (`hash((from, to, promotion, drop))`), so kibitz and python-chess moves with the same fields
//! are equal, hash alike and mix in one set or dict.

use super::errors::{move_text_err, text, IllegalMoveError};
use crate::{sq120, sq64, square_name, Board as CoreBoard, Move as CoreMove};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyTuple, PyType};

/// Promotion letters by kind (PAWN = 1 .. KING = 6), as python-chess writes them (a pawn or
/// king promotion is never legal, but python-chess's Move holds one, and so does ours).
const PROMO_LETTERS: [&str; 7] = ["", "p", "n", "b", "r", "q", "k"];
/// The index of a Move outside the interned table: a promotion to a pawn or a king, or a
/// drop (python-chess's variants' `P@e4`); such moves are never legal on a kibitz board.
pub(crate) const NOT_INTERNED: u16 = u16::MAX;
/// The table slots per (from, to) pair: no promotion, then N, B, R, Q.
const PROMO_SLOTS: usize = 5;
/// The number of interned moves.
pub(crate) const TABLE_SIZE: usize = 64 * 64 * PROMO_SLOTS;

/// The table index of (from, to, promotion kind or 0), both squares 0..64.
#[inline(always)]
pub(crate) fn move_index(from: usize, to: usize, promo: u8) -> u16 {
    let slot = match promo {
        0 => 0,
        2..=5 => promo as usize - 1,
        // A promotion to a pawn or a king: no interned move, none of a board's moves.
        _ => return NOT_INTERNED,
    };
    ((from * 64 + to) * PROMO_SLOTS + slot) as u16
}

/// The table index of a core move as its UCI text names it in `board` (Chess960 castling as
/// king takes rook). `board` must be the position the move is played from.
#[inline(always)]
pub(crate) fn core_index(board: &CoreBoard, m: CoreMove) -> u16 {
    let to = if m.is_castle() { board.uci_target(m) } else { m.to() };
    move_index(SQ64[m.from()] as usize, SQ64[to] as usize, m.promo())
}

/// `sq64` as a table (mailbox cell -> 0..64; 0 for the border, which moves never name): the
/// index of every generated move is computed once per position, and a load beats two divisions.
pub(crate) const SQ64: [u8; 120] = {
    let mut t = [0u8; 120];
    let mut i = 0;
    while i < 64 {
        t[21 + (i % 8) + 10 * (i / 8)] = i as u8;
        i += 1;
    }
    t
};

/// A Move's constructor arguments: from, to, promotion, drop.
type MoveArgs = (u8, u8, Option<u8>, Option<u8>);

/// What `__reduce__` returns for pickling: the class and its constructor arguments.
pub(crate) type Reduced<'py, A> = (Bound<'py, PyType>, A);

/// A move from a square to a square, possibly a promotion (python-chess's `chess.Move`).
///
/// Immutable and hashable; equal to a `chess.Move` with the same fields.
#[pyclass(module = "kibitz", name = "Move", frozen)]
pub struct PyMove {
    pub(crate) from: u8,
    pub(crate) to: u8,
    /// Promotion kind PAWN..KING (1..6; only KNIGHT..QUEEN can be legal), or 0.
    pub(crate) promo: u8,
    /// Dropped piece kind PAWN..KING (1..6), or 0: python-chess's drops, parsed and written
    /// as it does, never legal here.
    pub(crate) drop: u8,
    /// Index into the interned table.
    pub(crate) index: u16,
    hash: isize,
}

/// Takes an object that holds no references to other Python objects (so it can never be part
/// of a reference cycle) out of the cycle collector's lists. PyO3 makes every pyclass a GC
/// type; without this, each full collection walks the 20,480 interned moves, which cost 9% of
/// the Python perft loop (measured with callgrind, start position depth 4).
pub(crate) fn untracked<T>(obj: Py<T>) -> Py<T> {
    // SAFETY: `obj` is a live object of a GC type; untracking an object is always allowed
    // (CPython's dealloc untracks only when still tracked).
    unsafe { pyo3::ffi::PyObject_GC_UnTrack(obj.as_ptr().cast()) };
    obj
}

static MOVES: std::sync::OnceLock<Vec<Py<PyMove>>> = std::sync::OnceLock::new();

/// The interned move objects, built on first use (a std OnceLock: its read is one atomic load,
/// and the build cannot race, since it holds the GIL throughout).
#[inline(always)]
pub(crate) fn move_table(py: Python<'_>) -> &'static [Py<PyMove>] {
    match MOVES.get() {
        Some(t) => t,
        None => build_table(py),
    }
}

#[cold]
fn build_table(py: Python<'_>) -> &'static [Py<PyMove>] {
    let mut t = Vec::with_capacity(TABLE_SIZE);
    for from in 0..64u8 {
        for to in 0..64u8 {
            for promo in [0u8, 2, 3, 4, 5] {
                let m = PyMove::build(py, from, to, promo).expect("hashing a tuple of ints cannot fail");
                t.push(untracked(Py::new(py, m).expect("allocating a Move")));
            }
        }
    }
    let _ = MOVES.set(t);
    MOVES.get().expect("just set")
}

/// The interned Move of a table index.
#[inline(always)]
pub(crate) fn interned(py: Python<'_>, index: u16) -> Py<PyMove> {
    let p = interned_ptr(py, index);
    // SAFETY: `interned_ptr` gave a new (strong) reference to a live Move.
    unsafe { Bound::from_owned_ptr(py, p).cast_into_unchecked::<PyMove>() }.unbind()
}

/// `p` as a new reference, its count raised inline, as the C headers of the stable ABI for
/// Python 3.10 and 3.11 do it (`Py_INCREF` was a macro there; PEP 683 keeps that valid on later
/// versions, immortal objects included) rather than through `Py_IncRef`, a call PyO3 makes
/// under the stable ABI: for the objects the Python search loop returns at every node (the
/// interned Moves of a listing and of `pop`, the None of `push`).
///
/// # Safety
/// `p` is a live object.
#[inline(always)]
pub(crate) unsafe fn new_ref_inline(_py: Python<'_>, p: *mut pyo3::ffi::PyObject) -> *mut pyo3::ffi::PyObject {
    // SAFETY: `_py` proves the GIL is held (the module is built for the stable ABI, which no
    // free-threaded interpreter loads), so no other thread touches the count; the caller
    // vouches that `p` is live.
    unsafe { (*p).ob_refcnt += 1 };
    p
}

/// A new reference to the interned Move of a table index, as a raw pointer (for filling a
/// tuple); one of these per legal move listed and per `pop`.
#[inline(always)]
pub(crate) fn interned_ptr(py: Python<'_>, index: u16) -> *mut pyo3::ffi::PyObject {
    // SAFETY: the table keeps every interned Move alive.
    unsafe { new_ref_inline(py, move_table(py)[index as usize].as_ptr()) }
}

/// The interned Move of a core move in `board` (the position it is played from); the null
/// move is Move.null().
pub(crate) fn to_py_move(py: Python<'_>, board: &CoreBoard, m: CoreMove) -> Py<PyMove> {
    if m.is_null() {
        return interned(py, 0);
    }
    interned(py, core_index(board, m))
}

/// The Move objects of the moves played on `board`, oldest first.
pub(crate) fn history_py_moves<'a>(
    py: Python<'a>,
    board: &'a CoreBoard,
) -> impl DoubleEndedIterator<Item = Py<PyMove>> + ExactSizeIterator + 'a {
    board.history_with_uci_targets().map(move |(m, to)| history_py_move(py, m, to))
}

/// The interned Move of one item of `history_with_uci_targets`.
pub(crate) fn history_py_move(py: Python<'_>, m: CoreMove, to: usize) -> Py<PyMove> {
    if m.is_null() {
        interned(py, 0)
    } else {
        interned(py, move_index(SQ64[m.from()] as usize, SQ64[to] as usize, m.promo()))
    }
}

fn kind_or_none(what: &str, kind: Option<i64>) -> PyResult<u8> {
    match kind {
        // python-chess tests the field with `if`: 0 is no promotion (no drop), as None is.
        None | Some(0) => Ok(0),
        Some(p @ 1..=6) => Ok(p as u8),
        Some(p) => {
            Err(PyValueError::new_err(format!("{what} must be None or a piece type PAWN..KING (1..6), got {p}")))
        }
    }
}

fn promo_arg(promotion: Option<i64>) -> PyResult<u8> {
    kind_or_none("promotion", promotion)
}

/// The Move object of (from, to, promotion, drop): the interned one when there is one.
pub(crate) fn make_move_object(py: Python<'_>, from: u8, to: u8, promo: u8, drop: u8) -> PyResult<Py<PyMove>> {
    if drop == 0 && promo != 1 && promo != 6 {
        return Ok(interned(py, move_index(from as usize, to as usize, promo)));
    }
    Ok(untracked(Py::new(py, PyMove::build_with_drop(py, from, to, promo, drop)?)?))
}

fn square_arg(what: &str, sq: i64) -> PyResult<u8> {
    if (0..64).contains(&sq) {
        Ok(sq as u8)
    } else {
        Err(PyValueError::new_err(format!("{what} must be a square 0..63, got {sq}")))
    }
}

/// The name of a square 0..64 ("a1".."h8").
pub(crate) fn name64(sq: u8) -> String {
    square_name(sq120(sq as usize % 8, sq as usize / 8))
}

/// A drop's code in `State::via` (the move a board played by other rules than the core's,
/// kibitz.variant.boards' Crazyhouse): from and to its square, the promotion field this
/// plus the dropped piece's kind.
pub(crate) const VIA_DROP: u8 = 8;

impl PyMove {
    /// The Move a `via` code names: the interned one when the table has it, else a new one
    /// (a promotion to a king, a drop).
    pub(crate) fn from_via(py: Python<'_>, (from, to, code): (u8, u8, u8)) -> PyResult<Py<PyMove>> {
        if code >= VIA_DROP {
            return Py::new(py, PyMove::build_with_drop(py, from, to, 0, code - VIA_DROP)?);
        }
        let index = move_index(from as usize, to as usize, code);
        if index == NOT_INTERNED {
            return Py::new(py, PyMove::build_with_drop(py, from, to, code, 0)?);
        }
        Ok(interned(py, index))
    }

    /// The `via` code of any move-like object, drops included; None for objects that are not
    /// moves.
    pub(crate) fn via_code(obj: &Bound<'_, PyAny>) -> PyResult<Option<(u8, u8, u8)>> {
        if let Ok(m) = obj.cast::<PyMove>() {
            let m = m.get();
            return Ok(Some(if m.drop != 0 { (m.to, m.to, VIA_DROP + m.drop) } else { (m.from, m.to, m.promo) }));
        }
        if let Ok(d) = obj.getattr("drop") {
            if !d.is_none() {
                let kind: u8 = d.extract()?;
                let to: u8 = obj.getattr("to_square")?.extract()?;
                if !(1..=6).contains(&kind) || to >= 64 {
                    return Err(PyValueError::new_err(format!("not a drop: piece type {kind} to square {to}")));
                }
                return Ok(Some((to, to, VIA_DROP + kind)));
            }
        }
        PyMove::foreign_fields(obj)
    }

    fn build(py: Python<'_>, from: u8, to: u8, promo: u8) -> PyResult<PyMove> {
        let mut m = PyMove::build_with_drop(py, from, to, promo, 0)?;
        m.index = move_index(from as usize, to as usize, promo);
        Ok(m)
    }

    fn build_with_drop(py: Python<'_>, from: u8, to: u8, promo: u8, drop: u8) -> PyResult<PyMove> {
        let some = |k: u8| if k == 0 { None } else { Some(k) };
        let hash = PyTuple::new(
            py,
            [
                from.into_pyobject(py)?.into_any(),
                to.into_pyobject(py)?.into_any(),
                some(promo).into_pyobject(py)?,
                some(drop).into_pyobject(py)?,
            ],
        )?
        .hash()?;
        Ok(PyMove { from, to, promo, drop, index: NOT_INTERNED, hash })
    }

    /// True for the null move (0000).
    pub(crate) fn is_null(&self) -> bool {
        self.from == 0 && self.to == 0 && self.promo == 0 && self.drop == 0
    }

    /// The UCI text (python-chess's: "e2e4", "e7e8q", "P@e4" for a drop, "0000").
    pub(crate) fn text(&self) -> String {
        if self.drop != 0 {
            return format!("{}@{}", PROMO_LETTERS[self.drop as usize].to_ascii_uppercase(), name64(self.to));
        }
        if self.is_null() {
            return "0000".into();
        }
        format!("{}{}{}", name64(self.from), name64(self.to), PROMO_LETTERS[self.promo as usize])
    }

    /// Parses UCI text ("e2e4", "e7e8q", "0000") into (from, to, promotion).
    pub(crate) fn parse(text: &str) -> PyResult<(u8, u8, u8)> {
        let (from, to, promo, drop) = PyMove::parse_full(text)?;
        if drop != 0 {
            return Err(IllegalMoveError::new_err(format!("{text:?} is a drop, not a move of standard chess")));
        }
        Ok((from, to, promo))
    }

    /// UCI text as python-chess's `Move.from_uci` reads it: (from, to, promotion, drop).
    pub(crate) fn parse_full(text: &str) -> PyResult<(u8, u8, u8, u8)> {
        if text == "0000" {
            return Ok((0, 0, 0, 0));
        }
        let kind_of_letter = |c: u8| PROMO_LETTERS.iter().position(|l| l.as_bytes() == [c]).map(|k| k as u8);
        if text.len() == 4 && text.as_bytes()[1] == b'@' && text.is_ascii() {
            let drop = kind_of_letter(text.as_bytes()[0].to_ascii_lowercase());
            let sq = crate::parse_square(&text[2..4]).map(|c| sq64(c) as u8);
            return match (drop, sq) {
                (Some(d), Some(sq)) if d > 0 => Ok((sq, sq, 0, d)),
                _ => Err(move_text_err(format!("invalid UCI move {text:?}: a drop is like P@e4"))),
            };
        }
        let invalid = |why: &str| move_text_err(format!("invalid UCI move {text:?}: {why}"));
        if !text.is_ascii() || !(text.len() == 4 || text.len() == 5) {
            return Err(invalid("expected 4 or 5 characters like e2e4 or e7e8q"));
        }
        let sq = |s: &str| crate::parse_square(s).map(|c| sq64(c) as u8);
        let from = sq(&text[0..2]).ok_or_else(|| invalid("the from-square is not a1..h8"))?;
        let to = sq(&text[2..4]).ok_or_else(|| invalid("the to-square is not a1..h8"))?;
        let promo = match text.as_bytes().get(4) {
            None => 0,
            Some(&c) => match kind_of_letter(c) {
                Some(k) if k > 0 => k,
                _ => return Err(invalid("the promotion piece must be one of q, r, b, n (or p, k)")),
            },
        };
        if from == to {
            return Err(invalid("from- and to-square are the same (the null move is 0000)"));
        }
        Ok((from, to, promo, 0))
    }

    /// The dropped piece's kind of a drop (a kibitz Move or an object with python-chess's
    /// `drop` field), None for anything else.
    pub(crate) fn drop_of(obj: &Bound<'_, PyAny>) -> Option<u8> {
        if let Ok(m) = obj.cast::<PyMove>() {
            return (m.get().drop != 0).then_some(m.get().drop);
        }
        obj.getattr("drop").ok().and_then(|d| d.extract::<u8>().ok()).filter(|&d| d != 0)
    }

    /// (from, to, promotion kind or 0) of any move-like object: a kibitz Move, or an object
    /// with python-chess's fields (`from_square`, `to_square`, `promotion`, `drop` None).
    /// Returns None for objects that are not moves.
    pub(crate) fn fields_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<(u8, u8, u8)>> {
        if let Ok(m) = obj.cast::<PyMove>() {
            let m = m.get();
            if m.drop != 0 {
                return Err(IllegalMoveError::new_err("drops are not moves of standard chess"));
            }
            return Ok(Some((m.from, m.to, m.promo)));
        }
        if let Ok(d) = obj.getattr("drop") {
            if !d.is_none() {
                return Err(IllegalMoveError::new_err("drops are not moves of standard chess"));
            }
        }
        PyMove::foreign_fields(obj)
    }

    /// (from, to, promotion kind or 0) of an object with python-chess's Move fields (its
    /// drop not looked at), or None when it has none.
    fn foreign_fields(obj: &Bound<'_, PyAny>) -> PyResult<Option<(u8, u8, u8)>> {
        let (Ok(f), Ok(t), Ok(p)) = (obj.getattr("from_square"), obj.getattr("to_square"), obj.getattr("promotion"))
        else {
            return Ok(None);
        };
        let from = square_arg("from_square", f.extract()?)?;
        let to = square_arg("to_square", t.extract()?)?;
        let promo = promo_arg(p.extract()?)?;
        Ok(Some((from, to, promo)))
    }
}

#[pymethods]
impl PyMove {
    /// python-chess's dataclass fields, in order, for `case Move(from_square, to_square)`.
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str, &'static str, &'static str) {
        ("from_square", "to_square", "promotion", "drop")
    }

    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None, drop = None))]
    fn new(
        py: Python<'_>,
        from_square: i64,
        to_square: i64,
        promotion: Option<i64>,
        drop: Option<i64>,
    ) -> PyResult<Py<PyMove>> {
        let from = square_arg("from_square", from_square)?;
        let to = square_arg("to_square", to_square)?;
        let promo = promo_arg(promotion)?;
        let drop = kind_or_none("drop", drop)?;
        make_move_object(py, from, to, promo, drop)
    }

    /// The square the piece moves from (0..63). (python-chess's name, not a conversion.)
    #[getter]
    #[allow(clippy::wrong_self_convention)]
    fn from_square(&self) -> u8 {
        self.from
    }

    /// The square the piece moves to (0..63; in Chess960 castling, the rook's square).
    #[getter]
    fn to_square(&self) -> u8 {
        self.to
    }

    /// The promotion piece type (PAWN..KING; only KNIGHT..QUEEN can be legal) or None.
    #[getter]
    fn promotion(&self) -> Option<u8> {
        if self.promo == 0 {
            None
        } else {
            Some(self.promo)
        }
    }

    /// The dropped piece type of a drop (python-chess's, for variants kibitz does not play:
    /// never legal here), else None.
    #[getter]
    fn drop(&self) -> Option<u8> {
        if self.drop == 0 {
            None
        } else {
            Some(self.drop)
        }
    }

    /// The move in XBoard notation: its UCI text, "@@@@" for the null move.
    fn xboard(&self) -> String {
        if self.is_null() {
            "@@@@".into()
        } else {
            self.text()
        }
    }

    /// The UCI text, e.g. "e2e4", "e7e8q", "0000" for the null move.
    fn uci(&self) -> String {
        self.text()
    }

    /// Parses UCI text into a Move (InvalidMoveError when malformed).
    #[classmethod]
    fn from_uci(_cls: &Bound<'_, PyType>, py: Python<'_>, uci: Bound<'_, PyString>) -> PyResult<Py<PyMove>> {
        let text = text(&uci, "move", move_text_err)?;
        let (from, to, promo, drop) = PyMove::parse_full(&text)?;
        make_move_object(py, from, to, promo, drop)
    }

    /// The null move (0000), which passes the turn.
    #[classmethod]
    fn null(_cls: &Bound<'_, PyType>, py: Python<'_>) -> Py<PyMove> {
        interned(py, 0)
    }

    fn __bool__(&self) -> bool {
        !self.is_null()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.text())
    }

    fn __hash__(&self) -> isize {
        self.hash
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let fields = if let Ok(m) = other.cast::<PyMove>() {
            let m = m.get();
            Some((m.from, m.to, m.promo, m.drop))
        } else {
            let drop = match other.getattr("drop") {
                Ok(d) if d.is_none() => 0,
                Ok(d) => match d.extract::<i64>() {
                    Ok(k @ 1..=6) => k as u8,
                    _ => return Ok(py.NotImplemented()),
                },
                Err(_) => return Ok(py.NotImplemented()),
            };
            match PyMove::foreign_fields(other) {
                Ok(Some((f, t, p))) => Some((f, t, p, drop)),
                _ => None,
            }
        };
        match fields {
            Some(f) => {
                Ok((f == (self.from, self.to, self.promo, self.drop)).into_pyobject(py)?.to_owned().into_any().unbind())
            }
            None => Ok(py.NotImplemented()),
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py, MoveArgs>> {
        let m = slf.get();
        Ok((slf.get_type(), (m.from, m.to, m.promotion(), m.drop())))
    }

    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// Unicode chess symbols, white then black, by kind (PAWN = 1 .. KING = 6), as python-chess.
const UNICODE: [[&str; 7]; 2] = [["", "♙", "♘", "♗", "♖", "♕", "♔"], ["", "♟", "♞", "♝", "♜", "♛", "♚"]];
const SYMBOLS: [u8; 7] = *b" pnbrqk";

/// A piece with type and colour (python-chess's `chess.Piece`). Immutable; equal to a
/// `chess.Piece` with the same fields.
#[pyclass(module = "kibitz", name = "Piece", frozen)]
pub struct PyPiece {
    kind: u8,
    white: bool,
}

impl PyPiece {
    /// The piece code (`kind | colour << 3`) of this piece.
    pub(crate) fn code(&self) -> u8 {
        crate::make_piece(self.kind, if self.white { crate::WHITE } else { crate::BLACK })
    }
}

static PIECES: PyOnceLock<Vec<Py<PyPiece>>> = PyOnceLock::new();

/// The interned Piece of a kind (1..6) and colour.
pub(crate) fn piece(py: Python<'_>, kind: u8, white: bool) -> Py<PyPiece> {
    let t = PIECES.get_or_init(py, || {
        (0..12u8)
            .map(|i| untracked(Py::new(py, PyPiece { kind: i % 6 + 1, white: i < 6 }).expect("allocating a Piece")))
            .collect()
    });
    t[(kind as usize - 1) + if white { 0 } else { 6 }].clone_ref(py)
}

fn kind_arg(kind: i64) -> PyResult<u8> {
    if (1..=6).contains(&kind) {
        Ok(kind as u8)
    } else {
        Err(PyValueError::new_err(format!("piece_type must be PAWN..KING (1..6), got {kind}")))
    }
}

/// A colour argument as python-chess takes one: `WHITE`/`BLACK` (True/False) or the ints 1/0
/// (python-chess indexes its per-colour lists with it, so `board.king(0)` works there).
#[derive(Clone, Copy)]
pub(crate) struct ColorArg(pub(crate) bool);

/// A yes/no argument as python-chess takes one: any object, by its truth value (`0`, `1`,
/// `None` and NumPy's booleans as well as `True` and `False`), where python-chess tests it
/// with `if`.
#[derive(Clone, Copy)]
pub(crate) struct Flag(pub(crate) bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Flag {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Flag(obj.is_truthy()?))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for ColorArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(b) = obj.extract::<bool>() {
            return Ok(ColorArg(b));
        }
        match obj.extract::<i64>() {
            Ok(0) => Ok(ColorArg(false)),
            Ok(1) => Ok(ColorArg(true)),
            Ok(n) => Err(PyValueError::new_err(format!("a colour is WHITE (True, 1) or BLACK (False, 0), not {n}"))),
            Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "a colour is WHITE (True, 1) or BLACK (False, 0), not a {}",
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))),
        }
    }
}

#[pymethods]
impl PyPiece {
    /// python-chess's dataclass fields, in order, for `case Piece(piece_type, color)`.
    #[classattr]
    fn __match_args__() -> (&'static str, &'static str) {
        ("piece_type", "color")
    }

    /// `Piece(piece_type, color)`; a colour of None is Black, as python-chess's falsy colour.
    #[new]
    fn new(py: Python<'_>, piece_type: i64, color: Option<ColorArg>) -> PyResult<Py<PyPiece>> {
        let color = color.is_some_and(|c| c.0);
        Ok(piece(py, kind_arg(piece_type)?, color))
    }

    /// PAWN..KING (1..6).
    #[getter]
    fn piece_type(&self) -> u8 {
        self.kind
    }

    /// WHITE (True) or BLACK (False).
    #[getter]
    fn color(&self) -> bool {
        self.white
    }

    /// "P", "N", ... for White, "p", "n", ... for Black.
    fn symbol(&self) -> String {
        let c = SYMBOLS[self.kind as usize] as char;
        if self.white {
            c.to_ascii_uppercase().to_string()
        } else {
            c.to_string()
        }
    }

    /// The Unicode chess symbol (colours swapped with `invert_color`).
    #[pyo3(signature = (*, invert_color = Flag(false)), text_signature = "($self, /, *, invert_color=False)")]
    fn unicode_symbol(&self, invert_color: Flag) -> &'static str {
        UNICODE[usize::from(self.white == invert_color.0)][self.kind as usize]
    }

    /// The Piece of a symbol "P", "n", ... (ValueError for anything else).
    #[classmethod]
    fn from_symbol(_cls: &Bound<'_, PyType>, py: Python<'_>, symbol: &str) -> PyResult<Py<PyPiece>> {
        let b = symbol.as_bytes();
        let kind = match b {
            [c] => SYMBOLS.iter().position(|&s| s == c.to_ascii_lowercase() && s != b' '),
            _ => None,
        };
        match kind {
            Some(k) => Ok(piece(py, k as u8, b[0].is_ascii_uppercase())),
            None => {
                Err(PyValueError::new_err(format!("not a piece symbol: {symbol:?} (expected one of PNBRQK pnbrqk)")))
            }
        }
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.symbol())
    }

    /// python-chess's hash of a Piece.
    fn __hash__(&self) -> isize {
        self.kind as isize + if self.white { -1 } else { 5 }
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let fields = match other.cast::<PyPiece>() {
            Ok(p) => Some((p.get().kind as i64, p.get().white)),
            Err(_) => match (other.getattr("piece_type"), other.getattr("color")) {
                (Ok(k), Ok(c)) => k.extract::<i64>().ok().zip(c.extract::<bool>().ok()),
                _ => None,
            },
        };
        match fields {
            Some(f) => Ok((f == (self.kind as i64, self.white)).into_pyobject(py)?.to_owned().into_any().unbind()),
            None => Ok(py.NotImplemented()),
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, (u8, bool))> {
        Ok((slf.get_type(), (slf.get().kind, slf.get().white)))
    }
}
