//! The network's weights: loading and writing the net file, the quantised evaluation of an
//! accumulator and the float reference evaluation. The format is described in `mod.rs`.

use super::features::{KingBuckets, View, INPUTS, MAX_HIDDEN, MAX_KING_BUCKETS};
use super::simd::{self, Lanes, SimdPath, LANES, SQUARE_OFFSET};
use crate::chess::board::Board;
use crate::chess::types::{make_piece, Color, KING};

/// The file's first eight bytes.
pub(crate) const MAGIC: &[u8; 8] = b"KBZNNUE\0";
/// The format of a net without king buckets (the first one).
pub(crate) const VERSION: u32 = 1;
/// The format of a net with king buckets: version 1's header, then a u32 of flags (bit 0:
/// mirroring) and the 64-byte bucket map.
pub(crate) const VERSION_BUCKETS: u32 = 2;
/// The format of a net with output buckets: version 2's header (its flags and map; the map
/// all zeros and the flags 0 when the net has no king buckets), then a u32 of output
/// buckets; the output layer has one row of weights and one bias per bucket.
pub(crate) const VERSION_OUTPUT_BUCKETS: u32 = 3;
/// Most output buckets a file may have (one per piece count would be 31).
pub(crate) const MAX_OUTPUT_BUCKETS: usize = 32;
/// Magic, then six u32 fields (version, inputs, hidden, scale, qa, qb).
pub(crate) const HEADER_BYTES: usize = 8 + 6 * 4;
/// What version 2 adds to the header: the flags and the map.
const BUCKET_BYTES: usize = 4 + 64;
/// FNV-1a 64 parameters (<http://www.isthe.com/chongo/tech/comp/fnv/>).
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;
/// Largest accepted output scale: the first net uses 400 (centipawns per unit of the
/// trainer's sigmoid input); 25 times that is no longer a plausible choice but a corrupt field.
pub(crate) const MAX_SCALE: u32 = 10_000;
/// Largest accepted QA: the activation `clamp(acc, 0, QA)^2` must stay below 2^16 for the
/// dot-product kernels (`simd.rs`); the usual value is 255.
pub(crate) const MAX_QA: u32 = 255;
/// Largest accepted QB: a float output weight of 1.0 must still be representable in i16.
pub(crate) const MAX_QB: u32 = i16::MAX as u32;

/// Why a net file was rejected. Messages say what is wrong; the caller keeps its current net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The first eight bytes are not `KBZNNUE\0`.
    BadMagic,
    /// A version this build cannot read.
    UnsupportedVersion(u32),
    /// The input count is not 768 (version 1) or a multiple of 768 up to 32 buckets (version 2).
    BadInputs(u32),
    /// A king-bucket map or flag that does not fit the net (version 2).
    BadKingBuckets(String),
    /// An output-bucket count outside 2..=32 in a version-3 file, or no output bias (or more
    /// than 32) given to `Network::from_params`.
    BadOutputBuckets(u32),
    /// The hidden size is 0, not a multiple of 16, or above 1024.
    BadHidden(u32),
    /// A quantisation field (`scale`, `qa`, `qb`) is zero or out of its range.
    BadQuantisation { field: &'static str, value: u32, max: u32 },
    /// The file ends before the data its header announces.
    Truncated { expected: usize, got: usize },
    /// Bytes follow the checksum.
    TrailingBytes { expected: usize, got: usize },
    /// The stored checksum differs from the checksum of the content.
    ChecksumMismatch { stored: u64, computed: u64 },
    /// `Network::from_params` got a weight vector of the wrong length.
    BadLength { what: &'static str, expected: usize, got: usize },
    /// Some position's accumulator could leave the i16 range (`Network::accumulator_range`):
    /// its sums would wrap and the evaluations would be garbage.
    AccumulatorOverflow { lo: i64, hi: i64 },
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a kibitz net file (the first 8 bytes are not KBZNNUE\\0)"),
            NetError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "unsupported net format version {v} (this build reads versions {VERSION}, {VERSION_BUCKETS} \
                     and {VERSION_OUTPUT_BUCKETS})"
                )
            }
            NetError::BadInputs(n) => write!(
                f,
                "the net has {n} inputs, expected {INPUTS} (or {INPUTS} per king bucket, at most {MAX_KING_BUCKETS} buckets)"
            ),
            NetError::BadKingBuckets(why) => write!(f, "bad king buckets: {why}"),
            NetError::BadOutputBuckets(n) => {
                write!(f, "bad output bucket count {n} (a version-3 file has 2..={MAX_OUTPUT_BUCKETS})")
            }
            NetError::BadHidden(h) => {
                write!(f, "bad hidden layer size {h} (must be a positive multiple of {LANES}, at most {MAX_HIDDEN})")
            }
            NetError::BadQuantisation { field, value, max } => {
                write!(f, "bad quantisation constant {field} = {value} (must be 1..={max})")
            }
            NetError::Truncated { expected, got } => {
                write!(f, "truncated net file: expected {expected} bytes, got {got}")
            }
            NetError::TrailingBytes { expected, got } => {
                write!(f, "net file too long: expected {expected} bytes, got {got} (trailing bytes after the checksum)")
            }
            NetError::ChecksumMismatch { stored, computed } => {
                write!(f, "net file checksum mismatch: stored {stored:#018x}, computed {computed:#018x} (corrupt file)")
            }
            NetError::BadLength { what, expected, got } => {
                write!(f, "{what}: expected {expected} values, got {got}")
            }
            NetError::AccumulatorOverflow { lo, hi } => write!(
                f,
                "weights too large: an accumulator could reach {lo}..{hi}, outside the i16 range {}..{} \
                 (the sums would wrap; clip the feature weights and biases when training)",
                i16::MIN,
                i16::MAX
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64-bit, of `bytes` (the net file's checksum).
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| (h ^ b as u64).wrapping_mul(FNV_PRIME))
}

