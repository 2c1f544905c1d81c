//! Board planes for neural networks (`kibitz.to_tensors`, `Board.to_tensor`): the layout
//! is `crate::planes`' (18 planes of 8x8). NumPy stays optional: Rust fills either a new
//! `bytearray` (one position) or the memory of an array the Python side made and checked
//! (a batch), so the extension never links against NumPy.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{IntoPyDict, PyByteArray, PyString};

use super::board::PyBoard;
use super::moves::Flag;
use crate::{fill_planes, set_planes, Board as CoreBoard, PLANE_VALUES};

/// The element types planes can be written as.
#[derive(Clone, Copy)]
pub(crate) enum Dtype {
    F32,
    U8,
}

pub(crate) fn dtype_arg(name: &str) -> PyResult<Dtype> {
    match name {
        "float32" => Ok(Dtype::F32),
        "uint8" => Ok(Dtype::U8),
        _ => Err(PyValueError::new_err(format!("planes are float32 or uint8, not {name}"))),
    }
}

fn write(board: &CoreBoard, canonical: bool, dtype: Dtype, bytes: &mut [u8]) {
    match dtype {
        // Writes the zeros too: `write` serves arrays of any prior contents.
        Dtype::U8 => fill_planes(board, canonical, bytes, 0u8, 1u8),
        Dtype::F32 => {
            // SAFETY: f32 has no invalid bit patterns; `align_to_mut` gives the aligned middle.
            let (head, values, tail) = unsafe { bytes.align_to_mut::<f32>() };
            if head.is_empty() && tail.is_empty() {
                fill_planes(board, canonical, values, 0.0, 1.0);
            } else {
                // An unaligned buffer (never seen from NumPy or CPython): fill a copy.
                let mut values = [0f32; PLANE_VALUES];
                fill_planes(board, canonical, &mut values, 0.0, 1.0);
                for (chunk, v) in bytes.chunks_exact_mut(4).zip(values.iter()) {
                    chunk.copy_from_slice(&v.to_ne_bytes());
                }
            }
        }
    }
}

impl Dtype {
    /// Bytes per value.
    pub(crate) fn size(self) -> usize {
        match self {
            Dtype::F32 => 4,
            Dtype::U8 => 1,
        }
    }
}

/// `write` into bytes that are all zero already (a new bytearray): only the ones are set.
pub(crate) fn write_ones(board: &CoreBoard, canonical: bool, dtype: Dtype, bytes: &mut [u8]) {
    match dtype {
        Dtype::U8 => set_planes(board, canonical, bytes, 1u8),
        Dtype::F32 => {
            // SAFETY: f32 has no invalid bit patterns; `align_to_mut` gives the aligned middle.
            let (head, values, tail) = unsafe { bytes.align_to_mut::<f32>() };
            if head.is_empty() && tail.is_empty() {
                set_planes(board, canonical, values, 1.0);
            } else {
                write(board, canonical, dtype, bytes);
            }
        }
    }
}

/// One position's planes as a new bytearray (1,152 values of `dtype`, native byte order).
#[pyfunction]
#[pyo3(signature = (board, canonical=Flag(false), dtype="float32"), text_signature = "(board, canonical=False, dtype='float32')")]
pub(crate) fn board_planes<'py>(
    py: Python<'py>,
    board: PyRef<'_, PyBoard>,
    canonical: Flag,
    dtype: &str,
) -> PyResult<Bound<'py, PyByteArray>> {
    let canonical = canonical.0;
    let dtype = dtype_arg(dtype)?;
    let size = match dtype {
        Dtype::F32 => 4,
        Dtype::U8 => 1,
    };
    // A new bytearray is all zero bytes, which is 0 for both dtypes: only the ones are set.
    board.with_core(|core| {
        PyByteArray::new_with(py, PLANE_VALUES * size, |bytes| {
            match dtype {
                Dtype::U8 => set_planes(core, canonical, bytes, 1u8),
                Dtype::F32 => {
                    // SAFETY: f32 has no invalid bit patterns; `align_to_mut` gives the aligned middle.
                    let (head, values, tail) = unsafe { bytes.align_to_mut::<f32>() };
                    if head.is_empty() && tail.is_empty() {
                        set_planes(core, canonical, values, 1.0f32);
                    } else {
                        write(core, canonical, dtype, bytes);
                    }
                }
            }
            Ok(())
        })
    })?
}

