//! `kibitz.Engine`: the Python face of the search (its results: `search_result.rs`).
//!
//! Threading: `Engine` is a frozen class. The stop flag is an `Arc<AtomicBool>` outside the
//! mutable search state, so `stop()` (taking `&self`) works from any thread while `search`
//! runs with the GIL released and the engine's `Mutex` held. The callback `on_info` is run
//! with the GIL re-acquired once per finished iteration; an exception it raises stops the
//! search and is raised from `search` after it has returned. A panic in the search becomes
//! a `RuntimeError`, never a crash.
//!
//! Time: every decision is the Python time manager's (`kibitz.timeman`, the design card's
//! place for it); this file passes the cap it gives to the search, asks it after each
//! iteration whether to go on, and hands it `ponderhit`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use super::board::PyBoard;
use super::errors::{move_err, open_regular, NetError};
use super::interrupt::run_interruptible;
use super::search_result::{line_result, outcome_result, Common, PySearchResult};
use crate::{
    embedded_net, Board as CoreBoard, Engine as CoreEngine, Features, Info, Limits, MoveList, Network, Syzygy,
    Tablebases, MAX_DEPTH, MAX_THREADS, NO_DEADLINE, WHITE,
};
use pyo3::exceptions::{PyMemoryError, PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::types::PyInt;

/// Largest table accepted (MB): far beyond the machines this runs on, but it keeps a typo
/// from asking for exabytes. Sizes below it that the system cannot give raise MemoryError.
pub(crate) const MAX_HASH_MB: i64 = 1 << 20;

/// Longest time limit (ms): 2^40 ms is about 35 years, longer than any game; larger values
/// (and `inf`) are read as it, so no limit can overflow a `Duration` or an `Instant`.
pub(crate) const MAX_TIME_MS: f64 = (1u64 << 40) as f64;

/// Most MultiPV lines a search reports: more than any GUI shows, and every line costs a
/// full-width re-search; the UCI option MultiPV offers this many.
pub(crate) const MAX_MULTIPV: usize = 256;

/// The chess engine: alpha-beta search with a transposition table of `hash_mb` megabytes.
///
/// `search` releases the GIL; `stop()` may be called from another thread and makes the
/// running search return its best move so far.
#[pyclass(module = "kibitz", name = "Engine", frozen)]
pub struct PyEngine {
    stop: Arc<AtomicBool>,
    /// Raised by `ponderhit()`: a ponder search's clock starts. Lowered when a search ends,
    /// not when one starts, so a `ponderhit()` that comes before the ponder search has
    /// begun is not lost (the search then runs on the clock from its start).
    ponderhit: Arc<AtomicBool>,
    /// The running search's time manager, its movable cap and its start, for `ponderhit()`
    /// (None between searches).
    timing: Mutex<Option<Timing>>,
    inner: Mutex<CoreEngine>,
    hash_mb: AtomicUsize,
    threads: AtomicUsize,
    /// The evaluation choice: whether the net is used, and the net file loaded by
    /// `eval_file` / `load_eval_file` (`None`: the embedded net).
    eval: Mutex<EvalChoice>,
}

/// A running search's time manager (a `kibitz.timeman.TimeManagerLike`), the cap it may move
/// (ms from the start, `NO_DEADLINE` for none) and the search's start.
struct Timing {
    manager: Py<PyAny>,
    deadline: Arc<AtomicU64>,
    start: Instant,
}

/// A cap in milliseconds from Python (None: none) as the search's deadline value.
fn deadline_ms(cap: Option<f64>) -> u64 {
    match cap {
        Some(ms) if ms.is_finite() => ms.clamp(0.0, MAX_TIME_MS) as u64,
        Some(ms) if ms > 0.0 => MAX_TIME_MS as u64,
        Some(_) => 0,
        None => NO_DEADLINE,
    }
}

/// Which evaluation an engine uses (kept beside the core engine so that turning the net off
/// and on again restores the file that was loaded).
struct EvalChoice {
    nnue: bool,
    file: Option<(String, Arc<Network>)>,
}

impl EvalChoice {
    /// The net the core engine should use (`None`: the hand-written evaluation).
    fn net(&self) -> Option<Arc<Network>> {
        if !self.nnue {
            return None;
        }
        match &self.file {
            Some((_, net)) => Some(Arc::clone(net)),
            None => embedded_net(),
        }
    }
}

/// Reads a net file: `OSError` when it cannot be read or is no regular file (a FIFO, a
/// device, a directory), `kibitz.NetError` (a `ValueError`) naming the file and what is
/// wrong when it is not a valid net. Nothing here can block or read without bound: the
/// file type is checked before it is opened (opening a FIFO would wait for a writer), and
/// the size the header announces is compared with the file's before the body is read.
fn read_net(path: &str) -> PyResult<Arc<Network>> {
    use std::io::Read;
    let os_err = |e: std::io::Error| PyOSError::new_err(format!("cannot read net file {path:?}: {e}"));
    let net_err = |e: crate::NetError| NetError::new_err(format!("{path:?}: {e}"));
    let (file, len) = open_regular(path).map_err(os_err)?;
    let mut header = Vec::with_capacity(Network::HEADER_BYTES);
    (&file).take(Network::HEADER_BYTES as u64).read_to_end(&mut header).map_err(os_err)?;
    let expected = Network::size_from_header(&header).map_err(net_err)?;
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    if len < expected {
        return Err(net_err(crate::NetError::Truncated { expected, got: len }));
    }
    if len > expected {
        return Err(net_err(crate::NetError::TrailingBytes { expected, got: len }));
    }
    let mut bytes = header;
    bytes.reserve_exact(expected - bytes.len());
    // One byte more than announced is read if the file grew meanwhile: from_bytes refuses it.
    (&file).take((expected + 1 - bytes.len()) as u64).read_to_end(&mut bytes).map_err(os_err)?;
    Network::from_bytes(&bytes).map(Arc::new).map_err(net_err)
}

/// The default features with `(name, on)` pairs applied; ValueError naming an unknown name.
/// The position a search or an evaluation is asked about: a kibitz `Board` (standard chess
/// or Chess960), or a python-chess board, read through `Board.from_chess` with its moves.
/// A variant's board is refused: the engine plays standard chess, and would answer moves
/// of another game.
fn engine_board(board: &Bound<'_, PyAny>) -> PyResult<CoreBoard> {
    let py = board.py();
    let kind = || board.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_string());
    let variant: Option<String> = board.getattr("uci_variant").ok().and_then(|v| v.extract().ok());
    if let Some(v) = variant.as_deref().filter(|&v| v != "chess") {
        return Err(PyValueError::new_err(format!(
            "the engine plays standard chess and Chess960, not {v}: a {} is not searched",
            kind()
        )));
    }
    if let Ok(ours) = board.cast::<PyBoard>() {
        return ours.get().snapshot();
    }
    if board.hasattr("move_stack")? && board.hasattr("root")? && board.hasattr("chess960")? {
        let converted = py.get_type::<PyBoard>().call_method1("from_chess", (board,))?;
        return converted.cast::<PyBoard>()?.get().snapshot();
    }
    Err(PyTypeError::new_err(format!("board must be a kibitz.Board or a python-chess Board, not {}", kind())))
}