/// A network's contents as plain vectors, for writing nets from code (tests, tools) and for
/// reading them back out. Layouts as in the file: feature weights row by row (feature `f`
/// at `f * hidden .. (f + 1) * hidden`), output weights bucket by bucket, each bucket's side
/// to move's half first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetParams {
    pub hidden: usize,
    /// None: 768 inputs (file version 1); otherwise 768 per bucket (version 2).
    pub king_buckets: Option<KingBuckets>,
    pub scale: u32,
    pub qa: u32,
    pub qb: u32,
    pub feature_weights: Vec<i16>,
    pub feature_biases: Vec<i16>,
    /// `2 * hidden` per output bucket.
    pub output_weights: Vec<i16>,
    /// One per output bucket (1: the single output of versions 1 and 2).
    pub output_biases: Vec<i32>,
}

/// A loaded network: quantised weights in 32-byte aligned blocks, and the kernel path.
#[derive(Clone, Debug)]
pub struct Network {
    hidden: usize,
    /// Feature rows: 768, or 768 per king bucket.
    inputs: usize,
    king_buckets: Option<KingBuckets>,
    scale: u32,
    qa: u32,
    qb: u32,
    /// `inputs` rows of `hidden / 16` blocks.
    feature_weights: Vec<Lanes>,
    feature_biases: Vec<Lanes>,
    /// Per output bucket: the side to move's half (`hidden / 16` blocks), then the other side's.
    output_weights: Vec<Lanes>,
    output_biases: Vec<i32>,
    /// Per output bucket, the sum of its output weights: the constant term of the dot
    /// product's identity.
    output_weight_sums: Vec<i64>,
    path: SimdPath,
}

/// Packs i16 values (a multiple of 16 of them) into aligned blocks.
fn to_lanes(values: &[i16]) -> Vec<Lanes> {
    values
        .chunks_exact(LANES)
        .map(|c| {
            let mut l = Lanes::default();
            l.0.copy_from_slice(c);
            l
        })
        .collect()
}

/// Unpacks aligned blocks into plain values.
fn from_lanes(lanes: &[Lanes]) -> Vec<i16> {
    lanes.iter().flat_map(|l| l.0).collect()
}

/// Checks the header fields that bound the rest of the file.
fn check_shape(hidden: u32, scale: u32, qa: u32, qb: u32) -> Result<(), NetError> {
    if hidden == 0 || !(hidden as usize).is_multiple_of(LANES) || hidden as usize > MAX_HIDDEN {
        return Err(NetError::BadHidden(hidden));
    }
    for (field, value, max) in [("scale", scale, MAX_SCALE), ("qa", qa, MAX_QA), ("qb", qb, MAX_QB)] {
        if value == 0 || value > max {
            return Err(NetError::BadQuantisation { field, value, max });
        }
    }
    Ok(())
}

