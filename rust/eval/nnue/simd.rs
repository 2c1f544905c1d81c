//! The two hot kernels of the network, each in a portable version and an AVX2 version:
//! the accumulator update (`dst = src + added rows - removed rows`, i16, wrapping) and the
//! output layer's squared-clipped-ReLU dot product (exact, in i32 lanes summed into i64).
//!
//! Every vector is a slice of [`Lanes`]: sixteen i16 values, 32-byte aligned, so one `Lanes`
//! is exactly one 256-bit register and the AVX2 code uses aligned loads and stores on
//! pointers taken from references. The portable versions work on the same 16-value blocks
//! with plain loops over fixed-size arrays, which LLVM turns into SSE2 code (the x86-64
//! baseline every wheel may assume). [`SimdPath::detect`] picks the path once per process.
//!
//! The dot product avoids both i32 overflow and per-element widening with one identity:
//! for `c` in `0..=255`, `c*c - 32767` lies in `[-32767, 32258]` and so fits an i16 (even when
//! computed with 16-bit wrapping multiplies), and
//! `sum c^2 w = sum (c^2 - 32767) w + 32767 * sum w`, where the last sum is a constant of the
//! net. `(c^2 - 32767) * w` is then an exact i16 x i16 product, two of which `madd` adds
//! into an i32 lane without overflow (`|2 * 32767 * 32768| < 2^31`). Each i32 lane is split
//! into its low 16 bits (unsigned) and its high 16 bits (signed) and the halves summed
//! separately, so no lane can overflow for any hidden size this module accepts (at most 64
//! blocks per half, far below the 2^15 additions the halves could take).

use std::sync::OnceLock;

/// Sixteen i16 values: one 256-bit register, aligned for `_mm256_load_si256`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
#[repr(C, align(32))]
pub(crate) struct Lanes(pub [i16; LANES]);

/// Values per [`Lanes`] block; hidden sizes are multiples of it.
pub(crate) const LANES: usize = 16;

/// The subtrahend of the dot product's identity (see the module comment): the largest value
/// that keeps `c^2 - OFFSET` inside i16 for every `c` in `0..=255` and `|OFFSET * w|` for
/// an i16 `w` below 2^30.
pub(crate) const SQUARE_OFFSET: i64 = 32767;

/// Which implementation of the kernels a [`Network`](super::Network) uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdPath {
    /// Portable code (SSE2 after autovectorisation on x86-64).
    Scalar,
    /// AVX2 intrinsics; only selectable when the CPU has AVX2.
    Avx2,
}

impl SimdPath {
    /// The fastest path this CPU supports, detected once per process.
    pub fn detect() -> SimdPath {
        static DETECTED: OnceLock<SimdPath> = OnceLock::new();
        *DETECTED.get_or_init(|| if avx2_available() { SimdPath::Avx2 } else { SimdPath::Scalar })
    }

    /// True when this path can run on this CPU.
    pub fn is_available(self) -> bool {
        match self {
            SimdPath::Scalar => true,
            SimdPath::Avx2 => avx2_available(),
        }
    }
}

/// True when the CPU (and the operating system, for the register state) supports AVX2.
fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `dst = src + sum(adds) - sum(subs)`, element-wise in wrapping i16 arithmetic. All slices
/// must have the same length (checked: a mismatch is a bug in the caller, never bad input).
#[inline(always)]
pub(crate) fn update<const A: usize, const S: usize>(
    path: SimdPath,
    dst: &mut [Lanes],
    src: &[Lanes],
    adds: [&[Lanes]; A],
    subs: [&[Lanes]; S],
) {
    let n = dst.len();
    assert!(src.len() == n && adds.iter().all(|r| r.len() == n) && subs.iter().all(|r| r.len() == n));
    match path {
        #[cfg(target_arch = "x86_64")]
        SimdPath::Avx2 => {
            // SAFETY: a `SimdPath::Avx2` reaches a network only through `SimdPath::detect` or
            // `Network::set_simd`, both of which check that the CPU has AVX2.
            unsafe { avx2::update(dst, src, &adds, &subs) }
        }
        _ => update_scalar(dst, src, &adds, &subs),
    }
}

/// `dst += sum(adds) - sum(subs)` in place (refresh and the general `Accumulator::update`).
#[inline(always)]
pub(crate) fn apply<const A: usize, const S: usize>(
    path: SimdPath,
    dst: &mut [Lanes],
    adds: [&[Lanes]; A],
    subs: [&[Lanes]; S],
) {
    let n = dst.len();
    assert!(adds.iter().all(|r| r.len() == n) && subs.iter().all(|r| r.len() == n));
    match path {
        #[cfg(target_arch = "x86_64")]
        SimdPath::Avx2 => {
            // SAFETY: as in `update`: the path was checked against the CPU.
            unsafe { avx2::apply(dst, &adds, &subs) }
        }
        _ => apply_scalar(dst, &adds, &subs),
    }
}

