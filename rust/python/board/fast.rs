//! push, pop and copy as plain CPython methods (METH_O / METH_NOARGS / METH_FASTCALL), installed on the
//! class at import: the calls of every node of a Python search loop, kept off PyO3's
//! generic wrapper. The safety argument of each raw function is beside it.

use super::super::errors::raw_return;
use super::lifecycle::{self, BOARD_TYPE};
use super::*;

// ---- push and pop: the two calls of every node of a Python search loop ----
//
// They are installed on the class as plain CPython methods (METH_O / METH_NOARGS) instead of
// through #[pymethods]: PyO3's generic wrapper (argument parsing for keywords, GIL-count
// bookkeeping in thread-local storage) cost about 170 of the 600 instructions of a
// push/pop pair (callgrind, start position depth 4), which decided the comparison with
// bulletchess. The bodies are ordinary safe Rust; only the entry points are raw.

impl PyBoard {
    /// `push`'s work: resolve the move (fast path: a kibitz Move against the cached list) and play it.
    fn push_impl(&self, m: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut st = self.st_attached(m.py())?;
        // Fast path: an interned kibitz Move (exact type, compared by pointer) found in the
        // current position's cached list, at the hint or by a scan.
        // SAFETY: `m` is a live object; reading its type pointer is always valid.
        if unsafe { pyo3::ffi::Py_TYPE(m.as_ptr()) } == MOVE_TYPE.load(Ordering::Relaxed) {
            // SAFETY: its type is exactly Move.
            let index = unsafe { m.cast_unchecked::<PyMove>() }.get().index;
            let (ply, key) = (st.core.ply(), st.core.key());
            if let Some(e) = st.cache.get_mut(ply).filter(|e| e.valid && e.key == key) {
                if let Some(i) = e.find(index) {
                    st.pending = Some((e.moves[i], index));
                    return Ok(());
                }
            }
            // The move parse_san has just found here.
            if let Some((key, ply, i, mv)) = st.parsed.take() {
                if i == index && key == st.core.key() && ply == st.core.ply() {
                    st.pending = Some((mv, index));
                    return Ok(());
                }
            }
            // A move played without the list at hand (replaying a game, a line).
            // SAFETY: as above.
            if let Some(mv) = st.quick_move(unsafe { m.cast_unchecked::<PyMove>() }.get()) {
                st.pending = Some((mv, index));
                return Ok(());
            }
        }
        let mv = match st.resolve(m, true) {
            Ok(mv) => mv,
            // python-chess plays what it is given (pseudo-legal moves, the null move in check,
            // moves in positions kibitz cannot play): so does push, keeping the board before.
            Err(refused)
                if refused.is_instance_of::<IllegalMoveError>(m.py())
                    || refused.is_instance_of::<InvalidPositionError>(m.py()) =>
            {
                let fields = PyMove::fields_of(m).ok().flatten();
                return st.push_lenient(fields, refused);
            }
            Err(e) => return Err(e),
        };
        st.play(mv);
        Ok(())
    }

    /// `pop`'s work: take back the last move and return it as an interned Move.
    fn pop_impl(&self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        let mut st = self.st_pending(py)?;
        // A move pushed and not yet made: dropping it is the whole take-back.
        if let Some((_, index)) = st.pending.take() {
            return Ok(interned(py, index));
        }
        // At the root of an assigned position: back to the board before the assignment.
        // At the root of the core's history: back past attribute assignments to the board
        // before, and past a move the core could not play (taking it back is going back).
        while st.core.ply() == 0 {
            let Some(b) = st.before.take() else { break };
            // python-chess's pop restores the position, not the Chess960 flag.
            let chess960 = st.core.is_chess960();
            let via = st.via.take();
            *st = *b;
            if st.core.is_chess960() != chess960 {
                st.core.chess960 = chess960;
            }
            if let Some(code) = via {
                return PyMove::from_via(py, code);
            }
        }
        let ply = st.core.ply();
        if let Some(e) = st.cache.get_mut(ply) {
            e.valid = false;
            // Dropped as a Bound: a direct decref (a Py<T> drop outside PyO3's own entry points
            // would be deferred to its reference pool).
            if let Some(t) = e.tuple.take() {
                drop(t.into_bound(py));
            }
        }
        match st.core.unmake_move() {
            Some(m) => Ok(to_py_move(py, &st.core, m)),
            None => Err(PyIndexError::new_err("pop from a board with no moves played")),
        }
    }
}

