//! `kibitz.SearchResult`: what `Engine.search` returns and `on_info` receives, made from the
//! search's lines (checked move by move), and pickled field by field.

use std::time::Duration;

use crate::{mate_in, wdl, wdl_material, Board as CoreBoard, Line, Move, SearchOutcome};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// The result of `Engine.search`, and the object passed to `on_info` (then `multipv` tells
/// which line it is and `lines` is empty).
#[pyclass(module = "kibitz", name = "SearchResult", frozen)]
pub struct PySearchResult {
    #[pyo3(get)]
    best_move: Option<String>,
    #[pyo3(get)]
    ponder: Option<String>,
    #[pyo3(get)]
    score_cp: Option<i32>,
    #[pyo3(get)]
    mate: Option<i32>,
    #[pyo3(get)]
    depth: u32,
    #[pyo3(get)]
    seldepth: u32,
    #[pyo3(get)]
    nodes: u64,
    #[pyo3(get)]
    time_ms: u64,
    #[pyo3(get)]
    nps: u64,
    #[pyo3(get)]
    hashfull: u32,
    /// Tablebase probes that answered.
    #[pyo3(get)]
    tbhits: u64,
    /// Win, draw and loss chances per mille for the side to move (the engine's fitted
    /// model of score to outcome; UCI_ShowWDL).
    #[pyo3(get)]
    wdl: (u32, u32, u32),
    #[pyo3(get)]
    pv: Vec<String>,
    /// "exact", or "lower" / "upper" when the score is only a bound: a search stopped inside
    /// an iteration (a node or time limit, `stop()`) reports that iteration's line, as
    /// Stockfish does, and a move that had just failed high or low there has a bound, not a
    /// score. For a settled evaluation, read a search to a `depth`, or the `on_info` of the
    /// last finished iteration.
    #[pyo3(get)]
    bound: String,
    #[pyo3(get)]
    checkmate: bool,
    #[pyo3(get)]
    stalemate: bool,
    #[pyo3(get)]
    multipv: usize,
    lines: Vec<Py<PySearchResult>>,
}

#[pymethods]
impl PySearchResult {
    /// One result per MultiPV line (index 1 first), each with its own score, pv and depth.
    #[getter]
    fn lines(&self, py: Python<'_>) -> Vec<Py<PySearchResult>> {
        self.lines.iter().map(|l| l.clone_ref(py)).collect()
    }

    /// Pickling (a result crosses process boundaries in `multiprocessing` and Ray): the
    /// fields in declaration order, rebuilt by `_from_state`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyTuple>,))> {
        let py = slf.py();
        let r = slf.get();
        let state = PyTuple::new(
            py,
            [
                r.best_move.clone().into_pyobject(py)?.into_any(),
                r.ponder.clone().into_pyobject(py)?.into_any(),
                r.score_cp.into_pyobject(py)?.into_any(),
                r.mate.into_pyobject(py)?.into_any(),
                r.depth.into_pyobject(py)?.into_any(),
                r.seldepth.into_pyobject(py)?.into_any(),
                r.nodes.into_pyobject(py)?.into_any(),
                r.time_ms.into_pyobject(py)?.into_any(),
                r.nps.into_pyobject(py)?.into_any(),
                r.hashfull.into_pyobject(py)?.into_any(),
                r.tbhits.into_pyobject(py)?.into_any(),
                r.wdl.into_pyobject(py)?.into_any(),
                r.pv.clone().into_pyobject(py)?.into_any(),
                r.bound.clone().into_pyobject(py)?.into_any(),
                r.checkmate.into_pyobject(py)?.to_owned().into_any(),
                r.stalemate.into_pyobject(py)?.to_owned().into_any(),
                r.multipv.into_pyobject(py)?.into_any(),
                PyList::new(py, r.lines.iter().map(|l| l.clone_ref(py)))?.into_any(),
            ],
        )?;
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// The inverse of `__reduce__` (not for direct use).
    #[staticmethod]
    fn _from_state(state: &Bound<'_, PyTuple>) -> PyResult<Self> {
        if state.len() != 18 {
            return Err(PyValueError::new_err(format!("SearchResult state: expected 18 fields, got {}", state.len())));
        }
        let bound: String = state.get_item(13)?.extract()?;
        if !matches!(bound.as_str(), "exact" | "lower" | "upper") {
            return Err(PyValueError::new_err(format!(
                "SearchResult state: bound must be exact, lower or upper, got {bound:?}"
            )));
        }
        Ok(PySearchResult {
            best_move: state.get_item(0)?.extract()?,
            ponder: state.get_item(1)?.extract()?,
            score_cp: state.get_item(2)?.extract()?,
            mate: state.get_item(3)?.extract()?,
            depth: state.get_item(4)?.extract()?,
            seldepth: state.get_item(5)?.extract()?,
            nodes: state.get_item(6)?.extract()?,
            time_ms: state.get_item(7)?.extract()?,
            nps: state.get_item(8)?.extract()?,
            hashfull: state.get_item(9)?.extract()?,
            tbhits: state.get_item(10)?.extract()?,
            wdl: state.get_item(11)?.extract()?,
            pv: state.get_item(12)?.extract()?,
            bound,
            checkmate: state.get_item(14)?.extract()?,
            stalemate: state.get_item(15)?.extract()?,
            multipv: state.get_item(16)?.extract()?,
            lines: state.get_item(17)?.extract()?,
        })
    }