/// A file or directory argument: a str, or any `os.PathLike` (a `pathlib.Path`).
struct PathText(String);

impl<'py> FromPyObject<'_, 'py> for PathText {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(text) = obj.extract::<String>() {
            return Ok(PathText(text));
        }
        let fspath = obj.py().import("os")?.call_method1("fspath", (obj,))?;
        fspath.extract::<String>().map(PathText).map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a path as str or os.PathLike of str, got {}",
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })
    }
}

fn make_features(pairs: std::collections::HashMap<String, bool>) -> PyResult<Features> {
    let mut f = Features::default();
    for (name, on) in pairs {
        f.set(&name, on).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(f)
}

fn check_threads(threads: AnyInt) -> PyResult<usize> {
    let n = threads.0;
    if !(1..=MAX_THREADS as i128).contains(&n) {
        return Err(PyValueError::new_err(format!("threads must be between 1 and {MAX_THREADS}, got {threads}")));
    }
    Ok(n as usize)
}

fn check_hash(hash_mb: AnyInt) -> PyResult<usize> {
    let mb = hash_mb.0;
    if !(1..=MAX_HASH_MB as i128).contains(&mb) {
        return Err(PyValueError::new_err(format!("hash_mb must be between 1 and {MAX_HASH_MB}, got {hash_mb}")));
    }
    Ok(mb as usize)
}

fn alloc_err(e: crate::AllocError) -> PyErr {
    PyMemoryError::new_err(format!("{e}: ask for less (the engine keeps its old table)"))
}

/// An integer argument of any size, saturated to the i128 range: a Python int too large
/// for 64 bits is read without an OverflowError, so each caller's range check names the
/// argument instead.
#[derive(Clone, Copy)]
pub(super) struct AnyInt(i128);

impl<'a, 'py> FromPyObject<'a, 'py> for AnyInt {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(v) = obj.extract::<i128>() {
            return Ok(AnyInt(v));
        }
        if obj.is_instance_of::<PyInt>() {
            return Ok(AnyInt(if obj.gt(0)? { i128::MAX } else { i128::MIN }));
        }
        Err(PyTypeError::new_err(format!("expected an integer, got {}", obj.repr()?)))
    }
}

