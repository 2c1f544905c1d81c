//! The Board class's own allocation and deallocation, off PyO3's generic object paths.
//!
//! PyO3 makes an object through the class's initializer (type lookup, `object.__new__` with
//! an empty argument tuple, the tp_alloc slot read with `PyType_GetSlot`, a zeroed allocation
//! with a cycle-collector header, tracked) and frees it through a trampoline (thread-local
//! bookkeeping, a panic guard, tp_free read with `PyType_GetSlot`): about 330 of the 860
//! instructions a `copy()` took (callgrind). A board is plain data that closes no reference
//! cycle (the only Python objects it holds are tuples of interned Moves, which hold nothing,
//! and the `move_stack` list, which holds Moves unless its caller puts the board itself in it),
//! so `install`, at import and before any board exists, makes the Board class an ordinary,
//! uncollected type with a deallocator of its own:
//! - `Py_TPFLAGS_HAVE_GC` cleared and tp_free set to `PyObject_Free` (PyO3 marks every class
//!   collected). A subclass's instances are still collected when the subclass adds an
//!   instance dict: CPython decides that per subclass, and allocates and frees them itself;
//! - tp_dealloc set to `board_dealloc`, which drops the value and frees the object;
//! - exact boards are made by `PyBoard::new_exact` and `copy_exact` with `PyObject_Malloc`
//!   and `PyObject_Init`, the value written in place (PyO3's own `Py::new` stays right too:
//!   CPython's generic allocator follows the flag);
//! - tp_vectorcall set to `board_vectorcall`, so that `Board()`, `Board(fen)` and
//!   `Board(None)` skip the argument tuple and the two passes through PyO3's argument
//!   parsing (tp_new, then tp_init) of CPython's generic class call.
//!
//! The type object is written at the fields CPython lays out after its object header; every
//! field is first read back and compared with what CPython's own accessors (`PyType_GetSlot`,
//! `PyType_GetFlags`, `__basicsize__`) report, and the value's place is measured on a board
//! PyO3 made, so a different layout (a debug build of CPython, a future one) is never written
//! and PyO3's paths stay in use. The safety argument of each raw step is beside it.

use super::super::errors::raw_return;
use super::methods::{self, FenArg};
use super::*;
use std::sync::atomic::AtomicUsize;

/// The Board type object (set by `install`, before any method runs): `copy`'s test for a
/// subclass and the type of the boards made here.
pub(super) static BOARD_TYPE: AtomicPtr<pyo3::ffi::PyTypeObject> = AtomicPtr::new(std::ptr::null_mut());

/// Where a board's Rust value sits in its object, in bytes from the object's start; 0 while
/// the fast paths are off (before `install`, or when the layout did not match).
static VALUE_OFFSET: AtomicUsize = AtomicUsize::new(0);
/// The Board class's instance size (`__basicsize__`), for `alloc_exact`.
static BASIC_SIZE: AtomicUsize = AtomicUsize::new(0);

/// The value of a board object at `obj`.
///
/// # Safety
/// `obj` is a Board (or subclass) object and `off` the nonzero `VALUE_OFFSET`.
#[inline(always)]
unsafe fn value_ptr(obj: *mut pyo3::ffi::PyObject, off: usize) -> *mut PyBoard {
    // SAFETY: the caller's contract: the value lies `off` bytes into the object.
    unsafe { obj.cast::<u8>().add(off).cast::<PyBoard>() }
}

/// A new object of exactly the Board class with its header set (count 1, a reference to the
/// type) and its value not yet written; null with a Python error set when memory ran out.
///
/// # Safety
/// The fast paths are on (`VALUE_OFFSET` nonzero), and the value is written before the
/// object is used, or the object is given to `free_unfilled`.
#[inline(always)]
unsafe fn alloc_exact() -> *mut pyo3::ffi::PyObject {
    use pyo3::ffi;
    // SAFETY: the caller's contract: the Board class is a non-collected type of this size.
    unsafe {
        let obj = ffi::PyObject_Malloc(BASIC_SIZE.load(Ordering::Relaxed)).cast::<ffi::PyObject>();
        if obj.is_null() {
            return ffi::PyErr_NoMemory();
        }
        ffi::PyObject_Init(obj, BOARD_TYPE.load(Ordering::Relaxed))
    }
}