/// The exact file size of a net of `version` with `inputs` feature rows of `hidden` neurons
/// and `outputs` output buckets (king buckets: the header's 68 more bytes; output buckets 72).
pub(crate) fn file_size(version: u32, inputs: usize, hidden: usize, outputs: usize) -> usize {
    let header = HEADER_BYTES
        + match version {
            VERSION => 0,
            VERSION_BUCKETS => BUCKET_BYTES,
            _ => BUCKET_BYTES + 4,
        };
    header + 2 * (inputs * hidden + hidden) + outputs * (2 * 2 * hidden + 4) + 8
}

/// Checks a king-bucket map against the net's input count.
fn check_buckets(kb: &KingBuckets, inputs: usize) -> Result<(), NetError> {
    let buckets = inputs / INPUTS;
    if kb.count() != buckets {
        return Err(NetError::BadKingBuckets(format!(
            "the map names {} buckets, the net has inputs for {buckets}",
            kb.count()
        )));
    }
    Ok(())
}

/// Reads a little-endian u32 at `at` (the caller has checked the length).
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// Little-endian i16 values of a byte slice of even length.
fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
}

impl Network {
    /// The bytes at the start of a net file that `size_from_header` needs: the longest
    /// header, version 3's (versions 1 and 2 need fewer, and any file of theirs is longer).
    pub const HEADER_BYTES: usize = HEADER_BYTES + BUCKET_BYTES + 4;

    /// The exact size in bytes of the net file that begins with `header` (at least
    /// `HEADER_BYTES` of it), after checking the header: so a loader can refuse a file of
    /// the wrong size before reading it. Errors as `from_bytes` gives them.
    pub fn size_from_header(header: &[u8]) -> Result<usize, NetError> {
        // Compare as much of the magic as there is: "PK.." is not a net, "KBZ" a short one.
        if !MAGIC.starts_with(&header[..header.len().min(MAGIC.len())]) {
            return Err(NetError::BadMagic);
        }
        if header.len() < HEADER_BYTES {
            return Err(NetError::Truncated { expected: HEADER_BYTES, got: header.len() });
        }
        let field = |i: usize| u32_at(header, MAGIC.len() + 4 * i);
        let (version, inputs, hidden, scale, qa, qb) = (field(0), field(1), field(2), field(3), field(4), field(5));
        let bucketed = match version {
            VERSION => false,
            VERSION_BUCKETS | VERSION_OUTPUT_BUCKETS => true,
            _ => return Err(NetError::UnsupportedVersion(version)),
        };
        let inputs_ok = if bucketed {
            (inputs as usize).is_multiple_of(INPUTS) && (1..=MAX_KING_BUCKETS).contains(&(inputs as usize / INPUTS))
        } else {
            inputs as usize == INPUTS
        };
        if !inputs_ok {
            return Err(NetError::BadInputs(inputs));
        }
        check_shape(hidden, scale, qa, qb)?;
        let outputs = if version == VERSION_OUTPUT_BUCKETS {
            // The count sits after the flags and the map.
            let at = HEADER_BYTES + BUCKET_BYTES;
            if header.len() < at + 4 {
                return Err(NetError::Truncated { expected: at + 4, got: header.len() });
            }
            let n = u32_at(header, at);
            if n < 2 || n as usize > MAX_OUTPUT_BUCKETS {
                return Err(NetError::BadOutputBuckets(n));
            }
            n as usize
        } else {
            1
        };
        Ok(file_size(version, inputs as usize, hidden as usize, outputs))
    }

