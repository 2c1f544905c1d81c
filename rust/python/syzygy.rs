//! `kibitz._core.Tablebase`: Syzygy probing for Python (`kibitz.syzygy` wraps it with
//! python-chess's `chess.syzygy` API). Probes run without the GIL, so other Python threads
//! go on while a table is read from disk.
//!
//! Errors as python-chess raises them: a missing table is `MissingTableError` (a
//! `KeyError`), a position the tables cannot hold (castling rights, too many pieces) a
//! `KeyError`, a table file that turns out corrupt when read an `OSError`.

use std::path::PathBuf;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use pyo3::exceptions::{PyKeyError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use super::board::PyBoard;
use crate::{Board as CoreBoard, TablebaseError, Tablebases, VariantTablebases, DEFAULT_OPEN_FILES};

pyo3::create_exception!(kibitz, MissingTableError, PyKeyError, "No table of the position's material is loaded.");

fn probe_err(e: TablebaseError) -> PyErr {
    match e {
        TablebaseError::MissingTable { .. } => MissingTableError::new_err(e.to_string()),
        TablebaseError::Corrupt { .. } => PyOSError::new_err(e.to_string()),
        TablebaseError::Castling | TablebaseError::TooManyPieces { .. } | TablebaseError::InvalidPosition => {
            PyKeyError::new_err(e.to_string())
        }
    }
}

/// The tables, shared for probing (a poisoned lock, left by a panic, is a `RuntimeError`).
fn read<T>(lock: &RwLock<T>) -> PyResult<RwLockReadGuard<'_, T>> {
    lock.read().map_err(|_| PyRuntimeError::new_err("the tablebase lock is poisoned"))
}

/// The tables, alone, to add or clear.
fn write<T>(lock: &RwLock<T>) -> PyResult<RwLockWriteGuard<'_, T>> {
    lock.write().map_err(|_| PyRuntimeError::new_err("the tablebase lock is poisoned"))
}

/// A set of Syzygy tables. Thread-safe: probes share the set; adding tables waits for them.
#[pyclass(module = "kibitz._core", name = "Tablebase", frozen)]
pub struct PyTablebase {
    tables: RwLock<Tablebases>,
    open_files: Option<usize>,
}

impl PyTablebase {
    fn probe(&self, py: Python<'_>, board: &CoreBoard, dtz: bool) -> PyResult<i32> {
        py.detach(|| {
            let tables = read(&self.tables)?;
            let answer = if dtz { tables.probe_dtz(board) } else { tables.probe_wdl(board) };
            answer.map_err(probe_err)
        })
    }
}

#[pymethods]
impl PyTablebase {
    /// An empty set reading its files with at most `open_files` of them open at once
    /// (None: no limit).
    #[new]
    #[pyo3(signature = (open_files = Some(DEFAULT_OPEN_FILES)), text_signature = "(open_files=128)")]
    fn new(open_files: Option<usize>) -> Self {
        PyTablebase { tables: RwLock::new(Tablebases::with_open_files(open_files)), open_files }
    }

    /// Adds the tables of a directory; returns (files added, [(file, why skipped)]).
    fn add_directory(&self, py: Python<'_>, path: PathBuf) -> PyResult<(usize, Vec<(String, String)>)> {
        py.detach(|| {
            let mut tables = write(&self.tables)?;
            let added =
                tables.add_directory(&path).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
            Ok((added.files, added.skipped))
        })
    }

    /// Adds one table file.
    fn add_file(&self, path: PathBuf) -> PyResult<()> {
        let mut tables = write(&self.tables)?;
        tables.add_file(&path).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
    }

    /// The most pieces of any loaded table (0 when none is loaded).
    #[getter]
    fn max_pieces(&self) -> PyResult<usize> {
        Ok(read(&self.tables)?.max_pieces())
    }

    /// The number of table files loaded.
    #[getter]
    fn files(&self) -> PyResult<usize> {
        Ok(read(&self.tables)?.files())
    }

