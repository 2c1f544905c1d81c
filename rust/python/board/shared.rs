//! `SharedCore`: the core board of a Python `Board`, shared by its copies until one of them
//! changes it (copy on write).
//!
//! `board.copy()` is a tight-loop operation for people who turn many positions into training
//! data: with the core shared it costs a small Python object and a reference count, and the
//! core board (mailbox, piece lists, bitboards, history: about 600 bytes and a vector) is
//! copied only when a copy first plays or edits, which a read-only copy never does. Reads go
//! through `Deref`; anything that takes the core mutably goes through `DerefMut`, which
//! clones it first when it is shared, so no board ever sees another's change.
//!
//! The count is a plain integer, not an atomic one, because it is only ever read or changed by
//! a thread attached to the interpreter, and the extension is built for the stable ABI, which
//! CPython's free-threaded builds do not load: so the GIL orders every count operation, as it
//! orders Python's own reference counts. A locked increment and decrement were a fifth of a
//! `copy()` (perf); the non-locked ones cost a cycle each. What keeps the rule:
//! - boards are made, copied and freed only by Python calls and deallocators, which hold the GIL;
//! - the work handed to other threads while detached (perft, divide, searches, tensors) gets
//!   a `&mut CoreBoard` taken beforehand, or an owned `CoreBoard` (`to_board`), never a
//!   `SharedCore`; so nothing detached clones, drops or unshares one.
//!
//! Debug builds check the rule on every count operation (`PyGILState_Check`).

use std::cell::Cell;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use crate::Board as CoreBoard;

pub(crate) struct SharedCore(NonNull<Shared>);

struct Shared {
    count: Cell<usize>,
    core: CoreBoard,
}

// SAFETY: the count is touched only with the GIL held (module comment), which serialises those
// operations across threads and orders them; the core itself is plain data, read through
// `&` by any number of holders and written only by the sole holder (`DerefMut` unshares first).
unsafe impl Send for SharedCore {}
// SAFETY: as above; a `&SharedCore` gives other threads only reads of the core.
unsafe impl Sync for SharedCore {}

#[cfg(debug_assertions)]
extern "C" {
    /// CPython's "does this thread hold the GIL": exported by every CPython, though not part
    /// of the stable ABI, so only debug builds call it.
    fn PyGILState_Check() -> std::ffi::c_int;
}

/// Debug builds: the count's rule, that the calling thread holds the GIL.
#[inline(always)]
fn check_attached() {
    // SAFETY: PyGILState_Check may be called from any thread at any time.
    #[cfg(debug_assertions)]
    assert!(unsafe { PyGILState_Check() } == 1, "a board's shared core touched without the GIL");
}

impl SharedCore {
    pub(crate) fn new(core: CoreBoard) -> SharedCore {
        SharedCore(NonNull::from(Box::leak(Box::new(Shared { count: Cell::new(1), core }))))
    }

    #[inline(always)]
    fn shared(&self) -> &Shared {
        // SAFETY: the allocation lives while any SharedCore points to it (the count).
        unsafe { self.0.as_ref() }
    }

    /// Whether this board is the core's only holder.
    #[inline(always)]
    fn is_unique(&self) -> bool {
        check_attached();
        self.shared().count.get() == 1
    }

    /// Gives this board its own copy of the core (the first change after a copy).
    #[cold]
    #[inline(never)]
    fn unshare(&mut self) {
        *self = SharedCore::new(self.shared().core.clone());
    }

    /// An owned copy of the core board (for the engine, a search thread, a scratch replay).
    pub(crate) fn to_board(&self) -> CoreBoard {
        self.shared().core.clone()
    }
}

impl Clone for SharedCore {
    #[inline(always)]
    fn clone(&self) -> SharedCore {
        check_attached();
        let count = &self.shared().count;
        // More holders than bytes of memory cannot exist; a wrapped count would free a live core.
        count.set(count.get().checked_add(1).unwrap_or_else(|| std::process::abort()));
        SharedCore(self.0)
    }
}

impl Drop for SharedCore {
    #[inline(always)]
    fn drop(&mut self) {
        check_attached();
        let count = &self.shared().count;
        let left = count.get() - 1;
        count.set(left);
        if left == 0 {
            // SAFETY: the last holder: the allocation came from `Box::leak` in `new`.
            drop(unsafe { Box::from_raw(self.0.as_ptr()) });
        }
    }
}

impl Deref for SharedCore {
    type Target = CoreBoard;
    #[inline(always)]
    fn deref(&self) -> &CoreBoard {
        &self.shared().core
    }
}

impl DerefMut for SharedCore {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut CoreBoard {
        if !self.is_unique() {
            self.unshare();
        }
        // SAFETY: this holder is the only one (just checked or made so), and `&mut self`
        // makes the borrow unique.
        unsafe { &mut self.0.as_mut().core }
    }
}
