//! PGN reading for Python: `_core.PgnReader(file)` iterates over the games of a file object
//! (binary or text) (plain, or a gzip / zstd decoder opened by `kibitz.analysis.reader`), and
//! `_core.san_line` writes a line of UCI moves as SAN (for annotated PGN output).
//!
//! The reader calls the file's `read(n)` once per 64 KB chunk and does the tokenizing and the
//! SAN replay in Rust; each game comes out as one tuple, which `kibitz.read_games` turns into
//! a `Game`.

use std::io::{Error as IoError, Read};

use super::errors::{fen_err, move_err};
use super::moves::Flag;
use super::tensor::{dtype_arg, write_ones};
use crate::{plain_tokens, Plain};
use crate::{
    sq64, Board as CoreBoard, Move, PgnGame, PgnReader as CoreReader, BISHOP, BLACK, KNIGHT, PLANE_VALUES, ROOK,
};
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

impl PyPgnReader {
    /// The next game, or the source's own error (a Python exception it raised, else OSError).
    fn next_core_game(&mut self) -> PyResult<Option<PgnGame>> {
        match self.inner.next_game() {
            Ok(g) => Ok(g),
            Err(e) => Err(match self.inner.source_mut().error.take() {
                Some(py_err) => py_err,
                None => PyOSError::new_err(e.to_string()),
            }),
        }
    }
}

/// A game's result from White's side: 1, 0, -1; None when unfinished or unknown.
fn white_result(result: &str) -> Option<i8> {
    match result {
        "1-0" => Some(1),
        "0-1" => Some(-1),
        "1/2-1/2" => Some(0),
        _ => None,
    }
}

/// The training index of a null move: 0, from a1 to a1, as python-chess's `Move.null()`
/// names its squares (no move goes from a square to itself), canonical or not.
const NULL_MOVE_INDEX: i32 = 0;

/// The training index of move `m` in `board` (the position it is played from):
/// `from * 64 + to + 4096 * k`, squares a1 = 0 .. h8 = 63 as `Move.uci()` names them
/// (castling as the king's move in standard chess, king takes rook in Chess960), k = 1, 2, 3
/// for a promotion to a knight, bishop, rook and 0 otherwise; squares mirrored (`^ 56`) when
/// `flip` (canonical planes with Black to move). A null move is NULL_MOVE_INDEX.
fn move_index(board: &CoreBoard, m: Move, flip: bool) -> i32 {
    if m.is_null() {
        return NULL_MOVE_INDEX;
    }
    let (mut from, mut to) = (sq64(m.from()), sq64(board.uci_target(m)));
    if flip {
        from ^= 56;
        to ^= 56;
    }
    let k = match m.promo() {
        KNIGHT => 1,
        BISHOP => 2,
        ROOK => 3,
        _ => 0,
    };
    (from * 64 + to + 4096 * k) as i32
}

/// One finished game, replayed: its start and main line.
struct Replay {
    index: u64,
    /// None for a game without moves (its start need not be playable: an empty board).
    board: Option<CoreBoard>,
    moves: Vec<Move>,
    result: i8,
}

/// Plays `m` (a null move too) on `board`.
fn make(board: &mut CoreBoard, m: Move) {
    if m.is_null() {
        board.make_null();
    } else {
        board.make_move(m);
    }
}

impl Replay {
    /// The game ready to replay, or None when it is left out: without a result (python-chess's:
    /// the Result tag, else the result token), or with a problem that stopped its replay
    /// (`PgnGame::whole`; one python-chess reads past leaves it in).
    fn of(game: PgnGame) -> Option<Replay> {
        if !game.whole {
            return None;
        }
        let result = white_result(game.final_result())?;
        if game.moves.is_empty() {
            return Some(Replay { index: game.index, board: None, moves: Vec::new(), result });
        }
        let mut board = CoreBoard::from_fen_with(&game.start_fen, game.chess960).ok()?;
        let start = board.clone();
        let mut moves = Vec::with_capacity(game.moves.len());
        for text in &game.moves {
            let m = if text == "0000" { Move::NULL } else { board.parse_uci(text).ok()? };
            make(&mut board, m);
            moves.push(m);
        }
        Some(Replay { index: game.index, board: Some(start), moves, result })
    }
}