    /// WDL (-2..2) of a kibitz board for the side to move.
    fn probe_wdl(&self, py: Python<'_>, board: PyRef<'_, PyBoard>) -> PyResult<i32> {
        let core = board.snapshot()?;
        drop(board);
        self.probe(py, &core, false)
    }

    /// DTZ of a kibitz board for the side to move, in plies.
    fn probe_dtz(&self, py: Python<'_>, board: PyRef<'_, PyBoard>) -> PyResult<i32> {
        let core = board.snapshot()?;
        drop(board);
        self.probe(py, &core, true)
    }

    /// A new limit of open table files (at least one), kept at once.
    fn set_open_files(&self, limit: usize) -> PyResult<()> {
        read(&self.tables)?.set_open_files(limit);
        Ok(())
    }

    /// Forgets every table (python-chess's `close`).
    fn clear(&self) -> PyResult<()> {
        let mut tables = write(&self.tables)?;
        *tables = Tablebases::with_open_files(self.open_files);
        Ok(())
    }
}

/// The Syzygy tables of one variant (Atomic, or Antichess and Giveaway), probed by the
/// FEN of a position of that variant. Thread-safe as `Tablebase`.
#[pyclass(module = "kibitz._core", name = "VariantTablebase", frozen)]
pub struct PyVariantTablebase {
    variant: String,
    tables: RwLock<VariantTablebases>,
    open_files: Option<usize>,
}

impl PyVariantTablebase {
    fn probe(&self, py: Python<'_>, fen: &str, dtz: bool) -> PyResult<i32> {
        py.detach(|| {
            let tables = read(&self.tables)?;
            let answer = if dtz { tables.probe_dtz(fen) } else { tables.probe_wdl(fen) };
            answer.map_err(probe_err)
        })
    }
}

#[pymethods]
impl PyVariantTablebase {
    /// The tables of the variant python-chess names `uci_variant` ("atomic", "antichess"
    /// or "giveaway"), with at most `open_files` files open at once (None: no limit);
    /// `ValueError` for another variant.
    #[new]
    #[pyo3(signature = (uci_variant, open_files = Some(DEFAULT_OPEN_FILES)), text_signature = "(uci_variant, open_files=128)")]
    fn new(uci_variant: &str, open_files: Option<usize>) -> PyResult<Self> {
        let tables = VariantTablebases::new(uci_variant, open_files).ok_or_else(|| {
            PyValueError::new_err(format!(
                "no Syzygy tables of {uci_variant:?} are read in Rust (atomic, antichess, giveaway are)"
            ))
        })?;
        Ok(PyVariantTablebase { variant: uci_variant.to_string(), tables: RwLock::new(tables), open_files })
    }

    /// The variant, as given.
    #[getter]
    fn variant(&self) -> &str {
        &self.variant
    }

    /// Adds one table file of the variant.
    fn add_file(&self, path: PathBuf) -> PyResult<()> {
        let mut tables = write(&self.tables)?;
        tables.add_file(&path).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
    }

    /// WDL (-2..2) of the position of this FEN for the side to move.
    fn probe_wdl(&self, py: Python<'_>, fen: &str) -> PyResult<i32> {
        self.probe(py, fen, false)
    }

    /// DTZ of the position of this FEN for the side to move, in plies.
    fn probe_dtz(&self, py: Python<'_>, fen: &str) -> PyResult<i32> {
        self.probe(py, fen, true)
    }

    /// A new limit of open table files (at least one), kept at once.
    fn set_open_files(&self, limit: usize) -> PyResult<()> {
        read(&self.tables)?.set_open_files(limit);
        Ok(())
    }

    /// Forgets every table.
    fn clear(&self) -> PyResult<()> {
        let mut tables = write(&self.tables)?;
        if let Some(empty) = VariantTablebases::new(&self.variant, self.open_files) {
            *tables = empty;
        }
        Ok(())
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTablebase>()?;
    m.add_class::<PyVariantTablebase>()?;
    m.add("MissingTableError", m.py().get_type::<MissingTableError>())?;
    Ok(())
}