/// Runs a method body for CPython: a Python error is raised, a panic becomes PanicException.
///
/// # Safety
/// Called by CPython with the GIL held and `slf` a live `Board`.
unsafe fn call_raw(
    slf: *mut pyo3::ffi::PyObject,
    body: impl FnOnce(Python<'_>, &PyBoard) -> PyResult<*mut pyo3::ffi::PyObject>,
) -> *mut pyo3::ffi::PyObject {
    // SAFETY: CPython calls methods with the GIL held (the caller's contract).
    let py = unsafe { Python::assume_attached() };
    // SAFETY: the method is installed on the Board type only, so `slf` is a Board; CPython
    // keeps it alive during the call (borrowed, no reference counting).
    let board = unsafe { pyo3::Borrowed::from_ptr(py, slf).cast_unchecked::<PyBoard>() };
    let board: &PyBoard = board.get();
    raw_return(py, std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(py, board))))
}

unsafe extern "C" fn push_raw(
    slf: *mut pyo3::ffi::PyObject,
    arg: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    // SAFETY: METH_O: CPython passes a live borrowed argument, with the GIL held.
    unsafe {
        call_raw(slf, |py, board| {
            let m = pyo3::Borrowed::from_ptr(py, arg);
            board.push_impl(&m)?;
            // SAFETY: None lives as long as the interpreter.
            Ok(new_ref_inline(py, pyo3::ffi::Py_None()))
        })
    }
}

unsafe extern "C" fn pop_raw(slf: *mut pyo3::ffi::PyObject, _: *mut pyo3::ffi::PyObject) -> *mut pyo3::ffi::PyObject {
    // SAFETY: METH_NOARGS, GIL held.
    unsafe { call_raw(slf, |py, board| Ok(board.pop_impl(py)?.into_ptr())) }
}

/// `copy(*, stack=None)`: METH_FASTCALL | METH_KEYWORDS, so the common `copy()` comes with
/// no argument array to read and skips PyO3's argument parsing (a third of the call).
unsafe extern "C" fn copy_raw(
    slf: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargs: pyo3::ffi::Py_ssize_t,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    // SAFETY: METH_FASTCALL | METH_KEYWORDS: `args` holds `nargs` positional arguments followed
    // by one value for each name in the tuple `kwnames` (null when there are none), all live
    // and borrowed for the call; the GIL is held.
    unsafe {
        call_raw(slf, |py, board| {
            // `copy()` of an exact board: the copy is written straight into its new object.
            if nargs == 0 && kwnames.is_null() && pyo3::ffi::Py_TYPE(slf) == BOARD_TYPE.load(Ordering::Relaxed) {
                if let Some(obj) = lifecycle::copy_exact(py, board)? {
                    return Ok(obj);
                }
            }
            if nargs != 0 {
                return Err(PyTypeError::new_err(format!(
                    "copy() takes 0 positional arguments but {nargs} were given"
                )));
            }
            let mut stack = None;
            if !kwnames.is_null() {
                let names = pyo3::Borrowed::from_ptr(py, kwnames).cast_unchecked::<PyTuple>();
                for (i, k) in names.iter().enumerate() {
                    if k.extract::<&str>().ok() != Some("stack") {
                        return Err(PyTypeError::new_err(format!(
                            "copy() got an unexpected keyword argument {}",
                            k.repr()?
                        )));
                    }
                    stack = Some(pyo3::Borrowed::from_ptr(py, *args.add(i)));
                }
            }
            let keep = match stack {
                None => usize::MAX,
                // python-chess tests `stack` with `if`: None keeps no moves, as False does.
                Some(s) if s.is_none() => 0,
                Some(s) if s.is_instance_of::<pyo3::types::PyBool>() => {
                    if s.extract::<bool>()? {
                        usize::MAX
                    } else {
                        0
                    }
                }
                Some(s) => s
                    .extract::<usize>()
                    .map_err(|_| PyValueError::new_err("stack must be a bool or a move count >= 0"))?,
            };
            let copy = board.st_attached(py)?.copy_with_stack(keep);
            // A subclass's copy is of its class, made as python-chess makes it.
            if pyo3::ffi::Py_TYPE(slf) != BOARD_TYPE.load(Ordering::Relaxed) {
                let ty = pyo3::Borrowed::from_ptr(py, slf).get_type();
                return Ok(PyBoard::new_of(&ty, copy, false)?.into_ptr());
            }
            Ok(PyBoard::new_exact(py, copy)?.into_ptr())
        })
    }
}