#[pymethods]
impl PyPgnReader {
    /// The next chunk of training positions: the position before each move of the main
    /// line of whole finished games, about `max_positions` of them (at least one game), as
    /// `(planes, moves, results, games, n, skipped)`: bytearrays of n x 1,152 values of
    /// `dtype` (the planes, `canonical` as `Board.to_tensor` has it), n int32 move indexes
    /// (`move_index`), n int8 results (1, 0, -1 for White; for the side to move when
    /// `canonical`), n int64 game numbers (1-based, in the file); `skipped` counts the games
    /// left out (no result, or a problem that stopped the replay: `Replay::of`). None at the
    /// end of the file.
    #[allow(clippy::type_complexity)]
    fn planes_chunk<'py>(
        &mut self,
        py: Python<'py>,
        max_positions: usize,
        canonical: Flag,
        dtype: &str,
    ) -> PyResult<
        Option<(
            Bound<'py, PyByteArray>,
            Bound<'py, PyByteArray>,
            Bound<'py, PyByteArray>,
            Bound<'py, PyByteArray>,
            usize,
            u64,
        )>,
    > {
        let canonical = canonical.0;
        let dtype = dtype_arg(dtype)?;
        let mut games = Vec::new();
        let (mut n, mut skipped, mut seen) = (0usize, 0u64, false);
        while n < max_positions.max(1) {
            let Some(game) = self.next_core_game()? else { break };
            seen = true;
            match Replay::of(game) {
                Some(r) => {
                    n += r.moves.len();
                    games.push(r);
                }
                None => skipped += 1,
            }
        }
        if !seen {
            return Ok(None);
        }
        let per = PLANE_VALUES * dtype.size();
        let (mut moves, mut results, mut numbers) =
            (Vec::with_capacity(n * 4), Vec::with_capacity(n), Vec::with_capacity(n * 8));
        let planes = PyByteArray::new_with(py, n * per, |bytes| {
            let mut chunks = bytes.chunks_exact_mut(per);
            for g in &mut games {
                let Some(board) = g.board.as_mut() else { continue };
                for &m in &g.moves {
                    let flip = canonical && board.side_to_move() == BLACK;
                    let chunk = chunks.next().expect("one chunk per position");
                    write_ones(board, canonical, dtype, chunk);
                    moves.extend_from_slice(&move_index(board, m, flip).to_ne_bytes());
                    results.push((if flip { -g.result } else { g.result }) as u8);
                    numbers.extend_from_slice(&(g.index as i64).to_ne_bytes());
                    make(board, m);
                }
            }
            Ok(())
        })?;
        Ok(Some((
            planes,
            PyByteArray::new(py, &moves),
            PyByteArray::new(py, &results),
            PyByteArray::new(py, &numbers),
            n,
            skipped,
        )))
    }

    /// The games read so far, those left out included (the number of the last one read).
    #[getter]
    fn games_read(&self) -> u64 {
        self.inner.games_read()
    }

    /// A reader over `file`. With `lenient` (training data) it reads what python-chess reads
    /// beyond what analysis can use: null moves, and FEN tags the core refuses read as
    /// `kibitz.Board(fen)` reads them (the rules library's `Setup`: python-chess's rules).
    #[new]
    #[pyo3(signature = (file, *, lenient = false))]
    fn new(file: Py<PyAny>, lenient: bool) -> Self {
        let reader = CoreReader::new(PyFile::new(file));
        let inner = if lenient { reader.with_null_moves().with_fen_fallback(Box::new(board_fen)) } else { reader };
        PyPgnReader { inner }
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
        let Some(game) = self.next_core_game()? else { return Ok(None) };
        let headers = PyDict::new(py);
        for (k, v) in &game.headers {
            headers.set_item(k, v)?;
        }
        let moves = PyList::new(py, &game.moves)?;
        Ok(Some((game.index, game.line, headers, game.start_fen, game.chess960, moves, game.result, game.error)))
    }
}

/// The core reader's fallback for FEN tags its strict reader refuses (`FenFallback`): the
/// FEN `kibitz.Board(fen)` gives the core (the rules library's lenient reader, `Setup`) and
/// whether python-chess reads the game as Chess960 (`chess.pgn.read_game`: when the board's
/// `has_chess960_castling_rights()`), or why python-chess's rules refuse the FEN too.
fn board_fen(fen: &str, chess960: bool) -> Result<(String, bool), String> {
    let mut setup = crate::Setup::from_fen(fen, chess960)?;
    setup.chess960 = chess960 || setup.has_chess960_castling_rights();
    Ok((setup.core_fen(setup.clean_castling()), setup.chess960))
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
    m.add_function(wrap_pyfunction!(plain_tokens_py, m)?)?;
    Ok(())
}

/// `_core.plain_tokens(line)`: the tokens of a plain movetext line as the Python reader
/// writes them (SAN, results, `$n`, glyphs, `{` + comment), or None.
#[pyfunction]
#[pyo3(name = "plain_tokens")]
pub fn plain_tokens_py(line: &str) -> Option<Vec<String>> {
    plain_tokens(line, false).map(|tokens| {
        tokens
            .into_iter()
            .map(|t| match t {
                Plain::San(s) => s.to_string(),
                Plain::Text(s) => s,
                Plain::Open => "(".to_string(),
                Plain::Close => ")".to_string(),
            })
            .collect()
    })
}
