//! `TryLock`: a lock that never waits, for state a Python object owns.
//!
//! Under the GIL two threads reach the same board only when one of them has released it
//! during a long call (perft) or while Python code runs inside a method; the second must get
//! a clear error at once, never block (it may hold the GIL the first one needs). That is a
//! single atomic flag: cheaper than `std::sync::Mutex` (no poisoning, no waiter bookkeeping),
//! which matters on `push`/`pop`, called once per node of a Python search loop.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::Python;

pub(crate) struct TryLock<T> {
    busy: AtomicBool,
    value: UnsafeCell<T>,
}

// SAFETY: access to `value` goes only through a `TryGuard`, of which at most one exists at a
// time (the flag is taken with an acquiring compare-exchange and released on drop), exactly as
// for a mutex; so sharing the lock between threads is sound when `T` may be sent between them.
unsafe impl<T: Send> Sync for TryLock<T> {}

impl<T> TryLock<T> {
    pub(crate) fn new(value: T) -> TryLock<T> {
        TryLock { busy: AtomicBool::new(false), value: UnsafeCell::new(value) }
    }

    /// The value, for the holder of the only reference (no guard needed: nothing else can
    /// take one).
    pub(crate) fn get_mut(&mut self) -> &mut T {
        self.value.get_mut()
    }

    /// Writes an unlocked lock at `dst` whose value `init` writes in place (a state built
    /// field by field into a new object, with no temporary moved into it).
    ///
    /// # Safety
    /// `dst` is valid for writes and aligned, and `init` initialises the whole value.
    #[inline(always)]
    pub(crate) unsafe fn write_in_place(dst: *mut TryLock<T>, init: impl FnOnce(*mut T)) {
        // SAFETY: the caller's contract; `UnsafeCell<T>` has `T`'s layout.
        unsafe {
            std::ptr::addr_of_mut!((*dst).busy).write(AtomicBool::new(false));
            init(UnsafeCell::raw_get(std::ptr::addr_of!((*dst).value)));
        }
    }

    /// The guard, or None when another holder has it.
    #[inline(always)]
    pub(crate) fn try_lock(&self) -> Option<TryGuard<'_, T>> {
        self.busy
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .ok()
            .map(|_| TryGuard { lock: self })
    }

    /// `try_lock` for a caller attached to the interpreter, which the token proves: a load
    /// and a store instead of a locked compare-exchange (about 20 cycles on x86, twice a
    /// node of a Python perft). Sound because kibitz builds for the stable ABI, which
    /// CPython's free-threaded builds do not load, so an attached thread holds the GIL and
    /// attached callers take the flag one at a time; and no thread takes a kibitz lock while
    /// detached (the worker threads of `run_interruptible` and `Python::detach` are handed
    /// the state, they never lock a Python object), so no `try_lock` runs beside this one.
    /// The GIL's own hand-over orders the store before any other thread's load.
    #[inline(always)]
    pub(crate) fn try_lock_attached(&self, _py: Python<'_>) -> Option<TryGuard<'_, T>> {
        if self.busy.load(Ordering::Acquire) {
            return None;
        }
        self.busy.store(true, Ordering::Relaxed);
        Some(TryGuard { lock: self })
    }
}

/// Exclusive access to a `TryLock`'s value until dropped.
pub(crate) struct TryGuard<'a, T> {
    lock: &'a TryLock<T>,
}

impl<T> Deref for TryGuard<'_, T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        // SAFETY: this guard is the only one (see the Sync impl).
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for TryGuard<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as above, and `&mut self` makes the borrow unique.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T> Drop for TryGuard<'_, T> {
    #[inline(always)]
    fn drop(&mut self) {
        self.lock.busy.store(false, Ordering::Release);
    }
}