/// A search depth given from Python: 1 to `MAX_DEPTH`, else a ValueError naming it
/// (`Engine.search(depth=...)` and the bench).
pub(super) fn search_depth(depth: AnyInt) -> PyResult<u32> {
    if !(1..=MAX_DEPTH as i128).contains(&depth.0) {
        return Err(PyValueError::new_err(format!("depth must be between 1 and {MAX_DEPTH}, got {depth}")));
    }
    Ok(depth.0 as u32)
}

impl std::fmt::Display for AnyInt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            i128::MAX => write!(f, "a number too large"),
            i128::MIN => write!(f, "a number too small"),
            v => write!(f, "{v}"),
        }
    }
}

/// A time limit in milliseconds: NaN and negative values are errors; values beyond
/// `MAX_TIME_MS` (also `inf`, and ints too large for a float) are read as it.
fn ms(name: &str, v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    let Some(obj) = v else { return Ok(None) };
    let x = match obj.extract::<f64>() {
        Ok(x) => x,
        Err(_) if obj.is_instance_of::<PyInt>() => {
            if obj.gt(0)? {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            }
        }
        Err(_) => {
            return Err(PyValueError::new_err(format!("{name} must be a number of milliseconds, got {}", obj.repr()?)))
        }
    };
    if x.is_nan() || x < 0.0 {
        return Err(PyValueError::new_err(format!("{name} must be a non-negative number of milliseconds, got {x}")));
    }
    Ok(Some(Duration::from_secs_f64(x.min(MAX_TIME_MS) / 1000.0)))
}

impl PyEngine {
    /// The engine state for a call that must not wait for a running search.
    fn idle(&self) -> PyResult<MutexGuard<'_, CoreEngine>> {
        match self.inner.try_lock() {
            Ok(g) => Ok(g),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
            Err(TryLockError::WouldBlock) => {
                Err(PyRuntimeError::new_err("the engine is searching; call stop() and wait for search() to return"))
            }
        }
    }
}

