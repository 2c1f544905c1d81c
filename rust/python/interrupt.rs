//! Ctrl-C during long Rust calls.
//!
//! Python runs its signal handlers only on the main thread, between bytecodes; a Rust call
//! that runs for minutes with the GIL released never gives it the chance, so `KeyboardInterrupt`
//! would wait for the call to end. `run_interruptible` runs the work on a scoped worker thread
//! and keeps the calling thread waiting in short slices; between slices it takes the GIL and
//! asks Python whether a signal arrived (`PyErr_CheckSignals`). On a signal it raises the stop
//! flag the work polls, waits for the work to unwind (it leaves its data as it found it), and
//! returns the signal's exception (`KeyboardInterrupt` for SIGINT).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the waiting thread looks for signals: well under the 100 ms a user notices.
const POLL: Duration = Duration::from_millis(20);

/// Stack of the worker thread: the search and perft recurse up to 128 plies with move lists
/// on the stack; 64 MB is ample and only reserved, not committed.
const WORKER_STACK: usize = 64 << 20;

/// Runs `work` with the GIL released so that a signal (Ctrl-C) interrupts it: `stop` is set
/// on a signal, and `work` must poll it and return soon after. Returns `work`'s result, or the
/// signal handler's exception (after `work` has returned). A panic in `work` becomes a
/// `RuntimeError`.
pub(crate) fn run_interruptible<R: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    let mut interrupted: Option<PyErr> = None;
    // The worker's "finished" flag, and the condition the waiting thread sleeps on.
    let finished = (Mutex::new(false), Condvar::new());
    let finished_ref = &finished;
    let outcome = std::thread::scope(|scope| {
        let handle = std::thread::Builder::new().name("kibitz-worker".into()).stack_size(WORKER_STACK).spawn_scoped(
            scope,
            move || {
                let r = catch_unwind(AssertUnwindSafe(work));
                let (lock, cvar) = finished_ref;
                *lock.lock().unwrap_or_else(|p| p.into_inner()) = true;
                cvar.notify_all();
                r
            },
        );
        let handle = match handle {
            Ok(h) => h,
            Err(e) => return Err(PyRuntimeError::new_err(format!("could not start a worker thread: {e}"))),
        };
        loop {
            let done = py.detach(|| {
                let (lock, cvar) = &finished;
                let guard = lock.lock().unwrap_or_else(|p| p.into_inner());
                let (guard, _) = cvar.wait_timeout_while(guard, POLL, |d| !*d).unwrap_or_else(|p| p.into_inner());
                *guard
            });
            if done {
                break;
            }
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    interrupted = Some(e);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        let joined = py.detach(|| handle.join());
        match joined {
            Ok(Ok(r)) => Ok(r),
            _ => Err(PyRuntimeError::new_err("internal error in kibitz (a bug; please report what was asked)")),
        }
    });
    match interrupted {
        Some(e) => Err(e),
        None => outcome,
    }
}
