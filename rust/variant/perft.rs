//! Perft and divide for variant boards: leaf counts to compare with Fairy-Stockfish's
//! `go perft`. Leaves are counted in bulk (the legal moves at depth 1 are counted, not
//! made). `stop` is polled so Ctrl-C can interrupt a long count.

use super::board::VBoard;
use super::geometry::VMove;
use std::sync::atomic::{AtomicBool, Ordering};

/// Move lists, one per ply, reused so the count allocates nothing per node.
struct Buffers(Vec<Vec<VMove>>);

impl Buffers {
    fn take(&mut self, ply: usize) -> Vec<VMove> {
        while self.0.len() <= ply {
            self.0.push(Vec::with_capacity(256)); // enough for most positions; grows if not
        }
        std::mem::take(&mut self.0[ply])
    }
    /// The scratch list of `ply`, in place (for the leaves, which do not recurse).
    fn get(&mut self, ply: usize) -> &mut Vec<VMove> {
        while self.0.len() <= ply {
            self.0.push(Vec::with_capacity(256));
        }
        &mut self.0[ply]
    }
    fn give(&mut self, ply: usize, v: Vec<VMove>) {
        self.0[ply] = v;
    }
}

/// The perft recursion, compiled twice (as the fast generator's `perft` is): the leaf count
/// sums bit counts of u128 bitboards, which baseline x86-64 (what the wheel targets)
/// computes in a dozen instructions and CPUs with `popcnt` (nearly all since 2008) in one;
/// `count` picks the copy at run time.
macro_rules! count_body {
    ($(#[$attr:meta])* fn $name:ident) => {
        $(#[$attr])*
        fn $name(b: &mut VBoard, depth: u32, ply: usize, bufs: &mut Buffers, stop: &AtomicBool) -> Option<u64> {
            if depth <= 1 {
                // Only a count of depth 1 comes here (depth 2 counts its children's moves
                // itself): one copy of the inlined count is enough.
                $(#[$attr])*
                #[inline(never)]
                fn leaves(b: &mut VBoard, buf: &mut Vec<VMove>) -> u64 {
                    b.count_legal(buf)
                }
                return Some(leaves(b, bufs.get(ply)));
            }
            let mut moves = bufs.take(ply);
            b.legal_moves_into(&mut moves);
            if depth >= 3 && stop.load(Ordering::Relaxed) {
                bufs.give(ply, moves);
                return None;
            }
            let mut total = 0;
            for &m in &moves {
                b.make(m);
                debug_assert!(b.is_ok());
                // The leaves' parents count each child's moves here, without a call.
                let sub = if depth == 2 { Some(b.count_legal(bufs.get(ply + 1))) } else { $name(b, depth - 1, ply + 1, bufs, stop) };
                b.unmake();
                match sub {
                    Some(n) => total += n,
                    None => {
                        bufs.give(ply, moves);
                        return None;
                    }
                }
            }
            bufs.give(ply, moves);
            Some(total)
        }
    };
}

count_body!(fn count_portable);
#[cfg(target_arch = "x86_64")]
count_body!(#[target_feature(enable = "popcnt")] fn count_popcnt);

fn count(b: &mut VBoard, depth: u32, ply: usize, bufs: &mut Buffers, stop: &AtomicBool) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has just been found to have the instruction.
        return unsafe { count_popcnt(b, depth, ply, bufs, stop) };
    }
    count_portable(b, depth, ply, bufs, stop)
}

/// Leaf nodes at `depth` (1 at depth 0), or None if `stop` was raised.
pub fn perft_until(b: &mut VBoard, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    count(b, depth, 0, &mut Buffers(Vec::new()), stop)
}

/// Leaf nodes at `depth`.
pub fn perft(b: &mut VBoard, depth: u32) -> u64 {
    perft_until(b, depth, &AtomicBool::new(false)).unwrap_or(0)
}

/// Leaf counts at `depth` per legal move (UCI text), sorted by move text.
pub fn divide_until(b: &mut VBoard, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
    let moves = b.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    let mut bufs = Buffers(Vec::new());
    for m in moves {
        b.make(m);
        let n = if depth <= 1 { Some(1) } else { count(b, depth - 1, 0, &mut bufs, stop) };
        b.unmake();
        out.push((b.move_text(m), n?));
    }
    out.sort();
    Some(out)
}