#[pymethods]
impl PyEngine {
    /// `eval_file`: a net file to evaluate with instead of the embedded one (see
    /// `load_eval_file`); `nnue=False`: the hand-written evaluation instead of a net.
    ///
    /// `features`: search features to switch on or off, `{name: bool}` over the defaults
    /// (names in `Engine.feature_names()`; an unknown one is a ValueError), for matches
    /// that measure a feature.
    #[new]
    #[pyo3(signature = (hash_mb = AnyInt(16), threads = AnyInt(1), *, eval_file = None, nnue = true, features = None, syzygy_path = None),
           text_signature = "(hash_mb=16, threads=1, *, eval_file=None, nnue=True, features=None, syzygy_path=None)")]
    fn new(
        hash_mb: AnyInt,
        threads: AnyInt,
        eval_file: Option<PathText>,
        nnue: bool,
        features: Option<std::collections::HashMap<String, bool>>,
        syzygy_path: Option<PathText>,
    ) -> PyResult<Self> {
        let eval_file = eval_file.map(|p| p.0);
        let syzygy = match syzygy_path {
            Some(PathText(path)) => Some(load_syzygy(&path, 1, 7, true)?),
            None => None,
        };
        let mb = check_hash(hash_mb)?;
        let n = check_threads(threads)?;
        let features = make_features(features.unwrap_or_default())?;
        let file = match eval_file {
            Some(path) => {
                let net = read_net(&path)?;
                Some((path, net))
            }
            None => None,
        };
        let mut engine = CoreEngine::try_new(mb).map_err(alloc_err)?;
        engine.features = features;
        // The `nnue` feature switched off turns the net off too.
        let choice = EvalChoice { nnue: nnue && features.nnue, file };
        engine.features.nnue = choice.nnue;
        engine.set_threads(n);
        engine.set_net(choice.net());
        engine.set_syzygy(syzygy);
        Ok(PyEngine {
            stop: Arc::new(AtomicBool::new(false)),
            ponderhit: Arc::new(AtomicBool::new(false)),
            timing: Mutex::new(None),
            inner: Mutex::new(engine),
            hash_mb: AtomicUsize::new(mb),
            threads: AtomicUsize::new(n),
            eval: Mutex::new(choice),
        })
    }

    /// Sets the Syzygy tablebases the search probes: directories separated by the system's
    /// path separator (`:`), as UCI's `SyzygyPath`; None or "" removes them. `probe_depth`,
    /// `probe_limit` and `rule50` are UCI's `SyzygyProbeDepth`, `SyzygyProbeLimit` and
    /// `Syzygy50MoveRule`. Returns the number of table files loaded; a directory that cannot
    /// be read is an OSError and changes nothing.
    #[pyo3(signature = (path, probe_depth = 1, probe_limit = 7, rule50 = true))]
    fn set_syzygy(
        &self,
        path: Option<PathText>,
        probe_depth: i32,
        probe_limit: usize,
        rule50: bool,
    ) -> PyResult<usize> {
        let path = path.map(|p| p.0);
        let syzygy = match path.as_deref() {
            None | Some("") | Some("<empty>") => None,
            Some(p) => Some(load_syzygy(p, probe_depth, probe_limit, rule50)?),
        };
        let files = syzygy.as_ref().map(|s| s.tables.files()).unwrap_or(0);
        self.idle()?.set_syzygy(syzygy);
        Ok(files)
    }

    /// The number of tablebase files the search probes (0: none).
    #[getter]
    fn syzygy_files(&self) -> PyResult<usize> {
        Ok(self.idle()?.syzygy().map(|s| s.tables.files()).unwrap_or(0))
    }

    /// The names of the search features `features` can switch.
    #[staticmethod]
    fn feature_names() -> Vec<&'static str> {
        Features::NAMES.to_vec()
    }

    /// Every search feature and whether it is on.
    #[getter]
    fn features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let f = self.idle()?.features;
        let out = pyo3::types::PyDict::new(py);
        for &n in Features::NAMES.iter() {
            out.set_item(n, f.get(n).unwrap_or(false))?;
        }
        Ok(out)
    }

    /// Sets the search features: the defaults with `{name: bool}` applied (an unknown name
    /// is a ValueError and changes nothing). `nnue`, when given, also sets the `nnue`
    /// attribute; when not given, the evaluation in use stays.
    fn set_features(&self, features: std::collections::HashMap<String, bool>) -> PyResult<()> {
        let nnue = features.get("nnue").copied();
        let mut f = make_features(features)?;
        let mut engine = self.idle()?;
        let mut choice = self.eval.lock().unwrap_or_else(|p| p.into_inner());
        f.nnue = nnue.unwrap_or(choice.nnue);
        engine.features = f;
        if choice.nnue != f.nnue {
            choice.nnue = f.nnue;
            engine.set_net(choice.net());
        }
        Ok(())
    }

    /// Evaluates with the net in the file at `path` from now on (and clears the table).
    /// A file that cannot be read raises `OSError`, one that is not a valid net (bad
    /// header, truncated, corrupt) raises `NetError`, a `ValueError`; either way the engine
    /// keeps the evaluation it had.
    fn load_eval_file(&self, path: PathText) -> PyResult<()> {
        let PathText(path) = path;
        let net = read_net(&path)?;
        let mut engine = self.idle()?;
        let mut choice = self.eval.lock().unwrap_or_else(|p| p.into_inner());
        choice.file = Some((path, net));
        engine.set_net(choice.net());
        Ok(())
    }

    /// Goes back to the embedded net (forgetting a loaded file; clears the table).
    fn use_embedded_net(&self) -> PyResult<()> {
        let mut engine = self.idle()?;
        let mut choice = self.eval.lock().unwrap_or_else(|p| p.into_inner());
        choice.file = None;
        engine.set_net(choice.net());
        Ok(())
    }

    /// The net file in use, or None for the embedded net.
    #[getter]
    fn eval_file(&self) -> Option<String> {
        self.eval.lock().unwrap_or_else(|p| p.into_inner()).file.as_ref().map(|(p, _)| p.clone())
    }

    /// Whether the search evaluates with a net (True, the default) or with the
    /// hand-written evaluation (False). Setting it clears the table.
    #[getter]
    fn nnue(&self) -> bool {
        self.eval.lock().unwrap_or_else(|p| p.into_inner()).nnue
    }

    #[setter]
    fn set_nnue(&self, on: bool) -> PyResult<()> {
        let mut engine = self.idle()?;
        engine.features.nnue = on; // `features` says what the search uses
        let mut choice = self.eval.lock().unwrap_or_else(|p| p.into_inner());
        if choice.nnue != on {
            choice.nnue = on;
            engine.set_net(choice.net());
        }
        Ok(())
    }

    /// The static evaluation of `board` (as `search` takes it) in centipawns from the side
    /// to move's point of view: the net's when `nnue` is on (the default), else the
    /// hand-written one; no search.
    fn evaluate(&self, board: &Bound<'_, PyAny>) -> PyResult<i32> {
        let root = engine_board(board)?;
        let engine = self.idle()?;
        Ok(engine.static_eval(&root))
    }

    /// Searches `board` (a kibitz `Board`, or a python-chess board with its moves; a
    /// variant's board is a ValueError: the engine plays standard chess and Chess960) and
    /// returns a SearchResult. Limits combine: the search ends at the first one reached
    /// (none = until `stop()`). `nodes` counts every thread's nodes (exact with one thread,
    /// a few thousand past it with more); `searchmoves` lists UCI text or Move objects. Time is the time manager's: `time_manager`
    /// (an object with `kibitz.timeman.TimeManagerLike`'s three methods), or by default
    /// `kibitz.timeman.TimeManager` made from the clock (`wtime_ms` / `btime_ms`, `winc_ms` /
    /// `binc_ms`, `movestogo`, as UCI's `go` gives them; the side to move's are used),
    /// keeping `overhead_ms` (default 30) for latency; `movetime_ms` is the time for this
    /// move, exact unless `overhead_ms` is given; `soft_ms` / `hard_ms` are an explicit target
    /// and cap. With `ponder=True` the time limits wait for `ponderhit()`. `on_info(info)` is
    /// called after each finished iteration, once per MultiPV line.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime_ms = None, wtime_ms = None, btime_ms = None,
                        winc_ms = None, binc_ms = None, movestogo = None, overhead_ms = None, soft_ms = None,
                        hard_ms = None, ponder = false, multipv = AnyInt(1), searchmoves = None, on_info = None,
                        time_manager = None),
                 text_signature = "($self, board, *, depth=None, nodes=None, movetime_ms=None, wtime_ms=None, btime_ms=None, winc_ms=None, binc_ms=None, movestogo=None, overhead_ms=None, soft_ms=None, hard_ms=None, ponder=False, multipv=1, searchmoves=None, on_info=None, time_manager=None)")]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        depth: Option<AnyInt>,
        nodes: Option<AnyInt>,
        movetime_ms: Option<Bound<'_, PyAny>>,
        wtime_ms: Option<Bound<'_, PyAny>>,
        btime_ms: Option<Bound<'_, PyAny>>,
        winc_ms: Option<Bound<'_, PyAny>>,
        binc_ms: Option<Bound<'_, PyAny>>,
        movestogo: Option<AnyInt>,
        overhead_ms: Option<Bound<'_, PyAny>>,
        soft_ms: Option<Bound<'_, PyAny>>,
        hard_ms: Option<Bound<'_, PyAny>>,
        ponder: bool,
        multipv: AnyInt,
        searchmoves: Option<Bound<'_, PyAny>>,
        on_info: Option<Py<PyAny>>,
        time_manager: Option<Py<PyAny>>,
    ) -> PyResult<PySearchResult> {
        let root = engine_board(board)?;
        // Every number is range-checked here, before it reaches the search: a bad value is a
        // ValueError naming the argument, never a panic or an OverflowError.
        let depth = depth.map(search_depth).transpose()?;
        let nodes = match nodes {
            None => None,
            Some(obj) => {
                let n = obj.0;
                if n < 1 {
                    return Err(PyValueError::new_err(format!("nodes must be at least 1, got {obj}")));
                }
                // More nodes than a u64 holds is no limit at all: saturate.
                Some(n.min(u64::MAX as i128) as u64)
            }
        };
        let multipv_n = multipv.0;
        if multipv_n < 1 {
            return Err(PyValueError::new_err(format!("multipv must be at least 1, got {multipv}")));
        }
        // The time arguments, range-checked here (a bad value is a ValueError naming it), go
        // to the time manager as milliseconds.
        let msf = |name: &str, v: Option<&Bound<'_, PyAny>>| -> PyResult<Option<f64>> {
            Ok(ms(name, v)?.map(|d| d.as_secs_f64() * 1000.0))
        };
        let movetime = msf("movetime_ms", movetime_ms.as_ref())?;
        let soft = msf("soft_ms", soft_ms.as_ref())?;
        let hard = msf("hard_ms", hard_ms.as_ref())?;
        let overhead = msf("overhead_ms", overhead_ms.as_ref())?;
        let white = root.side_to_move() == WHITE;
        let (time, inc) = if white { (wtime_ms, winc_ms) } else { (btime_ms, binc_ms) };
        let (time_name, inc_name) = if white { ("wtime_ms", "winc_ms") } else { ("btime_ms", "binc_ms") };
        let movestogo = match movestogo {
            None => None,
            Some(obj) => {
                if obj.0 < 0 {
                    return Err(PyValueError::new_err(format!("movestogo must not be negative, got {obj}")));
                }
                Some(obj.0.min(u32::MAX as i128) as u32)
            }
        };
        let time_left = msf(time_name, time.as_ref())?;
        let inc = msf(inc_name, inc.as_ref())?;
        let mut moves = Vec::new();
        if let Some(list) = searchmoves.filter(|l| !l.is_none()) {
            if list.is_instance_of::<pyo3::types::PyString>() {
                return Err(PyTypeError::new_err(
                    "searchmoves must be a list of moves (UCI text or Move objects), not a str",
                ));
            }
            // UCI text, or a Move of kibitz or python-chess (its `uci()`).
            for item in list.try_iter()? {
                let item = item?;
                let text: String = match item.extract() {
                    Ok(text) => text,
                    Err(_) => item.call_method0("uci").and_then(|t| t.extract()).map_err(|_| {
                        PyTypeError::new_err(format!(
                            "searchmoves: {} is neither UCI text nor a Move",
                            item.repr().map(|r| r.to_string()).unwrap_or_default()
                        ))
                    })?,
                };
                moves.push(root.parse_uci(&text).map_err(move_err)?);
            }
        }
        if let Some(cb) = &on_info {
            if !cb.bind(py).is_callable() {
                return Err(PyValueError::new_err("on_info must be callable"));
            }
        }
        let manager: Option<Py<PyAny>> = match time_manager {
            Some(m) if !m.is_none(py) => {
                for name in ["start", "iteration", "ponderhit"] {
                    if !m.bind(py).hasattr(name)? {
                        return Err(PyTypeError::new_err(format!(
                            "time_manager must have start, iteration and ponderhit (kibitz.timeman.TimeManagerLike); it has no {name}"
                        )));
                    }
                }
                Some(m)
            }
            _ => {
                let kwargs = PyDict::new(py);
                kwargs.set_item("time_left_ms", time_left)?;
                kwargs.set_item("inc_ms", inc)?;
                kwargs.set_item("movestogo", movestogo)?;
                kwargs.set_item("movetime_ms", movetime)?;
                kwargs.set_item("overhead_ms", overhead)?;
                kwargs.set_item("soft_ms", soft)?;
                kwargs.set_item("hard_ms", hard)?;
                let m = py.import("kibitz.timeman")?.getattr("for_search")?.call((), Some(&kwargs))?;
                (!m.is_none()).then(|| m.unbind())
            }
        };
        // A ponderhit that came before this search started: it searches on the clock.
        let pondering = ponder && !self.ponderhit.load(Ordering::SeqCst);
        // The only legal move (among searchmoves, when given), with no depth or node limit:
        // the manager may play it after one iteration.
        let only_move = depth.is_none() && nodes.is_none() && {
            let mut legal = MoveList::new();
            root.generate_legal(&mut legal);
            let n = if moves.is_empty() { legal.len() } else { legal.iter().filter(|m| moves.contains(m)).count() };
            n == 1
        };
        let deadline = Arc::new(AtomicU64::new(NO_DEADLINE));
        let mut cap = None;
        if let Some(m) = &manager {
            let kwargs = PyDict::new(py);
            kwargs.set_item("only_move", only_move)?;
            kwargs.set_item("pondering", pondering)?;
            let first: Option<f64> = m.bind(py).call_method("start", (), Some(&kwargs))?.extract()?;
            cap = first.map(|c| Duration::from_millis(deadline_ms(Some(c))));
        }
        let limits = Limits {
            depth,
            nodes,
            soft: None,
            hard: cap,
            deadline: manager.is_some().then(|| Arc::clone(&deadline)),
            multipv: multipv_n.min(MAX_MULTIPV as i128) as usize,
            searchmoves: moves,
        };

        let mut engine = self.idle()?;
        let stop = Arc::clone(&self.stop);
        stop.store(false, Ordering::SeqCst);
        let start = Instant::now();
        if let Some(m) = &manager {
            let timing = Timing { manager: m.clone_ref(py), deadline: Arc::clone(&deadline), start };
            *self.timing.lock().unwrap_or_else(|p| p.into_inner()) = Some(timing);
        }
        let mut callback_error: Option<PyErr> = None;
        let board_ref = &root;
        let engine_ref = &mut *engine;
        let manager_ref = manager.as_ref();
        // On a worker thread, so that Ctrl-C (a signal) stops the search and raises
        // KeyboardInterrupt in the caller instead of waiting for the search to end.
        let result = run_interruptible(py, &stop, || {
            let mut report = |info: &Info| -> bool {
                if on_info.is_none() && manager_ref.is_none() {
                    return true;
                }
                Python::attach(|py| {
                    let c = Common {
                        nodes: info.nodes,
                        elapsed: info.elapsed,
                        hashfull: info.hashfull,
                        tbhits: info.tbhits,
                    };
                    if let Some(cb) = &on_info {
                        for line in &info.lines {
                            let obj = match Py::new(py, line_result(board_ref, line, &c)) {
                                Ok(o) => o,
                                Err(e) => {
                                    callback_error = Some(e);
                                    return false;
                                }
                            };
                            if let Err(e) = cb.call1(py, (obj,)) {
                                callback_error = Some(e);
                                return false;
                            }
                        }
                    }
                    // A new best move in the middle of an iteration is for the GUI only: the
                    // manager decides after finished iterations.
                    if !info.complete {
                        return true;
                    }
                    let (Some(m), Some(first)) = (manager_ref, info.lines.first()) else { return true };
                    // The time manager decides whether to go on.
                    let asked = (|| -> PyResult<bool> {
                        let kwargs = PyDict::new(py);
                        kwargs.set_item("depth", first.depth)?;
                        kwargs.set_item("best_move", first.pv.first().map(|&mv| board_ref.move_to_uci(mv)))?;
                        kwargs.set_item("score_cp", (first.score.abs() < crate::MATE_BOUND).then_some(first.score))?;
                        kwargs.set_item("elapsed_ms", start.elapsed().as_secs_f64() * 1000.0)?;
                        m.bind(py).call_method("iteration", (), Some(&kwargs))?.is_truthy()
                    })();
                    match asked {
                        Ok(stop_now) => !stop_now,
                        Err(e) => {
                            callback_error = Some(e);
                            false
                        }
                    }
                })
            };
            catch_unwind(AssertUnwindSafe(|| engine_ref.search(board_ref, &limits, &stop, &mut report)))
        });
        drop(engine);
        *self.timing.lock().unwrap_or_else(|p| p.into_inner()) = None;
        self.ponderhit.store(false, Ordering::SeqCst);
        let result = result?;
        if let Some(e) = callback_error {
            return Err(e);
        }
        match result {
            Ok(out) => outcome_result(py, &root, &out),
            Err(_) => Err(PyRuntimeError::new_err("internal error in the search (a bug; please report the position)")),
        }
    }

    /// Makes a running search return as soon as possible (within a few milliseconds) with
    /// its best move so far. Safe to call from any thread; a no-op when idle.
    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the move a ponder search (`search(..., ponder=True)`) assumed:
    /// its time manager hears it (its clock starts now; `kibitz.timeman`), and it answers
    /// within the budget of the clock it was given. Safe to call from any thread; kept for
    /// a ponder search that has not started yet, a no-op otherwise.
    fn ponderhit(&self, py: Python<'_>) -> PyResult<()> {
        self.ponderhit.store(true, Ordering::SeqCst);
        let running = {
            let guard = self.timing.lock().unwrap_or_else(|p| p.into_inner());
            guard.as_ref().map(|t| (t.manager.clone_ref(py), Arc::clone(&t.deadline), t.start))
        };
        let Some((manager, deadline, start)) = running else { return Ok(()) };
        let kwargs = PyDict::new(py);
        kwargs.set_item("elapsed_ms", start.elapsed().as_secs_f64() * 1000.0)?;
        let (cap, stop_now): (Option<f64>, bool) =
            manager.bind(py).call_method("ponderhit", (), Some(&kwargs))?.extract()?;
        if cap.is_some() {
            deadline.store(deadline_ms(cap), Ordering::SeqCst);
        }
        if stop_now {
            self.stop.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    /// Forgets the transposition table and the move-ordering histories (a new game).
    fn clear(&self) -> PyResult<()> {
        self.idle()?.clear();
        Ok(())
    }

    /// Replaces the transposition table by an empty one of `hash_mb` megabytes.
    /// When the memory cannot be had, raises MemoryError and keeps an empty table of the
    /// old size: the engine stays usable.
    fn resize(&self, hash_mb: AnyInt) -> PyResult<()> {
        let mb = check_hash(hash_mb)?;
        let mut engine = self.idle()?;
        let resized = engine.resize(mb);
        self.hash_mb.store(engine.hash_mb(), Ordering::SeqCst);
        resized.map_err(alloc_err)
    }

    /// The table size in megabytes.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb.load(Ordering::SeqCst)
    }

    /// Search threads (Lazy SMP: helpers share the table; 1 = deterministic).
    #[getter]
    fn threads(&self) -> usize {
        self.threads.load(Ordering::SeqCst)
    }

    /// Sets the number of search threads (1..1024) for the next search. At most
    /// `thread_limit` of them search (`effective_threads`); their threads are started here
    /// and kept between searches.
    fn set_threads(&self, threads: AnyInt) -> PyResult<()> {
        let n = check_threads(threads)?;
        self.idle()?.set_threads(n);
        self.threads.store(n, Ordering::SeqCst);
        Ok(())
    }

    /// The threads that actually search: `threads`, but at most `thread_limit`.
    #[getter]
    fn effective_threads(&self) -> PyResult<usize> {
        Ok(self.idle()?.effective_threads())
    }

    /// The most threads that search at once: by default the machine's cores, since threads
    /// beyond them take time from the main thread, which keeps the clock.
    #[getter]
    fn thread_limit(&self) -> PyResult<usize> {
        Ok(self.idle()?.thread_limit())
    }

    /// Sets `thread_limit` (1..1024), e.g. to measure more threads than cores.
    fn set_thread_limit(&self, limit: AnyInt) -> PyResult<()> {
        let n = check_threads(limit)?;
        self.idle()?.set_thread_limit(n);
        Ok(())
    }

    /// Permille of the table used by the last search (sampled).
    fn hashfull(&self) -> PyResult<u32> {
        Ok(self.idle()?.hashfull())
    }

    fn __repr__(&self) -> String {
        let choice = self.eval.lock().unwrap_or_else(|p| p.into_inner());
        let eval = match (&choice.file, choice.nnue) {
            (_, false) => ", nnue=False".to_string(),
            (Some((path, _)), true) => format!(", eval_file={path:?}"),
            (None, true) => String::new(),
        };
        format!("Engine(hash_mb={}, threads={}{eval})", self.hash_mb(), self.threads())
    }
}

/// Loads the tables of `path` (directories separated by the system's path separator).
fn load_syzygy(path: &str, probe_depth: i32, probe_limit: usize, rule50: bool) -> PyResult<Syzygy> {
    let mut tables = Tablebases::new();
    for dir in std::env::split_paths(path) {
        if dir.as_os_str().is_empty() {
            continue;
        }
        tables.add_directory(&dir).map_err(|e| PyOSError::new_err(format!("SyzygyPath {}: {e}", dir.display())))?;
    }
    Ok(Syzygy { tables: Arc::new(tables), probe_depth: probe_depth.max(1), probe_limit: probe_limit.min(7), rule50 })
}