    fn __repr__(&self) -> String {
        let score = match (self.mate, self.score_cp) {
            (Some(m), _) => format!("mate={m}"),
            (None, Some(cp)) => format!("score_cp={cp}"),
            _ => "score=None".to_string(),
        };
        let best = match &self.best_move {
            Some(m) => format!("'{m}'"),
            None => "None".to_string(),
        };
        let pv: Vec<String> = self.pv.iter().map(|m| format!("'{m}'")).collect();
        format!(
            "SearchResult(best_move={best}, {score}, depth={}, nodes={}, pv=[{}])",
            self.depth,
            self.nodes,
            pv.join(", ")
        )
    }
}

/// UCI text of a line of moves from `board`, checked move by move (a line is cut at the
/// first move that is not legal, which would be a bug, rather than passed on).
fn line_to_uci(board: &CoreBoard, pv: &[Move]) -> Vec<String> {
    let mut b = board.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !b.is_legal(m) {
            break;
        }
        out.push(b.move_to_uci(m));
        b.make_move(m);
    }
    out
}

pub(super) struct Common {
    pub(super) nodes: u64,
    pub(super) elapsed: Duration,
    pub(super) hashfull: u32,
    pub(super) tbhits: u64,
}

pub(super) fn line_result(board: &CoreBoard, line: &Line, c: &Common) -> PySearchResult {
    let pv = line_to_uci(board, &line.pv);
    let mate = mate_in(line.score);
    let ms = c.elapsed.as_millis() as u64;
    let nps = if c.elapsed.as_secs_f64() > 0.0 { (c.nodes as f64 / c.elapsed.as_secs_f64()) as u64 } else { 0 };
    PySearchResult {
        best_move: pv.first().cloned(),
        ponder: pv.get(1).cloned(),
        score_cp: if mate.is_some() { None } else { Some(line.score) },
        mate,
        depth: line.depth,
        seldepth: line.seldepth,
        nodes: c.nodes,
        time_ms: ms,
        nps,
        hashfull: c.hashfull,
        tbhits: c.tbhits,
        wdl: {
            let [w, d, l] = wdl(line.score, wdl_material(board));
            (w, d, l)
        },
        pv,
        bound: line.bound.as_str().to_string(),
        checkmate: false,
        stalemate: false,
        multipv: line.multipv,
        lines: Vec::new(),
    }
}

pub(super) fn outcome_result(py: Python<'_>, board: &CoreBoard, out: &SearchOutcome) -> PyResult<PySearchResult> {
    let c = Common { nodes: out.nodes, elapsed: out.elapsed, hashfull: out.hashfull, tbhits: out.tbhits };
    let mut lines = Vec::with_capacity(out.lines.len());
    for l in &out.lines {
        lines.push(Py::new(py, line_result(board, l, &c))?);
    }
    let mut main = match out.lines.first() {
        Some(l) => line_result(board, l, &c),
        None => PySearchResult {
            best_move: None,
            ponder: None,
            score_cp: if out.stalemate { Some(0) } else { None },
            // Checkmated: the side to move "is mated in 0".
            mate: if out.checkmate { Some(0) } else { None },
            depth: 0,
            seldepth: 0,
            nodes: out.nodes,
            time_ms: out.elapsed.as_millis() as u64,
            nps: 0,
            hashfull: out.hashfull,
            tbhits: out.tbhits,
            wdl: if out.checkmate { (0, 0, 1000) } else { (0, 1000, 0) },
            pv: Vec::new(),
            bound: "exact".to_string(),
            checkmate: out.checkmate,
            stalemate: out.stalemate,
            multipv: 1,
            lines: Vec::new(),
        },
    };
    if let Some(best) = out.best {
        main.best_move = Some(board.move_to_uci(best));
        main.depth = out.depth;
        main.seldepth = out.seldepth.max(main.seldepth);
        if main.pv.first() != main.best_move.as_ref() {
            main.pv = vec![board.move_to_uci(best)];
        }
        main.ponder = out.ponder.and_then(|p| {
            let mut b = board.clone();
            b.make_move(best);
            if b.is_legal(p) {
                Some(b.move_to_uci(p))
            } else {
                None
            }
        });
    }
    main.lines = lines;
    Ok(main)
}
