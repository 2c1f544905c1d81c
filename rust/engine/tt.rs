//! Transposition table (<https://www.chessprogramming.org/Transposition_Table>), keyed by
//! the position's Polyglot/Zobrist key.
//!
//! Buckets of four 16-byte entries fill one 64-byte cache line; the bucket is chosen by the
//! key's high bits (multiply-shift, so any bucket count works) and each entry keeps another
//! 32 bits of the key to tell positions apart. Replacement is depth-preferred with aging:
//! the same position is always updated; otherwise the entry that is shallowest and oldest
//! (from an earlier search) gives way. Mate scores are stored relative to the node
//! (distance from this position, not from the root) and converted back on probing, so a
//! mate found through a transposition reports the right distance.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::chess::types::Move;

/// Bound kinds.
pub const BOUND_NONE: u8 = 0;
pub const BOUND_UPPER: u8 = 1;
pub const BOUND_LOWER: u8 = 2;
pub const BOUND_EXACT: u8 = 3;

/// A table entry as the search sees it (decoded from the two words it is stored in).
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct Entry {
    key: u32,
    pub mv: Move,
    pub score: i16,
    pub eval: i16,
    pub depth: i8,
    /// generation << 2 | bound
    gen_bound: u8,
}

impl Entry {
    #[inline(always)]
    pub fn bound(&self) -> u8 {
        self.gen_bound & 3
    }
    #[inline(always)]
    fn generation(&self) -> u8 {
        self.gen_bound >> 2
    }

    /// The data word: move (23 bits), score, eval (16 each), depth (8).
    #[inline(always)]
    fn data(&self) -> u64 {
        debug_assert!(self.mv.0 < 1 << 24);
        self.mv.0 as u64
            | (self.score as u16 as u64) << 24
            | (self.eval as u16 as u64) << 40
            | (self.depth as u8 as u64) << 56
    }

    /// The check word: the key's low 32 bits and generation/bound, XOR the data word, so a
    /// pair of words torn by a concurrent store (another search thread) fails the key test
    /// instead of pairing one position's key with another's data (Hyatt's lockless hashing,
    /// <https://www.chessprogramming.org/Shared_Hash_Table#Lockless>).
    #[inline(always)]
    fn check(&self) -> u64 {
        (self.key as u64 | (self.gen_bound as u64) << 32) ^ self.data()
    }

    #[inline(always)]
    fn decode(check: u64, data: u64) -> Entry {
        let k = check ^ data;
        Entry {
            key: k as u32,
            gen_bound: (k >> 32) as u8,
            mv: Move((data & 0xff_ffff) as u32),
            score: (data >> 24) as u16 as i16,
            eval: (data >> 40) as u16 as i16,
            depth: (data >> 56) as u8 as i8,
        }
    }
}

const BUCKET_SIZE: usize = 4;

/// Four entries of two 64-bit words (check, data) in one 64-byte cache line. The words are
/// atomics so that search threads share the table without locks; relaxed loads and stores
/// compile to plain moves.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    words: [AtomicU64; 2 * BUCKET_SIZE],
}

impl Bucket {
    #[inline(always)]
    fn load(&self, i: usize) -> Entry {
        Entry::decode(self.words[2 * i].load(Ordering::Relaxed), self.words[2 * i + 1].load(Ordering::Relaxed))
    }
    #[inline(always)]
    fn save(&self, i: usize, e: &Entry) {
        self.words[2 * i].store(e.check(), Ordering::Relaxed);
        self.words[2 * i + 1].store(e.data(), Ordering::Relaxed);
    }
    fn clear(&self) {
        for w in &self.words {
            w.store(0, Ordering::Relaxed);
        }
    }
}

pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
    mb: usize,
}

/// Generations run 0..64 (six bits beside the two bound bits) and wrap.
const GEN_MASK: u8 = 63;

/// A table that could not be allocated: the size asked for, in megabytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocError {
    pub mb: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "could not allocate a transposition table of {} MB", self.mb)
    }
}

