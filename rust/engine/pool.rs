//! The helper threads of the Lazy SMP search, kept alive between searches.
//!
//! Starting and joining threads for every search cost seconds at a few hundred threads; the
//! pool starts its workers once (when the thread count is set) and hands each a job per
//! search. A worker keeps its own move-ordering heuristics across searches, as the main
//! thread does. The search does not wait for its helpers to finish: it raises their stop
//! flag and answers; whatever needs the table or the heuristics next (the next search, a
//! resize, a clear) waits for the workers to be idle first (`wait_idle`), which takes a
//! moment once the flag is up.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use crate::engine::order::Heuristics;

/// A helper's work for one search, run with that worker's heuristics. Everything it needs
/// it owns (shared data through `Arc`s), and it drops all of it before the worker reports
/// itself idle.
pub(crate) type Job = Box<dyn FnOnce(&mut Heuristics) + Send + 'static>;

/// Stack of each worker: the recursion keeps move lists and scores on the stack, about
/// 2.5 KB a ply for up to MAX_PLY plies; 16 MB leaves a wide margin (reserved, not
/// committed).
const WORKER_STACK: usize = 16 << 20;

struct Worker {
    jobs: Option<Sender<Job>>,
    handle: Option<JoinHandle<()>>,
    heur: Arc<Mutex<Box<Heuristics>>>,
}

/// How many jobs are running, and the condition `wait_idle` sleeps on.
#[derive(Default)]
struct Busy {
    count: Mutex<usize>,
    idle: Condvar,
}

impl Busy {
    fn add(&self, n: isize) {
        let mut c = self.count.lock().unwrap_or_else(|p| p.into_inner());
        *c = c.saturating_add_signed(n);
        if *c == 0 {
            self.idle.notify_all();
        }
    }
}

#[derive(Default)]
pub(crate) struct Pool {
    workers: Vec<Worker>,
    busy: Arc<Busy>,
}

impl Pool {
    /// Workers started (some may have failed to start: the pool then has fewer).
    pub(crate) fn len(&self) -> usize {
        self.workers.len()
    }

    /// Grows or shrinks the pool to `n` workers (after waiting for running jobs to end).
    /// A worker that cannot be started is left out: the search is still correct with fewer.
    pub(crate) fn resize(&mut self, n: usize) {
        self.wait_idle();
        while self.workers.len() > n {
            if let Some(w) = self.workers.pop() {
                finish(w);
            }
        }
        while self.workers.len() < n {
            let (tx, rx) = channel::<Job>();
            let heur = Arc::new(Mutex::new(Heuristics::new()));
            let (busy, mine) = (Arc::clone(&self.busy), Arc::clone(&heur));
            let spawned = std::thread::Builder::new()
                .name(format!("kibitz-search-{}", self.workers.len() + 1))
                .stack_size(WORKER_STACK)
                .spawn(move || {
                    while let Ok(job) = rx.recv() {
                        {
                            let mut h = mine.lock().unwrap_or_else(|p| p.into_inner());
                            // A panicking helper only loses its share of the work.
                            let _ = catch_unwind(AssertUnwindSafe(|| job(&mut h)));
                        }
                        busy.add(-1);
                    }
                });
            match spawned {
                Ok(handle) => self.workers.push(Worker { jobs: Some(tx), handle: Some(handle), heur }),
                Err(_) => break,
            }
        }
    }

    /// Gives worker `i` a job; false if there is no such worker (or it has gone).
    pub(crate) fn run(&self, i: usize, job: Job) -> bool {
        let Some(tx) = self.workers.get(i).and_then(|w| w.jobs.as_ref()) else { return false };
        self.busy.add(1);
        if tx.send(job).is_err() {
            self.busy.add(-1);
            return false;
        }
        true
    }

    /// Waits until no worker is running a job (their stop flags must be up, or their jobs
    /// finite).
    pub(crate) fn wait_idle(&self) {
        let c = self.busy.count.lock().unwrap_or_else(|p| p.into_inner());
        let _idle = self.busy.idle.wait_while(c, |c| *c > 0).unwrap_or_else(|p| p.into_inner());
    }

    /// Runs `f` on every worker's heuristics (when idle).
    pub(crate) fn for_each_heuristics(&self, mut f: impl FnMut(&mut Heuristics)) {
        self.wait_idle();
        for w in &self.workers {
            f(&mut w.heur.lock().unwrap_or_else(|p| p.into_inner()));
        }
    }
}

/// Ends a worker: closing its channel ends its loop once its current job is done.
fn finish(mut w: Worker) {
    w.jobs = None;
    if let Some(h) = w.handle.take() {
        let _ = h.join();
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Close every channel first, so that the workers end together, then join them.
        for w in &mut self.workers {
            w.jobs = None;
        }
        for w in self.workers.drain(..) {
            finish(w);
        }
    }
}