/// Frees an object from `alloc_exact` whose value was never written.
///
/// # Safety
/// `obj` came from `alloc_exact`, has no other reference and no value.
unsafe fn free_unfilled(obj: *mut pyo3::ffi::PyObject) {
    use pyo3::ffi;
    // SAFETY: the caller's contract.
    unsafe {
        let ty = ffi::Py_TYPE(obj);
        ffi::PyObject_Free(obj.cast());
        ffi::Py_DECREF(ty.cast());
    }
}

/// A new board of exactly the Board class holding `state`, made without PyO3's initializer.
///
/// # Safety
/// The fast paths are on (`fast_lifecycle()`).
#[inline]
unsafe fn new_exact_fast(py: Python<'_>, state: State) -> PyResult<Py<PyBoard>> {
    // SAFETY: the fast paths are on (the caller's contract); the value is written at once.
    unsafe {
        let obj = alloc_exact();
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        value_ptr(obj, VALUE_OFFSET.load(Ordering::Relaxed)).write(PyBoard::from_state(state));
        Ok(Bound::from_owned_ptr(py, obj).cast_into_unchecked::<PyBoard>().unbind())
    }
}

/// `copy()` of a board of exactly the Board class, written straight into an object allocated
/// here (no State moved through PyO3's initializer); None when the fast paths are off.
#[inline(always)]
pub(super) fn copy_exact(py: Python<'_>, board: &PyBoard) -> PyResult<Option<*mut pyo3::ffi::PyObject>> {
    let off = VALUE_OFFSET.load(Ordering::Relaxed);
    if off == 0 {
        return Ok(None);
    }
    // SAFETY: the fast paths are on. The object is allocated before the source board is
    // locked (nothing runs Python code meanwhile, but the order costs nothing), and either
    // filled or freed unfilled.
    unsafe {
        let obj = alloc_exact();
        if obj.is_null() {
            return Err(PyErr::fetch(py));
        }
        match board.st_attached(py) {
            Ok(st) => {
                let dst = value_ptr(obj, off);
                TryLock::write_in_place(std::ptr::addr_of_mut!((*dst).state), |v| st.write_copy_all(v));
                // A copy hands out a list of its own.
                std::ptr::addr_of_mut!((*dst).stack).write(TryLock::new(None));
                Ok(Some(obj))
            }
            Err(e) => {
                free_unfilled(obj);
                Err(e)
            }
        }
    }
}

/// The Board class's deallocator (and its subclasses' base part, which `subtype_dealloc`
/// hands here, having untracked a collected subclass's instance): drops the value and frees
/// the object as PyO3's deallocator does, without its trampoline.
unsafe extern "C" fn board_dealloc(obj: *mut pyo3::ffi::PyObject) {
    use pyo3::ffi;
    // SAFETY: CPython calls tp_dealloc with the GIL held, on an object of this class or a
    // subclass whose count reached zero; nothing else refers to it. The offset is nonzero:
    // this function is installed only after it was set.
    unsafe {
        let py = Python::assume_attached();
        let value = value_ptr(obj, VALUE_OFFSET.load(Ordering::Relaxed));
        // A drop that panicked would leak what it had not dropped yet; the memory is still
        // freed (no panic may unwind into CPython).
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let PyBoard { state, stack } = &mut *value;
            state.get_mut().drop_released(py);
            if let Some(list) = stack.get_mut().take() {
                list.release(py);
            }
        }));
        let ty = ffi::Py_TYPE(obj);
        if ty == BOARD_TYPE.load(Ordering::Relaxed) {
            ffi::PyObject_Free(obj.cast());
        } else {
            // A subclass: its own tp_free (CPython's type_new chose it by the subclass's flags).
            let free: ffi::freefunc = std::mem::transmute(ffi::PyType_GetSlot(ty, ffi::Py_tp_free));
            free(obj.cast());
        }
        // Every instance holds a reference to its (heap) type, dropped with it; subtype_dealloc
        // leaves that to the base's deallocator when the base is a heap type, as Board is.
        ffi::Py_DECREF(ty.cast());
    }
}

/// CPython's flag in a vectorcall's argument count (`PY_VECTORCALL_ARGUMENTS_OFFSET`, part of
/// its ABI): the caller lets the callee use the slot before the arguments.
const ARGUMENTS_OFFSET: usize = 1 << (usize::BITS - 1);
/// CPython's type flag: instances of the type may be called through vectorcall (its ABI; the
/// bindings' constant is hidden under the stable ABI before 3.12).
const HAVE_VECTORCALL: std::ffi::c_ulong = 1 << 11;