/// `sum over j of (clamp(acc[j], 0, qa)^2 - SQUARE_OFFSET) * w[j]`, exactly. The caller adds
/// `SQUARE_OFFSET * sum(w)`. `qa` must be in `1..=255` (the network's loader enforces it).
#[inline(always)]
pub(crate) fn screlu_dot(path: SimdPath, acc: &[Lanes], w: &[Lanes], qa: i16) -> i64 {
    assert!(acc.len() == w.len());
    debug_assert!((1..=255).contains(&qa));
    match path {
        #[cfg(target_arch = "x86_64")]
        SimdPath::Avx2 => {
            // SAFETY: as in `update`: the path was checked against the CPU.
            unsafe { avx2::screlu_dot(acc, w, qa) }
        }
        _ => screlu_dot_scalar(acc, w, qa),
    }
}

/// Portable `update`: one block at a time, every add and subtract done in registers.
#[inline(always)]
fn update_scalar<const A: usize, const S: usize>(
    dst: &mut [Lanes],
    src: &[Lanes],
    adds: &[&[Lanes]; A],
    subs: &[&[Lanes]; S],
) {
    for (i, (d, s)) in dst.iter_mut().zip(src).enumerate() {
        d.0 = add_rows_scalar(s.0, adds, subs, i);
    }
}

/// Block `i` of the rows `adds` added to `v` and of `subs` subtracted, in registers.
#[inline(always)]
fn add_rows_scalar<const A: usize, const S: usize>(
    mut v: [i16; LANES],
    adds: &[&[Lanes]; A],
    subs: &[&[Lanes]; S],
    i: usize,
) -> [i16; LANES] {
    for row in adds {
        for (x, y) in v.iter_mut().zip(&row[i].0) {
            *x = x.wrapping_add(*y);
        }
    }
    for row in subs {
        for (x, y) in v.iter_mut().zip(&row[i].0) {
            *x = x.wrapping_sub(*y);
        }
    }
    v
}

/// Portable `apply`. The block goes through a local copy: adding into `d.0` directly was
/// compiled to 16 scalar adds once inlined into `refresh` (the store may alias the row for
/// all LLVM can tell there).
#[inline(always)]
fn apply_scalar<const A: usize, const S: usize>(dst: &mut [Lanes], adds: &[&[Lanes]; A], subs: &[&[Lanes]; S]) {
    for (i, d) in dst.iter_mut().enumerate() {
        d.0 = add_rows_scalar(d.0, adds, subs, i);
    }
}

/// The values of a block slice as one flat slice, so that a portable loop runs over plain
/// i16 values: a loop over blocks with the block's 16 values unrolled inside gets vectorised
/// across blocks instead, with gathers (measured: 5 to 20 times slower than this).
fn flat(blocks: &[Lanes]) -> &[i16] {
    // SAFETY: `Lanes` is `repr(C)` around `[i16; 16]`: 32 bytes of i16 with no padding (its
    // alignment, 32, equals its size), so `n` blocks are exactly `16 * n` initialised i16
    // values, and the slice borrows `blocks` for its lifetime.
    unsafe { std::slice::from_raw_parts(blocks.as_ptr() as *const i16, blocks.len() * LANES) }
}