impl TranspositionTable {
    /// A table of `mb` megabytes (at least one bucket). Aborts the process when the memory
    /// cannot be had; callers that take sizes from users use `try_new`.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `mb` megabytes, or `AllocError` when the allocator refuses the memory
    /// (the size overflows, or the system has not that much): reserving fallibly turns
    /// what would be an abort (`memory allocation of N bytes failed`) into an error the
    /// caller can report.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, AllocError> {
        let bytes = mb.checked_mul(1024 * 1024).ok_or(AllocError { mb })?;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| AllocError { mb })?;
        buckets.resize_with(n, Bucket::default);
        Ok(TranspositionTable { buckets, generation: 0, mb })
    }

    pub fn size_mb(&self) -> usize {
        self.mb
    }

    /// Replaces the table by an empty one of `mb` megabytes. On failure the table is an
    /// empty one of its old size if that can be had again, else of 1 MB: always usable.
    pub fn resize(&mut self, mb: usize) -> Result<(), AllocError> {
        let old = self.mb;
        // Free the old table first so peak memory is one table, not two.
        self.buckets = Vec::new();
        match TranspositionTable::try_new(mb) {
            Ok(t) => {
                *self = t;
                Ok(())
            }
            Err(e) => {
                *self = TranspositionTable::try_new(old).unwrap_or_else(|_| TranspositionTable::new(1));
                Err(e)
            }
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.iter().for_each(Bucket::clear);
        self.generation = 0;
    }

    /// Called at the start of every search: entries from earlier searches become "old".
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GEN_MASK;
    }

    #[inline(always)]
    fn bucket_index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Asks the processor to start loading `key`'s bucket into the cache, so that the probe
    /// a few hundred cycles later does not wait for memory: the search calls it right after
    /// making a move, before the child's draw and check tests. (Profiled before it: the
    /// probe's load was 17 % of the bench's time.) A hint only; nothing on other processors.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b: *const Bucket = &self.buckets[self.bucket_index(key)];
            // SAFETY: a prefetch reads nothing architecturally and cannot fault; SSE (which
            // has the instruction) is part of the x86_64 baseline.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(b.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.buckets[self.bucket_index(key)];
        let check = key as u32;
        (0..BUCKET_SIZE).map(|i| b.load(i)).find(|e| e.key == check && e.bound() != BOUND_NONE)
    }

    /// Stores a result. `score` must already be converted with `score_to_tt`.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: u8) {
        let generation = self.generation;
        let b = &self.buckets[self.bucket_index(key)];
        let check = key as u32;
        let entries: [Entry; BUCKET_SIZE] = std::array::from_fn(|i| b.load(i));
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, e) in entries.iter().enumerate() {
            if e.key == check || e.bound() == BOUND_NONE {
                victim = i;
                break;
            }
            // Depth-preferred with aging: each search of age costs an entry 8 plies of worth.
            let age = (generation.wrapping_sub(e.generation()) & GEN_MASK) as i32;
            let worth = e.depth as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let e = &entries[victim];
        let same = e.key == check && e.bound() != BOUND_NONE;
        // For the same position keep a deeper result from this search unless the new one
        // is exact; always keep the old move when the new result has none.
        if same && bound != BOUND_EXACT && e.generation() == generation && e.depth as i32 > depth + 3 {
            return;
        }
        let mv = if mv.is_null() && same { e.mv } else { mv };
        b.save(
            victim,
            &Entry {
                key: check,
                mv,
                score: score as i16,
                eval: eval as i16,
                depth: depth.clamp(-100, 127) as i8,
                gen_bound: (generation << 2) | bound,
            },
        );
    }

    /// Permille of the first 1000 entries holding results of the current search.
    pub fn hashfull(&self) -> u32 {
        let buckets = (1000 / BUCKET_SIZE).min(self.buckets.len());
        let mut used = 0;
        for b in &self.buckets[..buckets] {
            used += (0..BUCKET_SIZE)
                .map(|i| b.load(i))
                .filter(|e| e.bound() != BOUND_NONE && e.generation() == self.generation)
                .count();
        }
        (used * 1000 / (buckets * BUCKET_SIZE).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_layout() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
    }

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(key, Move::new(31, 51), -57, 12, 6, BOUND_EXACT);
        let e = tt.probe(key).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound()), (Move::new(31, 51), -57, 12, 6, BOUND_EXACT));
        // A shallower non-exact result of the same search does not overwrite a deep one.
        tt.store(key, Move::NULL, 3, 12, 1, BOUND_LOWER);
        assert_eq!(tt.probe(key).unwrap().depth, 6);
        tt.clear();
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn bucket_replacement_prefers_depth_and_age() {
        let mut tt = TranspositionTable::new(0); // one bucket
                                                 // Five keys into one bucket of four: the shallowest goes.
        for (i, d) in [(1u64, 9), (2, 3), (3, 7), (4, 8)] {
            tt.store(i << 40 | i, Move::NULL, 0, 0, d, BOUND_LOWER);
        }
        tt.store(5 << 40 | 5, Move::NULL, 0, 0, 5, BOUND_LOWER);
        assert!(tt.probe(2 << 40 | 2).is_none());
        assert!(tt.probe(5 << 40 | 5).is_some());
        // After two new searches even the deepest old entry yields to new results.
        tt.new_search();
        tt.new_search();
        for k in 6..10u64 {
            tt.store(k << 40 | k, Move::NULL, 0, 0, 1, BOUND_LOWER);
        }
        assert!(tt.probe(1 << 40 | 1).is_none());
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn impossible_sizes_are_errors_and_leave_a_usable_table() {
        assert_eq!(TranspositionTable::try_new(usize::MAX).err(), Some(AllocError { mb: usize::MAX }));
        // 2^40 MB = 1 EB: no allocator grants it.
        assert!(TranspositionTable::try_new(1 << 40).is_err());
        let mut tt = TranspositionTable::new(1);
        tt.store(7, Move::NULL, 0, 0, 3, BOUND_LOWER);
        assert!(tt.resize(1 << 40).is_err());
        assert_eq!(tt.size_mb(), 1);
        assert!(tt.probe(7).is_none());
        tt.store(7, Move::NULL, 0, 0, 3, BOUND_LOWER);
        assert!(tt.probe(7).is_some());
    }

    #[test]
    fn entries_survive_the_word_encoding() {
        let tt = TranspositionTable::new(1);
        for (k, mv, score, eval, depth, bound) in
            [(1u64, Move(0x7f_ffff), -32000, 32000, -100, BOUND_UPPER), (2, Move(0), 32767, -32768, 127, BOUND_EXACT)]
        {
            tt.store(k, mv, score, eval, depth, bound);
            let e = tt.probe(k).unwrap();
            assert_eq!(
                (e.mv, e.score as i32, e.eval as i32, e.depth as i32, e.bound()),
                (mv, score, eval, depth, bound)
            );
        }
    }

    #[test]
    fn concurrent_stores_never_pair_a_key_with_another_keys_data() {
        // Four threads hammer one bucket with entries whose fields are all derived from
        // their key; a torn pair of words must fail the key check, never decode to a
        // mismatched entry.
        let tt = TranspositionTable::new(0);
        let fields =
            |k: u64| (Move((k & 0xffff) as u32), (k % 20000) as i32 - 10000, (k % 997) as i32, (k % 100) as i32);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let k = (i * 4 + t) * 0x9E37_79B9 + 1;
                        let (mv, score, eval, depth) = fields(k);
                        tt.store(k, mv, score, eval, depth, BOUND_LOWER);
                        let probe_key = i
                            .wrapping_sub(3)
                            .wrapping_mul(4)
                            .wrapping_add((t + 1) % 4)
                            .wrapping_mul(0x9E37_79B9)
                            .wrapping_add(1);
                        if let Some(e) = tt.probe(probe_key) {
                            let (mv, score, eval, depth) = fields(probe_key);
                            assert_eq!((e.mv, e.score as i32, e.eval as i32, e.depth as i32), (mv, score, eval, depth));
                        }
                    }
                });
            }
        });
    }
}
