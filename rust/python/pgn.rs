//! PGN reading for Python: `_core.PgnReader(file)` iterates over the games of a file object
//! (binary or text) (plain, or a gzip / zstd decoder opened by `kibitz.analysis.reader`), and
//! `_core.san_line` writes a line of UCI moves as SAN (for annotated PGN output).
//!
//! The reader calls the file's `read(n)` once per 64 KB chunk and does the tokenizing and the
//! SAN replay in Rust; each game comes out as one tuple, which `kibitz.read_games` turns into
//! a `Game`.

use std::io::{Error as IoError, Read};

use super::{fen_err, move_err};
use crate::{Board as CoreBoard, PgnReader as CoreReader};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};

/// `std::io::Read` over a Python file object: each `read` is one call of its `read(n)`
/// (after a check for signals, so Ctrl-C stops a long read). A binary file gives bytes, a
/// text file str (taken as UTF-8, as python-chess reads text files); what a `read(n)` gives
/// beyond `n` bytes (a str of n characters, a file object that ignores n) is kept for the
/// next call. A Python exception is kept aside and raised again by the caller.
struct PyFile {
    file: Py<PyAny>,
    error: Option<PyErr>,
    /// Bytes read from the file and not yet handed out, from `pending_at` on.
    pending: Vec<u8>,
    pending_at: usize,
}

impl PyFile {
    fn new(file: Py<PyAny>) -> Self {
        PyFile { file, error: None, pending: Vec::new(), pending_at: 0 }
    }

    /// One `read(n)` of the file into `pending`; false at the end of the file.
    fn read_more(&mut self, py: Python<'_>, n: usize) -> PyResult<bool> {
        py.check_signals()?;
        let obj = self.file.bind(py).call_method1("read", (n,))?;
        self.pending.clear();
        self.pending_at = 0;
        if let Ok(bytes) = obj.cast::<PyBytes>() {
            self.pending.extend_from_slice(bytes.as_bytes());
        } else if let Ok(text) = obj.cast::<PyString>() {
            self.pending.extend_from_slice(text.to_cow()?.as_bytes());
        } else if let Ok(array) = obj.cast::<PyByteArray>() {
            self.pending.extend_from_slice(&array.to_vec());
        } else {
            return Err(PyTypeError::new_err(format!(
                "the PGN source's read() returned {}, not bytes or str: open the file in binary mode",
                obj.get_type().name()?
            )));
        }
        Ok(!self.pending.is_empty())
    }
}

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.pending_at >= self.pending.len() {
            let more = Python::attach(|py| self.read_more(py, buf.len()));
            match more {
                Ok(true) => {}
                Ok(false) => return Ok(0),
                Err(e) => {
                    let msg = e.to_string();
                    self.error = Some(e);
                    return Err(IoError::other(msg));
                }
            }
        }
        let data = &self.pending[self.pending_at..];
        let n = data.len().min(buf.len());
        buf[..n].copy_from_slice(&data[..n]);
        self.pending_at += n;
        Ok(n)
    }
}

/// Iterator over the games of a binary file object. Each item is a tuple
/// `(index, line, headers, start_fen, chess960, moves, result, error)`: the game's 1-based
/// number, the line it starts on, its tags as a dict (file order), the start position, the
/// main line in UCI, the result token or None, and what is wrong with it or None.
#[pyclass(module = "kibitz._core", name = "PgnReader", unsendable)]
pub struct PyPgnReader {
    inner: CoreReader<PyFile>,
}

#[pymethods]
impl PyPgnReader {
    #[new]
    fn new(file: Py<PyAny>) -> Self {
        PyPgnReader { inner: CoreReader::new(PyFile::new(file)) }
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[allow(clippy::type_complexity)]
    fn __next__<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<
        Option<(u64, u64, Bound<'py, PyDict>, String, bool, Bound<'py, PyList>, Option<String>, Option<String>)>,
    > {
        let game = match self.inner.next_game() {
            Ok(Some(g)) => g,
            Ok(None) => return Ok(None),
            Err(e) => {
                return Err(match self.inner.source_mut().error.take() {
                    Some(py_err) => py_err,
                    None => PyOSError::new_err(e.to_string()),
                })
            }
        };
        let headers = PyDict::new(py);
        for (k, v) in &game.headers {
            headers.set_item(k, v)?;
        }
        let moves = PyList::new(py, &game.moves)?;
        Ok(Some((game.index, game.line, headers, game.start_fen, game.chess960, moves, game.result, game.error)))
    }
}

/// The SAN of each move of `moves` (UCI) played in order from `fen`; raises the usual
/// FenError / IllegalMoveError on a bad position or move.
#[pyfunction]
#[pyo3(signature = (fen, moves, *, chess960 = false))]
pub fn san_line(fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<Vec<String>> {
    let mut board = CoreBoard::from_fen_with(fen, chess960).map_err(fen_err)?;
    let mut out = Vec::with_capacity(moves.len());
    for text in &moves {
        let m = board.parse_uci(text).map_err(move_err)?;
        out.push(board.move_to_san(m));
        board.make_move(m);
    }
    Ok(out)
}

/// Adds the PGN reader and `san_line` to `_core` (called from `mod.rs`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPgnReader>()?;
    m.add_function(wrap_pyfunction!(san_line, m)?)?;
    Ok(())
}