/// What `Board.to_tensor` needs of NumPy, imported on first use (NumPy stays optional):
/// `ndarray`, `dtype`, the two dtypes and the shape, made once.
struct Numpy {
    ndarray: Py<PyAny>,
    dtype_of: Py<PyAny>,
    float32: Py<PyAny>,
    uint8: Py<PyAny>,
    shape: Py<PyAny>,
}

static NUMPY: PyOnceLock<Numpy> = PyOnceLock::new();

/// The two entries of NumPy's C API table that making an array needs, found at run time
/// through the `_ARRAY_API` capsule NumPy exports for extensions (so the extension still
/// builds and loads without NumPy). Slot numbers are NumPy's documented, fixed ones:
/// 2 `PyArray_Type`, 93 `PyArray_New`; they have not moved since NumPy 1.0.
struct ArrayApi {
    array_type: *mut pyo3::ffi::PyTypeObject,
    new: PyArrayNew,
}

/// `PyArray_New(subtype, nd, dims, type_num, strides, data, itemsize, flags, obj)`.
type PyArrayNew = unsafe extern "C" fn(
    *mut pyo3::ffi::PyTypeObject,
    std::os::raw::c_int,
    *const isize,
    std::os::raw::c_int,
    *const isize,
    *mut std::os::raw::c_void,
    std::os::raw::c_int,
    std::os::raw::c_int,
    *mut pyo3::ffi::PyObject,
) -> *mut pyo3::ffi::PyObject;

// SAFETY: the pointers point into NumPy's static API table and type object, which live as
// long as the interpreter and are only used with the GIL held.
unsafe impl Send for ArrayApi {}
unsafe impl Sync for ArrayApi {}

/// NumPy's type numbers (`NPY_FLOAT`, `NPY_UBYTE`).
const NPY_FLOAT32: std::os::raw::c_int = 11;
const NPY_UINT8: std::os::raw::c_int = 2;

static ARRAY_API: PyOnceLock<Option<ArrayApi>> = PyOnceLock::new();

/// NumPy's C API, or None where it cannot be found (the Python path is used then).
fn array_api(py: Python<'_>) -> Option<&'static ArrayApi> {
    ARRAY_API
        .get_or_init(py, || {
            let capsule = ["numpy._core._multiarray_umath", "numpy.core.multiarray"]
                .iter()
                .find_map(|m| py.import(*m).ok()?.getattr("_ARRAY_API").ok())?;
            // SAFETY: `_ARRAY_API` is NumPy's capsule of its C API table (an array of
            // pointers); a capsule of another name or none gives null, checked below.
            unsafe {
                let table = pyo3::ffi::PyCapsule_GetPointer(capsule.as_ptr(), std::ptr::null())
                    as *const *mut std::os::raw::c_void;
                if table.is_null() {
                    pyo3::ffi::PyErr_Clear();
                    return None;
                }
                let array_type = *table.add(2) as *mut pyo3::ffi::PyTypeObject;
                let new = *table.add(93);
                if array_type.is_null() || new.is_null() {
                    return None;
                }
                Some(ArrayApi { array_type, new: std::mem::transmute::<*mut std::os::raw::c_void, PyArrayNew>(new) })
            }
        })
        .as_ref()
}

/// A new C-ordered (18, 8, 8) array made through NumPy's C API and filled here.
fn new_planes_array<'py>(
    py: Python<'py>,
    api: &ArrayApi,
    board: &CoreBoard,
    canonical: bool,
    dtype: Dtype,
) -> PyResult<Bound<'py, PyAny>> {
    let dims: [isize; 3] = [18, 8, 8];
    let type_num = match dtype {
        Dtype::F32 => NPY_FLOAT32,
        Dtype::U8 => NPY_UINT8,
    };
    // SAFETY: PyArray_New with null strides and data allocates a new C-contiguous array of
    // the given shape and type (or returns null with an exception set). Its data pointer is
    // the first field after the object header (NumPy's PyArrayObject_fields layout, part
    // of its ABI); the memory is uninitialised, and `write` sets every value.
    unsafe {
        let obj = (api.new)(
            api.array_type,
            3,
            dims.as_ptr(),
            type_num,
            std::ptr::null(),
            std::ptr::null_mut(),
            0,
            0,
            std::ptr::null_mut(),
        );
        let array = Bound::from_owned_ptr_or_err(py, obj)?;
        let header = std::mem::size_of::<pyo3::ffi::PyObject>();
        let data = *((obj as *mut u8).add(header) as *mut *mut u8);
        let size = match dtype {
            Dtype::F32 => 4,
            Dtype::U8 => 1,
        };
        let bytes = std::slice::from_raw_parts_mut(data, PLANE_VALUES * size);
        write(board, canonical, dtype, bytes);
        Ok(array)
    }
}