/// Portable `screlu_dot`: the AVX2 version's arithmetic as one flat loop that LLVM
/// vectorises (SSE2 `pmullw` / `pmulhw` for the products, 32-bit adds, no branches).
fn screlu_dot_scalar(acc: &[Lanes], w: &[Lanes], qa: i16) -> i64 {
    let (mut lo, mut hi) = (0i32, 0i32);
    for (&x, &y) in flat(acc).iter().zip(flat(w)) {
        let c = x.max(0).min(qa);
        // c * c < 2^16: its low 16 bits minus 32767, wrapping, is exactly c^2 - 32767.
        let c2 = c.wrapping_mul(c).wrapping_sub(SQUARE_OFFSET as i16);
        // |m| < 2^30. Sums of at most 1024 low halves (< 2^16) and high halves (<= 2^14 in
        // magnitude) stay far inside i32; wrapping keeps test builds' overflow checks out.
        let m = c2 as i32 * y as i32;
        lo = lo.wrapping_add(m & 0xFFFF);
        hi = hi.wrapping_add(m >> 16);
    }
    ((hi as i64) << 16) + lo as i64
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The AVX2 kernels. Each is `unsafe` only because it must not run on a CPU without
    //! AVX2; the loads and stores inside use pointers made from references to `Lanes`,
    //! which are 32 bytes long and 32-byte aligned, as `_mm256_load_si256` requires.

    use super::{Lanes, LANES};
    use std::arch::x86_64::*;

    /// Loads one block. SAFETY (for the caller): none beyond AVX2; the reference guarantees
    /// a valid, aligned 32-byte read.
    #[inline(always)]
    unsafe fn load(l: &Lanes) -> __m256i {
        // SAFETY: `l` points to 32 readable bytes aligned to 32 (`Lanes` is repr(align(32))).
        unsafe { _mm256_load_si256(l as *const Lanes as *const __m256i) }
    }

    /// Stores one block.
    #[inline(always)]
    unsafe fn store(l: &mut Lanes, v: __m256i) {
        // SAFETY: `l` points to 32 writable bytes aligned to 32.
        unsafe { _mm256_store_si256(l as *mut Lanes as *mut __m256i, v) }
    }

    /// AVX2 `update`. SAFETY: the CPU must support AVX2; slice lengths are checked by the
    /// dispatching function (and indexing is bounds-checked anyway).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update<const A: usize, const S: usize>(
        dst: &mut [Lanes],
        src: &[Lanes],
        adds: &[&[Lanes]; A],
        subs: &[&[Lanes]; S],
    ) {
        for (i, (d, s)) in dst.iter_mut().zip(src).enumerate() {
            // SAFETY: AVX2 is enabled in this function; the references are valid blocks.
            unsafe { store(d, add_rows(load(s), adds, subs, i)) }
        }
    }

    /// Block `i` of the rows `adds` added to `v` and of `subs` subtracted. SAFETY: AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn add_rows<const A: usize, const S: usize>(
        mut v: __m256i,
        adds: &[&[Lanes]; A],
        subs: &[&[Lanes]; S],
        i: usize,
    ) -> __m256i {
        // SAFETY: AVX2 is enabled in this function; the references are valid blocks.
        unsafe {
            for row in adds {
                v = _mm256_add_epi16(v, load(&row[i]));
            }
            for row in subs {
                v = _mm256_sub_epi16(v, load(&row[i]));
            }
        }
        v
    }

    /// AVX2 `apply`. SAFETY: the CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply<const A: usize, const S: usize>(
        dst: &mut [Lanes],
        adds: &[&[Lanes]; A],
        subs: &[&[Lanes]; S],
    ) {
        for (i, d) in dst.iter_mut().enumerate() {
            // SAFETY: AVX2 is enabled in this function; the references are valid blocks.
            unsafe { store(d, add_rows(load(d), adds, subs, i)) }
        }
    }

    /// AVX2 `screlu_dot` (the identity of the module comment). SAFETY: the CPU must support
    /// AVX2; `qa` in 1..=255.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn screlu_dot(acc: &[Lanes], w: &[Lanes], qa: i16) -> i64 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let offset = _mm256_set1_epi16(super::SQUARE_OFFSET as i16);
        let low_mask = _mm256_set1_epi32(0xFFFF);
        let mut lo = zero;
        let mut hi = zero;
        for (a, w) in acc.iter().zip(w) {
            // SAFETY: AVX2 is enabled in this function; the references are valid blocks.
            let (a, w) = unsafe { (load(a), load(w)) };
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // c*c < 2^16: its low 16 bits minus 32767, wrapping, is exactly c*c - 32767.
            let c2 = _mm256_sub_epi16(_mm256_mullo_epi16(c, c), offset);
            let m = _mm256_madd_epi16(c2, w);
            lo = _mm256_add_epi32(lo, _mm256_and_si256(m, low_mask));
            hi = _mm256_add_epi32(hi, _mm256_srai_epi32::<16>(m));
        }
        let mut lo_parts = [0i32; LANES / 2];
        let mut hi_parts = [0i32; LANES / 2];
        // SAFETY: each array is 32 bytes; the unaligned store has no alignment requirement.
        unsafe {
            _mm256_storeu_si256(lo_parts.as_mut_ptr() as *mut __m256i, lo);
            _mm256_storeu_si256(hi_parts.as_mut_ptr() as *mut __m256i, hi);
        }
        lo_parts.iter().zip(&hi_parts).map(|(&l, &h)| ((h as i64) << 16) + l as i64).sum()
    }
}
