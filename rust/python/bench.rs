//! `kibitz._core.bench`: the engine's bench (`crate::bench`) for `kibitz bench` and the UCI
//! `bench` command. It runs with the GIL released; Ctrl-C ends it after the position being
//! searched and raises `KeyboardInterrupt`.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::prelude::*;

use super::engine::{search_depth, AnyInt};
use super::interrupt::run_interruptible;
use crate::{bench as run_bench, bench_positions, BenchPosition, BENCH_DEPTH, BENCH_HASH_MB};

/// One searched position: (FEN, nodes, seconds, best move as UCI text or "-").
type Row = (String, u64, f64, String);

fn row(p: &BenchPosition) -> Row {
    (p.fen.to_string(), p.nodes, p.elapsed.as_secs_f64(), p.best.clone())
}

/// Searches each of the bench positions (`bench_positions()`) alone to `depth` with a fresh
/// engine (16 MB table, one thread, the embedded net) and returns one
/// `(fen, nodes, seconds, best_move)` a position. The nodes' total is the search's signature
/// (the same on every machine for one build of the search). `on_position(row)`, when given,
/// is called after each position; an exception it raises ends the bench and is raised here.
#[pyfunction(name = "bench")]
#[pyo3(signature = (depth = None, on_position = None))]
fn py_bench(py: Python<'_>, depth: Option<AnyInt>, on_position: Option<Py<PyAny>>) -> PyResult<Vec<Row>> {
    let depth = depth.map(search_depth).transpose()?.unwrap_or(BENCH_DEPTH);
    let stop = AtomicBool::new(false);
    let mut failed: Option<PyErr> = None;
    let failed_ref = &mut failed;
    let stop_ref = &stop;
    let done = run_interruptible(py, &stop, || {
        run_bench(depth, stop_ref, &mut |p| {
            let Some(cb) = &on_position else { return };
            Python::attach(|py| {
                if let Err(e) = cb.call1(py, (row(p),)) {
                    *failed_ref = Some(e);
                    stop_ref.store(true, Ordering::SeqCst);
                }
            });
        })
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    Ok(done.iter().map(row).collect())
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(py_bench, m)?)?;
    m.add("BENCH_POSITIONS", bench_positions())?;
    m.add("BENCH_DEPTH", BENCH_DEPTH)?;
    m.add("BENCH_HASH_MB", BENCH_HASH_MB)?;
    Ok(())
}
