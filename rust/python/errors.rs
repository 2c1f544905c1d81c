//! The exceptions of `kibitz._core` and the one place Rust errors become them: `FenError`,
//! `InvalidMoveError`, `IllegalMoveError`, `AmbiguousMoveError`, `InvalidPositionError` and
//! `NetError`, all subclasses of `ValueError` (python-chess names the move errors the same
//! way); with the argument helpers every class of the bindings shares (text of a str
//! argument, a regular file opened for reading). The lowest room of the bindings: it uses
//! nothing of theirs.

use crate::{FenError as CoreFenError, MoveError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

pyo3::create_exception!(
    kibitz,
    FenError,
    PyValueError,
    "A FEN string that is malformed or describes an impossible position."
);
pyo3::create_exception!(kibitz, InvalidMoveError, PyValueError, "Move text that is not a UCI move at all.");
pyo3::create_exception!(
    kibitz,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that is not legal in the position."
);
pyo3::create_exception!(
    kibitz,
    InvalidPositionError,
    PyValueError,
    "A move operation (legal moves, push, search...) on a position kibitz cannot play: no king \
     or several kings of a colour, a pawn on a back rank, more than 16 pieces of a colour, the \
     side not to move in check. The board still answers its placement queries and status()."
);
pyo3::create_exception!(kibitz, AmbiguousMoveError, PyValueError, "A SAN move that fits more than one legal move.");
pyo3::create_exception!(
    kibitz,
    NetError,
    PyValueError,
    "A file that is not a valid kibitz net (wrong header, truncated, corrupt)."
);

/// Opens `path` for reading when it is a regular file, with its size; any other kind of
/// file (a FIFO, whose opening would wait for a writer; a device such as /dev/zero, which
/// never ends; a directory) is an `InvalidInput` error naming the kind, found without
/// opening it. The file is opened non-blocking and checked again, so one swapped in
/// meanwhile cannot block either.
pub(crate) fn open_regular(path: &str) -> std::io::Result<(std::fs::File, u64)> {
    fn check(meta: &std::fs::Metadata) -> std::io::Result<u64> {
        if meta.is_file() {
            return Ok(meta.len());
        }
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                let t = meta.file_type();
                if t.is_fifo() {
                    "a FIFO"
                } else if t.is_char_device() || t.is_block_device() {
                    "a device"
                } else if t.is_socket() {
                    "a socket"
                } else {
                    "not a regular file"
                }
            }
            #[cfg(not(unix))]
            {
                "not a regular file"
            }
        };
        Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("{kind}, not a regular file")))
    }
    check(&std::fs::metadata(path)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(0o4000); // O_NONBLOCK: opening a FIFO returns at once
    }
    let file = options.open(path)?;
    let len = check(&file.metadata()?)?;
    Ok((file, len))
}

pub(crate) fn fen_err(e: CoreFenError) -> PyErr {
    FenError::new_err(e.to_string())
}

/// The UTF-8 text of a Python string argument. A str holding lone surrogates (possible in
/// Python, not valid UTF-8) would otherwise fail in PyO3's conversion with a bare
/// UnicodeEncodeError; `err` turns it into the argument's own error (FenError,
/// InvalidMoveError) with a message saying what is wrong.
///
/// The text is borrowed from the string itself, as CPython keeps it (for an ASCII string, its
/// characters; for others, a UTF-8 copy CPython caches on the object): no allocation
/// (`PyUnicode_AsUTF8AndSize`, in the stable ABI from Python 3.10, the oldest kibitz builds
/// for). FENs and moves are read in bulk for training data.
pub(crate) fn text<'a>(
    s: &'a Bound<'_, PyString>,
    what: &str,
    err: fn(String) -> PyErr,
) -> PyResult<std::borrow::Cow<'a, str>> {
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live str; the call returns null (with an exception set) or a pointer to
    // `size` bytes of UTF-8 owned by the string object, valid as long as it lives (`'a`).
    let data = unsafe { pyo3::ffi::PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if data.is_null() {
        drop(PyErr::take(s.py()));
        return Err(err(format!("the {what} is not valid text: it holds a lone surrogate character")));
    }
    // SAFETY: as above; CPython's UTF-8 is valid (lone surrogates were refused).
    let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) };
    // SAFETY: CPython encodes with its strict UTF-8 codec, so the bytes are valid UTF-8.
    Ok(std::borrow::Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(bytes) }))
}

pub(crate) fn fen_text_err(msg: String) -> PyErr {
    FenError::new_err(msg)
}

pub(crate) fn move_text_err(msg: String) -> PyErr {
    InvalidMoveError::new_err(msg)
}

pub(crate) fn move_err(e: MoveError) -> PyErr {
    match e {
        MoveError::Invalid(..) => InvalidMoveError::new_err(e.to_string()),
        MoveError::Illegal(..) => IllegalMoveError::new_err(e.to_string()),
        MoveError::Ambiguous(..) => AmbiguousMoveError::new_err(e.to_string()),
    }
}

/// What a raw CPython entry point (a method or slot written against the C API, not through
/// PyO3's wrappers) returns for its body's outcome: the object, or null with the error raised;
/// a panic becomes PanicException, since no panic may unwind into CPython.
#[inline(always)]
pub(crate) fn raw_return(
    py: Python<'_>,
    outcome: std::thread::Result<PyResult<*mut pyo3::ffi::PyObject>>,
) -> *mut pyo3::ffi::PyObject {
    let err = match outcome {
        Ok(Ok(obj)) => return obj,
        Ok(Err(e)) => e,
        Err(_) => {
            pyo3::panic::PanicException::new_err("internal error in kibitz (a bug; please report what was asked)")
        }
    };
    err.restore(py);
    std::ptr::null_mut()
}
