//! Python bindings for the table-driven variant generator (`kibitz.variant`).
//!
//! `VariantBoard(sources, name, fen)` builds the variant `name` from definition texts
//! (`sources`: (file name, text) pairs, the built-ins first) and sets up `fen` or the
//! variant's start position. Errors: `VariantError` (a `ValueError`) for a bad definition,
//! naming file and line; `FenError`, `InvalidMoveError`, `IllegalMoveError` as for `Board`.

use super::errors::{FenError, IllegalMoveError, InvalidMoveError};
use super::interrupt::run_interruptible;
use crate::{
    variant_divide_until, variant_perft_until, Compiled, GameValue, VBoard, VariantError as CoreVariantError,
    VariantSet,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pyo3::create_exception!(
    kibitz,
    VariantError,
    PyValueError,
    "A variant definition that cannot be used; the message names the file and line."
);

fn variant_err(e: CoreVariantError) -> PyErr {
    VariantError::new_err(e.to_string())
}

fn value_name(v: GameValue) -> &'static str {
    match v {
        GameValue::Win => "win",
        GameValue::Loss => "loss",
        GameValue::Draw => "draw",
    }
}

/// A position of a chess variant, with its move history.
#[pyclass(module = "kibitz", name = "VariantBoard")]
#[derive(Clone)]
pub(crate) struct PyVariantBoard {
    inner: VBoard,
}

impl PyVariantBoard {
    fn check_depth(depth: i64) -> PyResult<u32> {
        if !(0..=64).contains(&depth) {
            return Err(PyValueError::new_err(format!("depth must be between 0 and 64, got {depth}")));
        }
        Ok(depth as u32)
    }
}

#[pymethods]
impl PyVariantBoard {
    #[new]
    #[pyo3(signature = (sources, name, fen = None))]
    fn new(sources: Vec<(String, String)>, name: &str, fen: Option<&str>) -> PyResult<Self> {
        let set = VariantSet::parse(&sources).map_err(variant_err)?;
        let variant = set.build(name).map_err(variant_err)?;
        let fen = fen.map(str::to_string).unwrap_or_else(|| variant.start_fen.clone());
        let compiled = Arc::new(Compiled::new(variant));
        let inner =
            VBoard::from_fen_compiled(compiled, &fen).map_err(|e| FenError::new_err(format!("{e} (FEN {fen:?})")))?;
        Ok(PyVariantBoard { inner })
    }

    /// Names of the sections defined in source `source` of `sources`, in file order.
    #[staticmethod]
    fn sections(sources: Vec<(String, String)>, source: &str) -> PyResult<Vec<String>> {
        Ok(VariantSet::parse(&sources).map_err(variant_err)?.names_in(source))
    }

    #[getter]
    fn variant(&self) -> String {
        self.inner.compiled().variant.name.clone()
    }
    #[getter]
    fn files(&self) -> u8 {
        self.inner.compiled().variant.files
    }
    #[getter]
    fn ranks(&self) -> u8 {
        self.inner.compiled().variant.ranks
    }
    #[getter]
    fn starting_fen(&self) -> String {
        self.inner.compiled().variant.start_fen.clone()
    }
    /// True when White is to move.
    #[getter]
    fn turn(&self) -> bool {
        self.inner.side_to_move() == 0
    }
    /// The piece types: (letter, defining key, Betza).
    fn pieces(&self) -> Vec<(char, String, String)> {
        self.inner.compiled().variant.pieces()
    }

    fn fen(&self) -> String {
        self.inner.fen()
    }

    /// The legal moves in UCI notation as Fairy-Stockfish writes them (`a9a10c`); a castling
    /// whose king move would read as another move is written as the king taking its rook.
    fn legal_moves(&mut self) -> Vec<String> {
        let moves = self.inner.legal_moves();
        moves.into_iter().map(|m| self.inner.move_text(m)).collect()
    }

    /// Whether `text` is a legal move here (InvalidMoveError if it is not a move at all).
    /// Generates only the moving piece's moves.
    fn is_legal(&mut self, text: &str) -> PyResult<bool> {
        match self.inner.parse_move(text) {
            Ok(_) => Ok(true),
            Err(false) => Ok(false),
            Err(true) => Err(InvalidMoveError::new_err(format!("invalid move {text:?} for {}", self.variant()))),
        }
    }

    /// Plays a legal move; raises InvalidMoveError or IllegalMoveError and changes nothing
    /// otherwise.
    fn push(&mut self, text: &str) -> PyResult<()> {
        match self.inner.parse_move(text) {
            Ok(m) => {
                self.inner.make(m);
                Ok(())
            }
            Err(true) => Err(InvalidMoveError::new_err(format!("invalid move {text:?} for {}", self.variant()))),
            Err(false) => Err(IllegalMoveError::new_err(format!("illegal move {text} in {}", self.inner.fen()))),
        }
    }

    /// Takes back the last move and returns it (IndexError if there is none).
    fn pop(&mut self) -> PyResult<String> {
        let Some(m) = self.inner.last_move() else {
            return Err(pyo3::exceptions::PyIndexError::new_err("pop from a board with no moves"));
        };
        self.inner.unmake();
        Ok(self.inner.move_text(m))
    }

    fn is_check(&self) -> bool {
        self.inner.in_check()
    }

    /// None while the game goes on; else (result for the side to move: "win", "loss" or
    /// "draw", the rule: "checkmate", "stalemate", "extinction" or "n-move rule").
    fn outcome(&mut self) -> Option<(&'static str, &'static str)> {
        self.inner.outcome().map(|(v, why)| (value_name(v), why))
    }

    /// Leaf nodes at `depth`. Releases the GIL; Ctrl-C raises KeyboardInterrupt.
    fn perft(&mut self, py: Python<'_>, depth: i64) -> PyResult<u64> {
        let depth = Self::check_depth(depth)?;
        let board = &mut self.inner;
        let abort = AtomicBool::new(false);
        run_interruptible(py, &abort, || variant_perft_until(board, depth, &abort))?
            .ok_or_else(|| PyRuntimeError::new_err("perft was stopped"))
    }

    /// Leaf counts at `depth` (>= 1) below each legal move, as {move: count}.
    fn divide<'py>(&mut self, py: Python<'py>, depth: i64) -> PyResult<Bound<'py, PyDict>> {
        let depth = Self::check_depth(depth)?.max(1);
        let board = &mut self.inner;
        let abort = AtomicBool::new(false);
        let counts = run_interruptible(py, &abort, || variant_divide_until(board, depth, &abort))?
            .ok_or_else(|| PyRuntimeError::new_err("divide was stopped"))?;
        let out = PyDict::new(py);
        for (m, n) in counts {
            out.set_item(m, n)?;
        }
        Ok(out)
    }

    fn copy(&self) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!("VariantBoard({:?}, {:?})", self.variant(), self.inner.fen())
    }
}

/// Adds the variant classes and exception to `_core` (called from `mod.rs`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyVariantBoard>()?;
    m.add("VariantError", m.py().get_type::<VariantError>())?;
    Ok(())
}