/// `Board.to_tensor`: an ndarray of shape (18, 8, 8) over a bytearray filled here, made
/// with one call into NumPy (its types, dtypes and the shape are cached).
pub(crate) fn board_tensor<'py>(
    slf: &Bound<'py, PyBoard>,
    canonical: bool,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let np = NUMPY.get_or_try_init(py, || -> PyResult<_> {
        let np = py.import("numpy").map_err(|_| {
            pyo3::exceptions::PyImportError::new_err("board planes need NumPy: pip install kibitz[numpy]")
        })?;
        let dtype_of = np.getattr("dtype")?;
        Ok(Numpy {
            ndarray: np.getattr("ndarray")?.unbind(),
            float32: dtype_of.call1(("float32",))?.unbind(),
            uint8: dtype_of.call1(("uint8",))?.unbind(),
            dtype_of: dtype_of.unbind(),
            shape: (18, 8, 8).into_pyobject(py)?.into_any().unbind(),
        })
    })?;
    // The dtype asked for, and its native-order twin the planes are made in (the same one
    // unless it names the other byte order: the array is then converted).
    let (name, dt, converted) = match dtype {
        None => ("float32", np.float32.bind(py).clone(), None),
        Some(d) => {
            let dt = np.dtype_of.bind(py).call1((d,))?;
            let twin = dt.call_method1("newbyteorder", ("=",))?;
            let name = if twin.eq(np.float32.bind(py))? {
                "float32"
            } else if twin.eq(np.uint8.bind(py))? {
                "uint8"
            } else {
                return Err(PyValueError::new_err(format!("planes are float32 or uint8, not {}", describe(&dt)?)));
            };
            let converted = if twin.eq(&dt)? { None } else { Some(dt.clone()) };
            (name, twin, converted)
        }
    };
    let kind = if name == "uint8" { Dtype::U8 } else { Dtype::F32 };
    let array = match array_api(py) {
        Some(api) => slf.borrow().with_core(|core| new_planes_array(py, api, core, canonical, kind))??,
        None => np.ndarray.bind(py).call1((
            np.shape.bind(py),
            dt,
            board_planes(py, slf.borrow(), Flag(canonical), name)?,
        ))?,
    };
    match converted {
        None => Ok(array),
        Some(other) => array.call_method1("astype", (other,)),
    }
}

/// A NumPy dtype as messages name it: `'>f4' (big-endian float32)`, `'|b1' (bool)`.
pub(crate) fn describe(dt: &Bound<'_, PyAny>) -> PyResult<String> {
    let code: String = dt.getattr("str")?.extract()?;
    let name: String = dt.getattr("name")?.extract()?;
    let order = match code.as_bytes().first() {
        Some(b'<') => "little-endian ",
        Some(b'>') => "big-endian ",
        _ => "",
    };
    Ok(format!("'{code}' ({order}{name})"))
}

/// The board a FEN string gives, read without Python where that is what `kibitz.Board(fen)`
/// holds: a FEN whose castling field is `-` or standard letters in KQkq order (python-chess's
/// form, which `Board(fen)` reads with this same strict reader). None for anything else (a
/// FEN the strict reader refuses, other castling fields), which `Board(fen)` itself reads.
fn strict_fen(fen: &str, chess960: bool) -> Option<CoreBoard> {
    let castling = fen.split_whitespace().nth(2)?;
    let mut order = "KQkq".chars();
    let standard = castling == "-" || (!castling.is_empty() && castling.chars().all(|c| order.any(|o| o == c)));
    if !standard {
        return None;
    }
    CoreBoard::from_fen_with(fen, chess960).ok()
}