/// `Board(...)` through the vectorcall protocol: the class's tp_vectorcall, which CPython
/// calls for `Board(fen)` instead of its generic path (an argument tuple, then tp_new and
/// tp_init, each parsing the arguments through PyO3's wrapper). `Board()`, `Board(fen)` with
/// a str and `Board(None)` are made here; any other call (keywords, a subclass, another
/// argument type) takes the generic path, with its errors.
unsafe extern "C" fn board_vectorcall(
    callable: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargsf: usize,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    use pyo3::ffi;
    let nargs = nargsf & !ARGUMENTS_OFFSET;
    // SAFETY: CPython calls tp_vectorcall with the GIL held, `args` holding `nargs` live
    // borrowed arguments followed by one for each name in `kwnames` (null when none).
    unsafe {
        let arg = if nargs == 1 { *args } else { std::ptr::null_mut() };
        let plain = kwnames.is_null()
            && callable.cast() == BOARD_TYPE.load(Ordering::Relaxed)
            && (nargs == 0 || (nargs == 1 && (arg == ffi::Py_None() || ffi::PyUnicode_CheckExact(arg) != 0)));
        if !plain {
            return generic_call(callable, args, nargs, kwnames);
        }
        let py = Python::assume_attached();
        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> PyResult<*mut ffi::PyObject> {
            let fen = match nargs {
                0 => FenArg::Start,
                _ if arg == ffi::Py_None() => FenArg::Empty,
                _ => FenArg::Text(Borrowed::from_ptr(py, arg).cast_unchecked::<PyString>().to_owned()),
            };
            Ok(PyBoard::new_exact(py, methods::state_from_fen(fen, false)?)?.into_ptr())
        }));
        raw_return(py, made)
    }
}

/// The generic call of a class (CPython's type_call: tp_new, then tp_init), from vectorcall
/// arguments: what `Board(...)` did before it had a vectorcall, for the calls it leaves.
///
/// # Safety
/// As `board_vectorcall`'s arguments.
unsafe fn generic_call(
    callable: *mut pyo3::ffi::PyObject,
    args: *const *mut pyo3::ffi::PyObject,
    nargs: usize,
    kwnames: *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject {
    use pyo3::ffi;
    // SAFETY: the caller's contract; type_call takes the tuple and the dict borrowed.
    unsafe {
        let py = Python::assume_attached();
        let (tuple, kwargs) = match call_arguments(py, None, args, nargs, kwnames) {
            Ok(made) => made,
            Err(e) => {
                e.restore(py);
                return std::ptr::null_mut();
            }
        };
        let call: ffi::ternaryfunc =
            std::mem::transmute(ffi::PyType_GetSlot(&raw mut ffi::PyType_Type, ffi::Py_tp_call));
        call(callable, tuple.as_ptr(), kwargs.as_ref().map_or(std::ptr::null_mut(), |d| d.as_ptr()))
    }
}

/// A vectorcall's arguments as a classic call's: the positional ones in a tuple (after
/// `first`, when given: the `self` of an unbound method) and the keywords in a dict.
///
/// # Safety
/// `args` holds `nargs` live positional arguments followed by one for each name in the tuple
/// `kwnames` (null when there are none); `first`, when given, is live.
pub(super) unsafe fn call_arguments<'py>(
    py: Python<'py>,
    first: Option<*mut pyo3::ffi::PyObject>,
    args: *const *mut pyo3::ffi::PyObject,
    nargs: usize,
    kwnames: *mut pyo3::ffi::PyObject,
) -> PyResult<(Bound<'py, PyTuple>, Option<Bound<'py, PyDict>>)> {
    // SAFETY: the caller's contract.
    unsafe {
        let mut positional = Vec::with_capacity(nargs + 1);
        positional.extend(first.map(|f| Borrowed::from_ptr(py, f)));
        positional.extend(std::slice::from_raw_parts(args, nargs).iter().map(|&a| Borrowed::from_ptr(py, a)));
        let tuple = PyTuple::new(py, positional)?;
        if kwnames.is_null() {
            return Ok((tuple, None));
        }
        let names = Borrowed::from_ptr(py, kwnames).cast_unchecked::<PyTuple>();
        let dict = PyDict::new(py);
        for (j, name) in names.iter().enumerate() {
            dict.set_item(name, Borrowed::from_ptr(py, *args.add(nargs + j)))?;
        }
        Ok((tuple, Some(dict)))
    }
}

/// Whether boards are made and freed by this module's functions (see above).
fn fast_lifecycle() -> bool {
    VALUE_OFFSET.load(Ordering::Relaxed) != 0
}

