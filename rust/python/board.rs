//! `kibitz.Board`: the Python face of the core board.

use super::{fen_err, fen_text_err, move_err, move_text_err, text};
use super::interrupt::run_interruptible;
use crate::{divide_until, perft_until, sq120, sq64, square_name, Board as CoreBoard, Move, MoveList, WHITE};
use std::sync::atomic::AtomicBool;

use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyType};

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
    /// Legal moves already generated, by ply (entry i belongs to the position after i moves
    /// of the current line; entries beyond the current ply are dropped on push and pop).
    /// `legal_moves()` fills it and `push_uci` reads it, so the usual Python loop
    /// "for m in board.legal_moves(): board.push_uci(m) ... board.pop()" generates once per node.
    legal_cache: Vec<Option<(u64, Vec<Move>)>>,
}

impl PyBoard {
    pub(crate) fn wrap(inner: CoreBoard) -> PyBoard {
        PyBoard { inner, legal_cache: Vec::new() }
    }

    /// The legal moves of the current position, generated at most once per position.
    fn cached_legal(&mut self) -> &[Move] {
        let ply = self.inner.ply();
        let key = self.inner.key();
        if self.legal_cache.len() <= ply {
            self.legal_cache.resize(ply + 1, None);
        }
        let fresh = matches!(&self.legal_cache[ply], Some((k, _)) if *k == key);
        if !fresh {
            let mut ml = MoveList::new();
            self.inner.generate_legal(&mut ml);
            self.legal_cache[ply] = Some((key, ml.as_slice().to_vec()));
        }
        match &self.legal_cache[ply] {
            Some((_, moves)) => moves,
            None => &[],
        }
    }

    /// Plays a legal move, dropping cache entries of the line it replaces.
    fn play(&mut self, m: Move) {
        self.inner.make_move(m);
        self.legal_cache.truncate(self.inner.ply());
    }
}

/// The UCI text of every (from, to, promotion) as a Python string made once: handing out
/// a new reference is far cheaper than building a string per move per call.
static UCI_TEXT: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

fn uci_text<'py>(py: Python<'py>, board: &CoreBoard, m: Move) -> Bound<'py, PyString> {
    let table = UCI_TEXT.get_or_init(py, || {
        let mut t = Vec::with_capacity(64 * 64 * 5);
        for from in 0..64 {
            for to in 0..64 {
                for promo in ["", "n", "b", "r", "q"] {
                    let f = sq120(from % 8, from / 8);
                    let g = sq120(to % 8, to / 8);
                    let text = format!("{}{}{}", square_name(f), square_name(g), promo);
                    t.push(PyString::new(py, &text).unbind());
                }
            }
        }
        t
    });
    if m.is_null() {
        return PyString::new(py, "0000");
    }
    // Promotion kinds KNIGHT..QUEEN are 2..5; 0 means none.
    let promo = if m.is_promotion() { m.promo() as usize - 1 } else { 0 };
    let idx = (sq64(m.from()) * 64 + sq64(board.uci_target(m))) * 5 + promo;
    table[idx].bind(py).clone()
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen = None, *, chess960 = false))]
    fn new(fen: Option<Bound<'_, PyString>>, chess960: bool) -> PyResult<Self> {
        let fen = match &fen {
            Some(f) => text(f, "FEN", fen_text_err)?,
            None => crate::STARTPOS.into(),
        };
        let inner = CoreBoard::from_fen_with(&fen, chess960).map_err(fen_err)?;
        Ok(PyBoard::wrap(inner))
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
        Ok(PyBoard::wrap(inner))
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
    fn legal_moves<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves = self.cached_legal().to_vec();
        PyList::new(py, moves.iter().map(|&m| uci_text(py, &self.inner, m)))
    }

    /// Plays a move given as UCI text. Raises InvalidMoveError for malformed text and
    /// IllegalMoveError for an illegal move; the board is then unchanged.
    fn push_uci(&mut self, r#move: Bound<'_, PyString>) -> PyResult<()> {
        let r#move = text(&r#move, "move", move_text_err)?;
        let legal = self.cached_legal().to_vec();
        let m = self.inner.parse_uci_among(&r#move, &legal).map_err(move_err)?;
        self.play(m);
        Ok(())
    }

    /// The SAN of a legal move given as UCI text (e.g. "g1f3" -> "Nf3").
    fn san(&self, r#move: Bound<'_, PyString>) -> PyResult<String> {
        let r#move = text(&r#move, "move", move_text_err)?;
        let m = self.inner.parse_uci(&r#move).map_err(move_err)?;
        Ok(self.inner.move_to_san(m))
    }

    /// The UCI text of a legal move given in SAN (raises AmbiguousMoveError when it fits several).
    fn parse_san(&self, san: Bound<'_, PyString>) -> PyResult<String> {
        let san = text(&san, "move", move_text_err)?;
        let m = self.inner.parse_san(&san).map_err(move_err)?;
        Ok(self.inner.move_to_uci(m))
    }

    /// Plays a move given in SAN and returns it as UCI text; on error the board is unchanged.
    fn push_san(&mut self, san: Bound<'_, PyString>) -> PyResult<String> {
        let san = text(&san, "move", move_text_err)?;
        let m = self.inner.parse_san(&san).map_err(move_err)?;
        let text = self.inner.move_to_uci(m);
        self.play(m);
        Ok(text)
    }

    /// Takes back the last move and returns it as UCI text (IndexError when there is none).
    fn pop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        match self.inner.unmake_move() {
            Some(m) => {
                self.legal_cache.truncate(self.inner.ply() + 1);
                Ok(uci_text(py, &self.inner, m))
            }
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
        let abort = AtomicBool::new(false);
        let nodes = run_interruptible(py, &abort, || perft_until(board, depth, &abort))?;
        nodes.ok_or_else(|| PyRuntimeError::new_err("perft was stopped"))
    }

    /// Leaf counts below each legal move at `depth` (>= 1), in generation order. Releases the GIL.
    fn divide<'py>(&mut self, py: Python<'py>, depth: i64) -> PyResult<Bound<'py, PyDict>> {
        let depth = check_depth(depth)?.max(1);
        let board = &mut self.inner;
        let abort = AtomicBool::new(false);
        let counts = run_interruptible(py, &abort, || divide_until(board, depth, &abort))?
            .ok_or_else(|| PyRuntimeError::new_err("divide was stopped"))?;
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

    // ---- Game-end rules (issue 3, search engineer; implemented in rust/draw.rs) ----
    // Same meaning as python-chess's methods of the same names.

    /// True when the current position has occurred at least `count` times (this one
    /// included), counting the move history.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: i64) -> bool {
        self.inner.is_repetition(count.max(0) as usize)
    }

    /// True when neither side has mating material.
    fn is_insufficient_material(&self) -> bool {
        self.inner.is_insufficient_material()
    }

    /// True when the fifty-move rule can be claimed (100 half-moves, not checkmate).
    fn is_fifty_moves(&self) -> bool {
        self.inner.is_fifty_moves()
    }

    /// True when the game is over: checkmate, stalemate, insufficient material, the
    /// 75-move rule, fivefold repetition; with `claim_draw` also the fifty-move rule and
    /// threefold repetition.
    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.inner.outcome(claim_draw) != crate::Outcome::Ongoing
    }

    /// "1-0", "0-1", "1/2-1/2", or "*" while the game goes on (see `is_game_over`).
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(&self, claim_draw: bool) -> &'static str {
        self.inner.outcome(claim_draw).as_str()
    }
}