/// Fills the planes of a batch of positions (kibitz Boards or FEN strings) into memory at
/// `address` (`nbytes` long, `len(items) * 1152` values of `dtype`), without the GIL once
/// the positions are read. A FEN is read as `kibitz.Board(fen, chess960=chess960)` reads it
/// (the same positions accepted, with the same errors; the planes are that board's). The
/// caller (kibitz.tensor.to_tensors) owns the memory, made and checked it, and keeps it
/// alive for the call.
#[pyfunction]
#[pyo3(signature = (items, address, nbytes, canonical=Flag(false), dtype="float32", chess960=Flag(false)), text_signature = "(items, address, nbytes, canonical=False, dtype='float32', chess960=False)")]
pub(crate) fn fill_planes_at(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    address: usize,
    nbytes: usize,
    canonical: Flag,
    dtype: &str,
    chess960: Flag,
) -> PyResult<usize> {
    let (canonical, chess960) = (canonical.0, chess960.0);
    let dtype = dtype_arg(dtype)?;
    // Each item is a kibitz Board (read in place under its lock, with the GIL: a few
    // hundred nanoseconds each) or a FEN (parsed and filled with the GIL released).
    enum Item<'py> {
        Board(Bound<'py, PyBoard>),
        Fen(Bound<'py, PyString>),
    }
    let mut list: Vec<Item<'_>> = Vec::new();
    for (i, item) in items.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(b) = item.cast::<PyBoard>() {
            list.push(Item::Board(b.clone()));
        } else if let Ok(s) = item.cast::<PyString>() {
            list.push(Item::Fen(s.clone()));
        } else {
            return Err(PyTypeError::new_err(format!(
                "item {i} is a {}, not a kibitz Board or a FEN string",
                item.get_type().name()?
            )));
        }
    }
    let per = PLANE_VALUES * dtype.size();
    let want = list.len() * per;
    if nbytes != want {
        return Err(PyValueError::new_err(format!(
            "the output holds {nbytes} bytes; {} positions need {want}",
            list.len()
        )));
    }
    if want == 0 {
        return Ok(0);
    }
    if address == 0 {
        return Err(PyValueError::new_err("the output's address is null"));
    }
    // Read every FEN first (the common ones without the GIL, the rest as Board(fen) reads
    // them), so that a bad one leaves the output as it was.
    let fens: Vec<(usize, Option<String>)> = list
        .iter()
        .enumerate()
        .filter_map(
            |(i, it)| if let Item::Fen(f) = it { Some((i, f.to_cow().ok().map(|s| s.into_owned()))) } else { None },
        )
        .collect();
    let read: Vec<(usize, Option<CoreBoard>)> =
        py.detach(|| fens.into_iter().map(|(i, f)| (i, f.and_then(|f| strict_fen(&f, chess960)))).collect());
    let mut parsed = Vec::with_capacity(read.len());
    for (i, board) in read {
        match board {
            Some(board) => parsed.push((i, board)),
            None => {
                let Item::Fen(fen) = &list[i] else { unreachable!("only FENs are read") };
                let kwargs = [("chess960", chess960)].into_py_dict(py)?;
                let board = py.get_type::<PyBoard>().call((fen,), Some(&kwargs))?.cast_into::<PyBoard>()?;
                list[i] = Item::Board(board);
            }
        }
    }
    // SAFETY: the caller passes the data pointer of a writable, C-contiguous array of
    // exactly `nbytes` bytes that it keeps alive for this call (checked in Python).
    {
        let out = unsafe { std::slice::from_raw_parts_mut(address as *mut u8, nbytes) };
        for (item, chunk) in list.iter().zip(out.chunks_exact_mut(per)) {
            if let Item::Board(b) = item {
                b.borrow().with_core(|core| write(core, canonical, dtype, chunk))?;
            }
        }
    }
    // The address (a plain integer, so Send) is made a slice again without the GIL.
    py.detach(move || {
        // SAFETY: as above; the slice made for the Boards is gone, and only FEN chunks are written.
        let out = unsafe { std::slice::from_raw_parts_mut(address as *mut u8, nbytes) };
        for (i, board) in &parsed {
            write(board, canonical, dtype, &mut out[i * per..(i + 1) * per]);
        }
    });
    Ok(list.len())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(board_planes, m)?)?;
    m.add_function(wrap_pyfunction!(fill_planes_at, m)?)?;
    m.add("PLANE_VALUES", PLANE_VALUES)?;
    Ok(())
}