/// Switches the Board class to the lifecycle above, after measuring where PyO3 put the value in
/// an object it made, checking that the object holds nothing else, and finding each type
/// field it writes where CPython's accessors say it is. Leaves PyO3's paths in place when any
/// check fails. Runs at import, before any board exists.
pub(super) fn install(py: Python<'_>, ty: &Bound<'_, PyType>) -> PyResult<()> {
    BOARD_TYPE.store(ty.as_type_ptr(), Ordering::Relaxed);
    use pyo3::ffi;
    use std::ffi::c_void;
    let probe = Py::new(py, PyBoard::from_state(State::start(false)))?;
    let off = probe.get() as *const PyBoard as usize - probe.as_ptr() as usize;
    drop(probe);
    let basic: usize = ty.getattr("__basicsize__")?.extract()?;
    let end = off + std::mem::size_of::<PyBoard>();
    // The value is the object's only field after the header: at most padding follows it.
    let value_is_all =
        off >= std::mem::size_of::<ffi::PyObject>() && end <= basic && basic - end < std::mem::align_of::<PyBoard>();
    if !value_is_all {
        return Ok(());
    }
    let tp = ty.as_type_ptr();
    // CPython's type object: the variable-size object header, then one word per field in
    // this order (tp_flags is an unsigned long, a word on 64-bit Linux).
    const BASICSIZE: usize = 1;
    const DEALLOC: usize = 3;
    const FLAGS: usize = 18;
    const TRAVERSE: usize = 20;
    const ALLOC: usize = 35;
    const NEW: usize = 36;
    const FREE: usize = 37;
    // SAFETY: `tp` is the live Board type object, a heap type, which is larger than its
    // first 38 fields; each word is read before any is written, and written only when all of
    // them are where the accessors say. PyType_GetSlot and PyType_GetFlags are always allowed
    // on a heap type.
    unsafe {
        let field = |i: usize| {
            tp.cast::<u8>()
                .add(std::mem::size_of::<ffi::PyVarObject>() + i * std::mem::size_of::<usize>())
                .cast::<usize>()
        };
        let slot = |id| ffi::PyType_GetSlot(tp, id) as usize;
        let flags = ffi::PyType_GetFlags(tp);
        let found = *field(BASICSIZE) == basic
            && *field(DEALLOC) == slot(ffi::Py_tp_dealloc)
            && *field(FLAGS) == flags as usize
            && *field(TRAVERSE) == slot(ffi::Py_tp_traverse)
            && *field(ALLOC) == slot(ffi::Py_tp_alloc)
            && *field(NEW) == slot(ffi::Py_tp_new)
            && *field(FREE) == slot(ffi::Py_tp_free)
            && *field(FREE) == ffi::PyObject_GC_Del as *mut c_void as usize
            && flags & ffi::Py_TPFLAGS_HAVE_GC != 0;
        if !found {
            return Ok(());
        }
        VALUE_OFFSET.store(off, Ordering::Relaxed);
        BASIC_SIZE.store(basic, Ordering::Relaxed);
        *field(FLAGS) = (flags & !ffi::Py_TPFLAGS_HAVE_GC) as usize;
        *field(FREE) = ffi::PyObject_Free as *mut c_void as usize;
        *field(DEALLOC) = board_dealloc as ffi::destructor as *mut c_void as usize;

        // The vectorcall: where a class keeps it, `type` itself says (its tp_vectorcall_offset,
        // the word after its tp_dealloc, checked as above); it must be tp_vectorcall's place
        // (the 48th word after the header) and empty on the Board class (CPython does not
        // give heap classes one, nor pass one on to subclasses).
        const VECTORCALL_OFFSET: usize = 4;
        const VECTORCALL: usize = 47;
        let meta = &raw mut ffi::PyType_Type;
        let meta_field = |i: usize| {
            meta.cast::<u8>()
                .add(std::mem::size_of::<ffi::PyVarObject>() + i * std::mem::size_of::<usize>())
                .cast::<usize>()
        };
        let offset = *meta_field(VECTORCALL_OFFSET);
        if *meta_field(DEALLOC) == ffi::PyType_GetSlot(meta, ffi::Py_tp_dealloc) as usize
            && ffi::PyType_GetFlags(meta) & HAVE_VECTORCALL != 0
            && offset == field(VECTORCALL) as usize - tp as usize
            && *field(VECTORCALL) == 0
        {
            *field(VECTORCALL) = board_vectorcall as ffi::vectorcallfunc as *mut c_void as usize;
        }
    }
    Ok(())
}