    /// Parses and checks a net file (format in the module documentation). Every malformed
    /// input gives a `NetError`; nothing here can panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let expected = Network::size_from_header(bytes)?;
        let field = |i: usize| u32_at(bytes, MAGIC.len() + 4 * i);
        let (version, inputs, hidden, scale, qa, qb) = (field(0), field(1), field(2), field(3), field(4), field(5));
        let (h, inputs) = (hidden as usize, inputs as usize);
        if bytes.len() < expected {
            return Err(NetError::Truncated { expected, got: bytes.len() });
        }
        if bytes.len() > expected {
            return Err(NetError::TrailingBytes { expected, got: bytes.len() });
        }
        let body = &bytes[..expected - 8];
        let mut stored = [0u8; 8];
        stored.copy_from_slice(&bytes[expected - 8..]);
        let stored = u64::from_le_bytes(stored);
        let computed = fnv1a64(body);
        if stored != computed {
            return Err(NetError::ChecksumMismatch { stored, computed });
        }
        let mut at = HEADER_BYTES;
        let mut take = |n: usize| {
            let s = &body[at..at + n];
            at += n;
            s
        };
        let king_buckets = if version == VERSION_BUCKETS || version == VERSION_OUTPUT_BUCKETS {
            let flags = u32_at(take(4), 0);
            if flags > 1 {
                return Err(NetError::BadKingBuckets(format!(
                    "unknown flags {flags:#x} (only bit 0, mirroring, is defined)"
                )));
            }
            let mut map = [0u8; 64];
            map.copy_from_slice(take(64));
            let kb = KingBuckets { map, mirror: flags == 1 };
            check_buckets(&kb, inputs)?;
            // Version 3 without king buckets: one bucket, no mirroring (an all-zero map).
            (version == VERSION_BUCKETS || inputs != INPUTS || kb.mirror).then_some(kb)
        } else {
            None
        };
        let outputs = if version == VERSION_OUTPUT_BUCKETS { u32_at(take(4), 0) as usize } else { 1 };
        let feature_weights = i16s(take(2 * inputs * h));
        let feature_biases = i16s(take(2 * h));
        let output_weights = i16s(take(outputs * 4 * h));
        let output_biases =
            take(4 * outputs).chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        Network::from_params(NetParams {
            hidden: h,
            king_buckets,
            scale,
            qa,
            qb,
            feature_weights,
            feature_biases,
            output_weights,
            output_biases,
        })
    }

    /// Builds a network from plain vectors, with the same checks as the file loader: also
    /// refused is a net whose accumulators could leave the i16 range in some position
    /// (`accumulator_range`), since their sums would wrap.
    pub fn from_params(p: NetParams) -> Result<Network, NetError> {
        let hidden = u32::try_from(p.hidden).unwrap_or(u32::MAX);
        check_shape(hidden, p.scale, p.qa, p.qb)?;
        let h = p.hidden;
        let inputs = INPUTS * p.king_buckets.as_ref().map_or(1, KingBuckets::count);
        if inputs > INPUTS * MAX_KING_BUCKETS {
            return Err(NetError::BadKingBuckets(format!("{} buckets, at most {MAX_KING_BUCKETS}", inputs / INPUTS)));
        }
        let outputs = p.output_biases.len();
        if outputs == 0 || outputs > MAX_OUTPUT_BUCKETS {
            return Err(NetError::BadOutputBuckets(outputs as u32));
        }
        for (what, expected, got) in [
            ("feature weights", inputs * h, p.feature_weights.len()),
            ("feature biases", h, p.feature_biases.len()),
            ("output weights", outputs * 2 * h, p.output_weights.len()),
        ] {
            if expected != got {
                return Err(NetError::BadLength { what, expected, got });
            }
        }
        let net = Network {
            hidden: h,
            inputs,
            king_buckets: p.king_buckets,
            scale: p.scale,
            qa: p.qa,
            qb: p.qb,
            feature_weights: to_lanes(&p.feature_weights),
            feature_biases: to_lanes(&p.feature_biases),
            output_weight_sums: p.output_weights.chunks(2 * h).map(|c| c.iter().map(|&w| w as i64).sum()).collect(),
            output_weights: to_lanes(&p.output_weights),
            output_biases: p.output_biases,
            path: SimdPath::detect(),
        };
        let (lo, hi) = net.accumulator_range();
        if lo < i16::MIN as i64 || hi > i16::MAX as i64 {
            return Err(NetError::AccumulatorOverflow { lo, hi });
        }
        Ok(net)
    }

    /// The network's contents as plain vectors.
    pub fn params(&self) -> NetParams {
        NetParams {
            hidden: self.hidden,
            king_buckets: self.king_buckets.clone(),
            scale: self.scale,
            qa: self.qa,
            qb: self.qb,
            feature_weights: from_lanes(&self.feature_weights),
            feature_biases: from_lanes(&self.feature_biases),
            output_weights: from_lanes(&self.output_weights),
            output_biases: self.output_biases.clone(),
        }
    }

    /// The net file of this network (`from_bytes(&net.to_bytes())` gives it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let outputs = self.output_biases.len();
        let version = if outputs > 1 {
            VERSION_OUTPUT_BUCKETS
        } else if self.king_buckets.is_some() {
            VERSION_BUCKETS
        } else {
            VERSION
        };
        let mut out = Vec::with_capacity(file_size(version, self.inputs, self.hidden, outputs));
        out.extend_from_slice(MAGIC);
        for v in [version, self.inputs as u32, self.hidden as u32, self.scale, self.qa, self.qb] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if version != VERSION {
            let (mirror, map) = self.king_buckets.as_ref().map_or((false, [0u8; 64]), |kb| (kb.mirror, kb.map));
            out.extend_from_slice(&u32::from(mirror).to_le_bytes());
            out.extend_from_slice(&map);
        }
        if version == VERSION_OUTPUT_BUCKETS {
            out.extend_from_slice(&(outputs as u32).to_le_bytes());
        }
        for lanes in [&self.feature_weights, &self.feature_biases, &self.output_weights] {
            for v in lanes.iter().flat_map(|l| l.0) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for b in &self.output_biases {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Neurons per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Output buckets (1: a single output).
    pub fn output_buckets(&self) -> usize {
        self.output_biases.len()
    }

    /// The output bucket of a position with `pieces` pieces on the board (kings included):
    /// `min((pieces - 1) * buckets / 32, buckets - 1)`.
    #[inline(always)]
    pub fn output_bucket(&self, pieces: u32) -> usize {
        let n = self.output_biases.len();
        (pieces.saturating_sub(1) as usize * n / 32).min(n - 1)
    }

    /// The king buckets, if the net has them.
    pub fn king_buckets(&self) -> Option<&KingBuckets> {
        self.king_buckets.as_ref()
    }

    /// Whether a king's move can change its side's view (the net has king buckets).
    #[inline(always)]
    pub(crate) fn has_buckets(&self) -> bool {
        self.king_buckets.is_some()
    }

    /// How `perspective` reads `board` (its own king's bucket and flip).
    #[inline]
    pub(crate) fn view(&self, board: &Board, perspective: Color) -> View {
        let king = board.bb[make_piece(KING, perspective) as usize].trailing_zeros() as usize;
        View::of(self.king_buckets.as_ref(), perspective, king)
    }

    /// The output scale (centipawns per unit of the float network's output).
    pub fn scale(&self) -> u32 {
        self.scale
    }

    /// The feature layer's quantisation factor.
    pub fn qa(&self) -> u32 {
        self.qa
    }

    /// The output layer's quantisation factor.
    pub fn qb(&self) -> u32 {
        self.qb
    }

    /// The kernel implementation in use.
    pub fn simd(&self) -> SimdPath {
        self.path
    }

    /// Selects the kernel implementation (tests and benchmarks compare them). Returns false,
    /// changing nothing, when the CPU cannot run `path`.
    pub fn set_simd(&mut self, path: SimdPath) -> bool {
        if path.is_available() {
            self.path = path;
        }
        self.path == path
    }

    /// Blocks per perspective.
    #[inline(always)]
    pub(crate) fn blocks(&self) -> usize {
        self.hidden / LANES
    }

    /// The weight row of feature `f`.
    #[inline(always)]
    pub(crate) fn row(&self, f: usize) -> &[Lanes] {
        let n = self.blocks();
        &self.feature_weights[f * n..f * n + n]
    }

    /// The feature biases.
    #[inline(always)]
    pub(crate) fn biases(&self) -> &[Lanes] {
        &self.feature_biases
    }

    /// Bounds on every accumulator value of any position with at most 32 pieces: for each
    /// neuron its bias plus its 32 most negative (most positive) feature weights, the lowest
    /// (highest) over the neurons (with king buckets the 32 are taken over every bucket's
    /// rows at once, a looser bound than one bucket's). A net whose range lies within i16 can never wrap; the
    /// trainer's output and an embedded net can be checked with it.
    pub fn accumulator_range(&self) -> (i64, i64) {
        /// At most 32 pieces stand on a chess board, each one active feature per perspective.
        const MAX_PIECES: usize = 32;
        let h = self.hidden;
        let weights = from_lanes(&self.feature_weights);
        let biases = from_lanes(&self.feature_biases);
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        let mut column = vec![0i64; self.inputs];
        for (j, &b) in biases.iter().enumerate() {
            for (f, c) in column.iter_mut().enumerate() {
                *c = weights[f * h + j] as i64;
            }
            column.sort_unstable();
            let low: i64 = column.iter().take(MAX_PIECES).filter(|&&w| w < 0).sum();
            let high: i64 = column.iter().rev().take(MAX_PIECES).filter(|&&w| w > 0).sum();
            lo = lo.min(b as i64 + low);
            hi = hi.max(b as i64 + high);
        }
        (lo, hi)
    }

    /// The output layer over the two halves of an accumulator, `us` (the side to move's)
    /// and `them`, with output bucket `bucket`'s weights `w` and bias `b_out`, in centipawns
    /// from the side to move's point of view: `((S / QA) + b_out) * SCALE / (QA * QB)` where
    /// `S = sum_j clamp(us[j], 0, QA)^2 * w[j] + sum_j clamp(them[j], 0, QA)^2 * w[H + j]`.
    /// `S` is exact in i64 (at most 2048 * 255^2 * 2^15 < 2^43 in magnitude); both divisions
    /// truncate towards zero (Rust's `/` on i64); the result saturates to the i32 range (only
    /// reachable with absurd weights). `Network::evaluate` (beside `Accumulator`) calls it.
    pub(crate) fn output(&self, us: &[Lanes], them: &[Lanes], bucket: usize) -> i32 {
        let n = self.blocks();
        let qa = self.qa as i64;
        let (w_us, w_them) = self.output_weights[2 * n * bucket..2 * n * (bucket + 1)].split_at(n);
        let s = simd::screlu_dot(self.path, us, w_us, self.qa as i16)
            + simd::screlu_dot(self.path, them, w_them, self.qa as i16)
            + SQUARE_OFFSET * self.output_weight_sums[bucket];
        let out = s / qa + self.output_biases[bucket] as i64;
        let eval = out * self.scale as i64 / (qa * self.qb as i64);
        eval.clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }

    /// The same network evaluated in f64 from the dequantised weights (feature weights and
    /// biases / QA, output weights / QB, output bias / (QA * QB), the output bucket of the
    /// board's piece count, activation
    /// `clamp(x, 0, 1)^2`, result times SCALE): the reference the quantised evaluation is
    /// compared with. It differs from `evaluate` only by the two truncating divisions, so
    /// by less than `1 + SCALE / (QA * QB)` centipawns (while no accumulator leaves i16).
    pub fn evaluate_float(&self, board: &Board) -> f64 {
        let qa = self.qa as f64;
        let qb = self.qb as f64;
        let values = |lanes: &[Lanes]| lanes.iter().flat_map(|l| l.0).collect::<Vec<i16>>();
        let stm = board.side_to_move();
        let h = self.hidden;
        let bucket = self.output_bucket((board.occ[0] | board.occ[1]).count_ones());
        let out_w = &values(&self.output_weights)[2 * h * bucket..2 * h * (bucket + 1)];
        let mut out = self.output_biases[bucket] as f64 / (qa * qb);
        for (half, perspective) in [(0, stm), (1, stm ^ 1)] {
            let view = self.view(board, perspective);
            let mut acc: Vec<f64> = values(&self.feature_biases).iter().map(|&b| b as f64 / qa).collect();
            for piece in (1..=6).chain(9..=14) {
                let mut bits = board.bb[piece as usize];
                while bits != 0 {
                    let s = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let row = self.row(view.feature64(perspective, piece, s)).iter().flat_map(|l| l.0);
                    for (a, w) in acc.iter_mut().zip(row) {
                        *a += w as f64 / qa;
                    }
                }
            }
            for (a, &w) in acc.iter().zip(&out_w[half * h..half * h + h]) {
                let c = a.clamp(0.0, 1.0);
                out += c * c * (w as f64 / qb);
            }
        }
        out * self.scale as f64
    }
}