/// `fen(*, shredder=False, en_passant="legal", promoted=None)`: METH_FASTCALL | METH_KEYWORDS.
/// The common `fen()` of a playable position is written on the stack and made a str at once
/// (no Rust String between, no argument parsing); any argument, or a position whose FEN
/// python-chess writes otherwise, goes to the full method (`fen_full`).
unsafe extern "C" fn fen_raw(
    slf: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargs: pyo3::ffi::Py_ssize_t,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    // SAFETY: METH_FASTCALL | METH_KEYWORDS, as `copy_raw`; the GIL is held.
    unsafe {
        call_raw(slf, |py, board| {
            if nargs == 0 && kwnames.is_null() {
                let st = board.st_attached(py)?;
                if st.plain_fen() {
                    let mut buf = [0u8; crate::FEN_CAPACITY];
                    let n = st.core.write_fen(&mut buf);
                    // The board is let go before the str is made: an allocation may run the
                    // cycle collector, and with it finalizers that may read this board.
                    drop(st);
                    let s = pyo3::ffi::PyUnicode_FromStringAndSize(buf.as_ptr().cast(), n as pyo3::ffi::Py_ssize_t);
                    return if s.is_null() { Err(PyErr::fetch(py)) } else { Ok(s) };
                }
            }
            // The full method, called as the unbound descriptor with the same arguments.
            let (call_args, kwargs) = lifecycle::call_arguments(py, Some(slf), args, nargs as usize, kwnames)?;
            let full = FEN_FULL.get(py).expect("set at import, with the method");
            Ok(full.bind(py).call(call_args, kwargs.as_ref())?.into_ptr())
        })
    }
}

/// The PyO3 `fen` method `fen_raw` replaces on the class, for the calls it leaves.
static FEN_FULL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The Move type object, for `push`'s exact-type test (set by `install_fast_methods`).
static MOVE_TYPE: AtomicPtr<pyo3::ffi::PyTypeObject> = AtomicPtr::new(std::ptr::null_mut());

/// Adds `push`, `pop` and `copy` to the Board class as raw CPython method descriptors.
pub(crate) fn install_fast_methods(py: Python<'_>) -> PyResult<()> {
    use pyo3::ffi;
    // The type object lives as long as the module (the class holds it); null never matches.
    MOVE_TYPE.store(py.get_type::<PyMove>().as_type_ptr(), Ordering::Relaxed);
    let ty = py.get_type::<PyBoard>();
    use ffi::PyMethodDefPointer as Meth;
    // The full fen (PyO3's wrapper), kept before `fen_raw` takes its name.
    let _ = FEN_FULL.set(py, ty.getattr("fen")?.unbind());
    let defs: [(&'static std::ffi::CStr, Meth, i32, &'static std::ffi::CStr); 4] = [
        (
            c"push",
            Meth { PyCFunction: push_raw },
            ffi::METH_O,
            c"push($self, move, /)\n--\n\nPlays a move: a kibitz Move, a python-chess Move or UCI text; Move.null() passes the turn. As python-chess, also a pseudo-legal move that leaves the own king attacked (pop takes it back). IllegalMoveError (board unchanged) for a move that is not even pseudo-legal.",
        ),
        (
            c"pop",
            Meth { PyCFunction: pop_raw },
            ffi::METH_NOARGS,
            c"pop($self, /)\n--\n\nTakes back the last move and returns it (IndexError when there is none).",
        ),
        (
            c"copy",
            Meth { PyCFunctionFastWithKeywords: copy_raw },
            ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
            c"copy($self, /, *, stack=None)\n--\n\nA copy with all, none (stack=False) or the last n (stack=n) moves of the history; the two boards share the position until either changes.",
        ),
        (
            c"fen",
            Meth { PyCFunctionFastWithKeywords: fen_raw },
            ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
            c"fen($self, /, *, shredder=False, en_passant=None, promoted=None)\n--\n\nThe FEN of the position (en-passant square only when the capture is legal). With python-chess's options: `shredder` castling, `en_passant` \"legal\" (the default), \"fully\", \"xfen\" (whenever a pawn stands ready) or anything else (the square as set).",
        ),
    ];
    for (name, meth, flags, doc) in defs {
        // The definition must outlive the class: leaked once per interpreter start.
        let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
            ml_name: name.as_ptr(),
            ml_meth: meth,
            ml_flags: flags,
            ml_doc: doc.as_ptr(),
        }));
        // SAFETY: `ty` is a live type object and `def` lives forever.
        let descr = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewMethod(ty.as_type_ptr(), def))? };
        ty.setattr(name.to_str().expect("ASCII name"), descr)?;
    }
    lifecycle::install(py, &ty)
}