impl PyBoard {
    /// Takes a board of exactly the Board class off the cycle collector's list. A board cannot
    /// be part of a reference cycle: the only Python objects it holds are tuples of interned
    /// Moves, which hold nothing. Untracked, it costs the collector nothing, which is most of
    /// what a short-lived copy costs otherwise (a loop making copies triggers a collection every
    /// few hundred, and each visits every tracked board). A subclass's boards keep their
    /// tracking: their instance dict can close a cycle. Called by every maker of exact-class
    /// boards: `new_exact` and `__init__`.
    pub(crate) fn untrack(board: &Bound<'_, PyBoard>) {
        // With the fast lifecycle the class is not collected at all: nothing to do.
        if fast_lifecycle() {
            return;
        }
        // SAFETY: `board` is a live object of a GC type (every PyO3 class is one); untracking is
        // allowed at any time and tp_dealloc's own untrack then does nothing.
        unsafe { pyo3::ffi::PyObject_GC_UnTrack(board.as_ptr().cast()) };
    }

    /// A new board of exactly the Board class holding `state`, untracked (`untrack`).
    pub(crate) fn new_exact(py: Python<'_>, state: State) -> PyResult<Py<PyBoard>> {
        if fast_lifecycle() {
            // SAFETY: just checked.
            return unsafe { new_exact_fast(py, state) };
        }
        let board = Py::new(py, PyBoard::from_state(state))?;
        PyBoard::untrack(board.bind(py));
        Ok(board)
    }
}

impl State {
    /// Drops the state in place as the raw deallocator (`board_dealloc`) must: the Python objects it
    /// holds, its cached move tuples and those of the boards before assignments, each with a
    /// direct decref (outside PyO3's entry points, dropping a `Py` would only queue the decref
    /// in PyO3's pool until the next call into it); and, for the common state of a copy (no
    /// cache, no board before, playable), nothing but the core. The fields are named one by
    /// one, so a new field does not compile until it is handled here.
    ///
    /// # Safety
    /// The state is not used again, other than to free its memory.
    #[inline(always)]
    unsafe fn drop_released(&mut self, py: Python<'_>) {
        let State {
            core,
            root_ep: _,
            root_castling: _,
            root_promoted: _,
            odd_ep: _,
            unplayable,
            cache,
            parsed: _,
            pending: _,
            before,
            via: _,
        } = self;
        // SAFETY: each field is dropped once and not used after (the caller's contract); the
        // fields passed over hold nothing to free.
        unsafe {
            std::ptr::drop_in_place(core);
            if cache.capacity() != 0 {
                State::release_cache(cache, py);
                std::ptr::drop_in_place(cache);
            }
            if before.is_some() || unplayable.is_some() {
                State::drop_rare(before, unplayable, py);
            }
        }
    }

    /// The cache's tuples, released with direct decrefs (see `drop_released`).
    #[cold]
    fn release_cache(cache: &mut [Entry], py: Python<'_>) {
        for e in cache {
            if let Some(t) = e.tuple.take() {
                drop(t.into_bound(py));
            }
        }
    }

    /// `drop_released`'s part for the board before an assignment and the unplayable reason:
    /// the tuples of the boards before released first, then an ordinary drop.
    #[cold]
    fn drop_rare(before: &mut Option<Box<State>>, unplayable: &mut Option<Cow<'static, str>>, py: Python<'_>) {
        let mut b = before.take();
        let mut cur = b.as_deref_mut();
        while let Some(st) = cur {
            State::release_cache(&mut st.cache, py);
            cur = st.before.as_deref_mut();
        }
        drop(b);
        *unplayable = None;
    }

    /// Writes a copy with the whole history, sharing the core, at `dst`: `copy()`'s common
    /// case, written straight into the object it fills; a state with boards before
    /// assignments goes the long way (`copy_with_stack`, which copies their chain).
    ///
    /// # Safety
    /// `dst` is valid for writes and aligned.
    #[inline(always)]
    unsafe fn write_copy_all(&self, dst: *mut State) {
        // SAFETY: the caller's contract. Each branch writes its value itself, so that the
        // common one is built in place, not in a temporary copied over.
        unsafe {
            if self.before.is_some() {
                dst.write(self.copy_with_stack(usize::MAX));
            } else {
                dst.write(self.sharing_core(None, None));
            }
        }
    }
}
