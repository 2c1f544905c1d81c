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
//! `triomphe::Arc` rather than `std::sync::Arc`: it has no weak count, so asking whether the
//! core is unshared (on every `push` and `pop` of a Python search loop) is one load, where
//! the standard `Arc::make_mut` takes and releases a lock on its weak count.

use std::ops::{Deref, DerefMut};

use crate::Board as CoreBoard;

#[derive(Clone)]
pub(crate) struct SharedCore(triomphe::Arc<CoreBoard>);

impl SharedCore {
    pub(crate) fn new(core: CoreBoard) -> SharedCore {
        SharedCore(triomphe::Arc::new(core))
    }

    /// Gives this board its own copy of the core (the first change after a copy).
    #[cold]
    #[inline(never)]
    fn unshare(&mut self) {
        self.0 = triomphe::Arc::new((*self.0).clone());
    }

    /// An owned copy of the core board (for the engine, a search thread, a scratch replay).
    pub(crate) fn to_board(&self) -> CoreBoard {
        (*self.0).clone()
    }
}

impl Deref for SharedCore {
    type Target = CoreBoard;
    #[inline(always)]
    fn deref(&self) -> &CoreBoard {
        &self.0
    }
}

impl DerefMut for SharedCore {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut CoreBoard {
        // `Arc::make_mut` is not inlined (its clone path is large): the test for sharing is
        // inlined here and the copy kept out of line.
        if !self.0.is_unique() {
            self.unshare();
        }
        match triomphe::Arc::get_mut(&mut self.0) {
            Some(core) => core,
            None => unreachable!("the core was unshared above"),
        }
    }
}
