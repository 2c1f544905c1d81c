//! `kibitz.Board`: the Python face of the core board.

use super::{fen_err, move_err};
use crate::{divide, perft, Board as CoreBoard, WHITE};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

fn check_depth(depth: i64) -> PyResult<u32> {
    if !(0..=64).contains(&depth) {
        return Err(PyValueError::new_err(format!("depth must be between 0 and 64, got {depth}")));
    }
    Ok(depth as u32)
}

/// A chess position with its move history.
///
/// `Board()` is the start position; `Board(fen)` parses a FEN (raising `FenError`);
/// `Board(fen, chess960=True)` accepts Chess960 positions and Shredder/X-FEN castling.
#[pyclass(module = "kibitz", name = "Board")]
#[derive(Clone)]
pub struct PyBoard {
    pub(crate) inner: CoreBoard,
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen = None, *, chess960 = false))]
    fn new(fen: Option<&str>, chess960: bool) -> PyResult<Self> {
        let fen = fen.unwrap_or(crate::STARTPOS);
        let inner = CoreBoard::from_fen_with(fen, chess960).map_err(fen_err)?;
        Ok(PyBoard { inner })
    }

    /// Builds a Board from a `chess.Board` of python-chess, history included (its root
    /// position, then every move of its move stack).
    #[classmethod]
    fn from_chess(_cls: &Bound<'_, PyType>, board: &Bound<'_, PyAny>) -> PyResult<Self> {
        let root = board.call_method0("root")?;
        let fen: String = root.call_method0("fen")?.extract()?;
        let chess960: bool = board.getattr("chess960")?.extract()?;
        let mut inner = CoreBoard::from_fen_with(&fen, chess960).map_err(fen_err)?;
        for m in board.getattr("move_stack")?.try_iter()? {
            let text: String = m?.call_method0("uci")?.extract()?;
            inner.push_uci(&text).map_err(move_err)?;
        }
        Ok(PyBoard { inner })
    }

    /// The same position as a `chess.Board` of python-chess (which must be installed),
    /// history included.
    fn to_chess<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let chess = py.import("chess")?;
        let mut root = self.inner.clone();
        let moves: Vec<String> = {
            let mut texts = Vec::new();
            while root.ply() > 0 {
                root.unmake_move();
                let m = self.inner.move_history().nth(root.ply()).expect("history entry");
                texts.push(root.move_to_uci(m));
            }
            texts.reverse();
            texts
        };
        let kwargs = PyDict::new(py);
        kwargs.set_item("chess960", self.inner.is_chess960())?;
        let b = chess.getattr("Board")?.call((root.fen(),), Some(&kwargs))?;
        for m in moves {
            b.call_method1("push_uci", (m,))?;
        }
        Ok(b)
    }

    /// The FEN of the position (en-passant square only when the capture is legal).
    fn fen(&self) -> String {
        self.inner.fen()
    }

    /// True when White is to move.
    #[getter]
    fn turn(&self) -> bool {
        self.inner.side_to_move() == WHITE
    }

    #[getter]
    fn chess960(&self) -> bool {
        self.inner.is_chess960()
    }

    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.inner.halfmove_clock()
    }

    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.inner.fullmove_number()
    }

    /// The moves played since set-up, oldest first, as UCI text.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        let mut b = self.inner.clone();
        let mut out = Vec::with_capacity(b.ply());
        while let Some(m) = b.unmake_move() {
            out.push(b.move_to_uci(m));
        }
        out.reverse();
        out
    }

    /// The legal moves as UCI strings.
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves_uci()
    }

    /// Plays a move given as UCI text. Raises InvalidMoveError for malformed text and
    /// IllegalMoveError for an illegal move; the board is then unchanged.
    fn push_uci(&mut self, r#move: &str) -> PyResult<()> {
        self.inner.push_uci(r#move).map(|_| ()).map_err(move_err)
    }

    /// The SAN of a legal move given as UCI text (e.g. "g1f3" -> "Nf3").
    fn san(&self, r#move: &str) -> PyResult<String> {
        let m = self.inner.parse_uci(r#move).map_err(move_err)?;
        Ok(self.inner.move_to_san(m))
    }

    /// The UCI text of a legal move given in SAN (raises AmbiguousMoveError when it fits several).
    fn parse_san(&self, san: &str) -> PyResult<String> {
        let m = self.inner.parse_san(san).map_err(move_err)?;
        Ok(self.inner.move_to_uci(m))
    }

    /// Plays a move given in SAN and returns it as UCI text; on error the board is unchanged.
    fn push_san(&mut self, san: &str) -> PyResult<String> {
        let m = self.inner.parse_san(san).map_err(move_err)?;
        let text = self.inner.move_to_uci(m);
        self.inner.make_move(m);
        Ok(text)
    }

    /// Takes back the last move and returns it as UCI text (IndexError when there is none).
    fn pop(&mut self) -> PyResult<String> {
        match self.inner.unmake_move() {
            Some(m) => Ok(self.inner.move_to_uci(m)),
            None => Err(PyIndexError::new_err("pop from a board with no moves played")),
        }
    }

    /// The last move played, as UCI text (IndexError when there is none).
    fn peek(&self) -> PyResult<String> {
        let mut b = self.inner.clone();
        match b.unmake_move() {
            Some(m) => Ok(b.move_to_uci(m)),
            None => Err(PyIndexError::new_err("peek at a board with no moves played")),
        }
    }

    /// Leaf nodes of the legal move tree to `depth` (bulk-counted). Releases the GIL.
    fn perft(&mut self, py: Python<'_>, depth: i64) -> PyResult<u64> {
        let depth = check_depth(depth)?;
        let board = &mut self.inner;
        Ok(py.detach(|| perft(board, depth)))
    }

    /// Leaf counts below each legal move at `depth` (>= 1), in generation order. Releases the GIL.
    fn divide<'py>(&mut self, py: Python<'py>, depth: i64) -> PyResult<Bound<'py, PyDict>> {
        let depth = check_depth(depth)?.max(1);
        let board = &mut self.inner;
        let counts = py.detach(|| divide(board, depth));
        let out = PyDict::new(py);
        for (m, n) in counts {
            out.set_item(self.inner.move_to_uci(m), n)?;
        }
        Ok(out)
    }

    fn is_check(&self) -> bool {
        self.inner.in_check()
    }

    fn is_checkmate(&self) -> bool {
        self.inner.in_check() && !self.inner.has_legal_move()
    }

    fn is_stalemate(&self) -> bool {
        !self.inner.in_check() && !self.inner.has_legal_move()
    }

    /// The Polyglot key, equal to `chess.polyglot.zobrist_hash` of the same position.
    fn polyglot_key(&self) -> u64 {
        self.inner.key()
    }

    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.extract::<PyRef<'_, PyBoard>>() {
            Ok(o) => self.inner == o.inner,
            Err(_) => false,
        }
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.inner.fen())
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }
}


