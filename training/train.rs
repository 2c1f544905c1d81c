//! The NNUE trainer in Rust: the net, loss, optimiser and file of `training/train.py`
//! (its module comment is the description of each), about four times faster on one core and
//! spread over `--threads` cores, for nets without king buckets.
//!
//! `cargo run --release --example train -- DATA.kbz [DATA.kbz ...] --out kibitz.nnue
//!  [--hidden 128] [--epochs 10] [--batch 1024] [--lr 0.001] [--lr-drop 0.3] [--lam 1.0]
//!  [--sigmoid-scale 400] [--no-mirror] [--holdout 0.05] [--output-buckets 1|2|4|8]
//!  [--seed 1] [--threads 1] [--keep-epochs] [--heldout-sample FILE] [--heldout-count 1000]`
//!
//! The same as train.py: 768 inputs per perspective, one hidden layer with SCReLU, output
//! buckets by piece count, the target `lam * sigmoid(score / k) + (1 - lam) * result` from
//! the side to move's view, mean squared error against `sigmoid(eval / k)`, Adam with the
//! learning rate times `--lr-drop` for the last third of the epochs, the weights kept within
//! the quantisation's bounds after every step, left-right mirrored copies of the training
//! positions, a held-out share chosen by game. What differs: the held-out games are chosen
//! by a hash of (file, game number) rather than numpy's generator, and the random numbers
//! are this file's own, so the two trainers give different nets from the same data (of the
//! same quality: docs/nnue.md). The same data, arguments and thread count give the same
//! file. King buckets stay with train.py (they measured worse on this data).
//!
//! The file is written by the library's own writer (`Network::from_params` and
//! `to_bytes`), so what the engine reads is what it checks.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a command-line tool: printing is its job

use std::path::PathBuf;
use std::time::Instant;

use kibitz::{NetParams, Network, Setup, NNUE_INPUTS};
use texel_common::{mix, Rng};

// The tools' seeded generator (SplitMix64), shared with self-play.
#[path = "../tools/texel_common/mod.rs"]
mod texel_common;

const DATA_MAGIC: &[u8; 8] = b"KBZDATA1";
const RECORD: usize = 32;
const SCALE: f32 = 400.0;
const QA: f32 = 255.0;
const QB: f32 = 64.0;
/// The quantisation's bounds, as train.py gives them: no accumulator can leave i16 and no
/// quantised output weight exceeds 127.
const W1_BOUND: f32 = 1.98;
const B1_BOUND: f32 = 64.0;
const W2_BOUND: f32 = 127.0 / QB;
const OUTPUT_BUCKET_CHOICES: [usize; 4] = [1, 2, 4, 8];

struct Args {
    data: Vec<PathBuf>,
    out: PathBuf,
    hidden: usize,
    epochs: usize,
    batch: usize,
    lr: f32,
    lr_drop: f32,
    lam: f32,
    k: f32,
    holdout: f64,
    seed: u64,
    mirror: bool,
    output_buckets: usize,
    threads: usize,
    keep_epochs: bool,
    heldout_sample: Option<PathBuf>,
    heldout_count: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        data: Vec::new(),
        out: PathBuf::new(),
        hidden: 128,
        epochs: 10,
        batch: 1024,
        lr: 0.001,
        lr_drop: 0.3,
        lam: 1.0,
        k: 400.0,
        holdout: 0.05,
        seed: 1,
        mirror: true,
        output_buckets: 1,
        threads: 1,
        keep_epochs: false,
        heldout_sample: None,
        heldout_count: 1000,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        if !arg.starts_with("--") {
            a.data.push(PathBuf::from(arg));
            continue;
        }
        match arg.as_str() {
            "--no-mirror" => a.mirror = false,
            "--mirror" => a.mirror = true,
            "--keep-epochs" => a.keep_epochs = true,
            _ => {
                let value = it.next().ok_or_else(|| format!("{arg} needs a value"))?;
                let bad = |e: &dyn std::fmt::Display| format!("{arg} {value}: {e}");
                match arg.as_str() {
                    "--out" => a.out = PathBuf::from(&value),
                    "--hidden" => a.hidden = value.parse().map_err(|e| bad(&e))?,
                    "--epochs" => a.epochs = value.parse().map_err(|e| bad(&e))?,
                    "--batch" => a.batch = value.parse().map_err(|e| bad(&e))?,
                    "--lr" => a.lr = value.parse().map_err(|e| bad(&e))?,
                    "--lr-drop" => a.lr_drop = value.parse().map_err(|e| bad(&e))?,
                    "--lam" => a.lam = value.parse().map_err(|e| bad(&e))?,
                    "--sigmoid-scale" => a.k = value.parse().map_err(|e| bad(&e))?,
                    "--holdout" => a.holdout = value.parse().map_err(|e| bad(&e))?,
                    "--seed" => a.seed = value.parse().map_err(|e| bad(&e))?,
                    "--output-buckets" => a.output_buckets = value.parse().map_err(|e| bad(&e))?,
                    "--threads" => a.threads = value.parse().map_err(|e| bad(&e))?,
                    "--heldout-sample" => a.heldout_sample = Some(PathBuf::from(&value)),
                    "--heldout-count" => a.heldout_count = value.parse().map_err(|e| bad(&e))?,
                    "--king-buckets" if value == "1" => {}
                    "--king-buckets" => return Err("king buckets: train with training/train.py".into()),
                    _ => return Err(format!("unknown option {arg}")),
                }
            }
        }
    }
    if a.data.is_empty() || a.out.as_os_str().is_empty() {
        return Err("usage: train DATA.kbz [DATA.kbz ...] --out FILE.nnue [options: see the file's comment]".into());
    }
    if !a.hidden.is_multiple_of(16) || !(16..=1024).contains(&a.hidden) {
        return Err("--hidden must be a multiple of 16 in 16..1024".into());
    }
    if !OUTPUT_BUCKET_CHOICES.contains(&a.output_buckets) {
        return Err(format!("--output-buckets must be one of {OUTPUT_BUCKET_CHOICES:?}"));
    }
    if a.batch == 0 || a.epochs == 0 || a.threads == 0 {
        return Err("--batch, --epochs and --threads must be at least 1".into());
    }
    if !(0.0..=1.0).contains(&a.lam) || a.k <= 0.0 || !(0.0..1.0).contains(&a.holdout) {
        return Err("--lam must lie in 0..1, --sigmoid-scale above 0, --holdout in 0..1".into());
    }
    Ok(a)
}

/// One position of the data: its pieces as (code, square) pairs, the side to move (0 White,
/// 1 Black), and the target and output bucket the trainer gives it.
#[derive(Clone, Copy)]
struct Record([u8; RECORD]);

impl Record {
    fn occupancy(&self) -> u64 {
        u64::from_le_bytes(self.0[..8].try_into().expect("8 bytes"))
    }
    fn stm(&self) -> usize {
        self.0[24] as usize
    }
    fn result_white(&self) -> u8 {
        self.0[25]
    }
    fn score_white(&self) -> i16 {
        i16::from_le_bytes([self.0[26], self.0[27]])
    }
    fn game(&self) -> u32 {
        u32::from_le_bytes(self.0[28..32].try_into().expect("4 bytes"))
    }
    /// The pieces as (code, square): code kind 1..6 White, kind + 8 Black; at most 32.
    fn pieces(&self, out: &mut Vec<(u8, u8)>) {
        out.clear();
        let mut occ = self.occupancy();
        let mut i = 0;
        while occ != 0 {
            let sq = occ.trailing_zeros() as u8;
            occ &= occ - 1;
            out.push((self.code(i), sq));
            i += 1;
        }
    }
    /// The piece code of the `i`-th occupied square (a nibble, low first).
    fn code(&self, i: usize) -> u8 {
        (self.0[8 + i / 2] >> (4 * (i % 2))) & 15
    }
    fn check(&self) -> Result<(), String> {
        let n = self.occupancy().count_ones() as usize;
        if n > 32 {
            return Err("a record holds more than 32 pieces".into());
        }
        if (0..n).any(|i| !matches!(self.code(i), 1..=6 | 9..=14)) {
            return Err(format!("a record (game {}) holds a piece code outside 1..6 and 9..14", self.game()));
        }
        if self.stm() > 1 || self.result_white() > 2 {
            return Err(format!("a record (game {}) has a side to move or result out of range", self.game()));
        }
        Ok(())
    }
    /// lam * sigmoid(score / k) + (1 - lam) * result, from the side to move's view.
    fn target(&self, lam: f32, k: f32) -> f32 {
        let sign = if self.stm() == 0 { 1.0 } else { -1.0 };
        let score = self.score_white() as f32 * sign;
        let result = self.result_white() as f32 / 2.0;
        let result = if self.stm() == 0 { result } else { 1.0 - result };
        lam * sigmoid(score / k) + (1.0 - lam) * result
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The output bucket of a position of `pieces` pieces (kings included), the rule of
/// train.py's `output_buckets` and the engine's `Network::output_bucket`.
fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(1) * buckets / 32).min(buckets - 1)
}

/// The active features of a position from `perspective` (0 White, 1 Black), squares
/// mirrored left-right when `mirrored`: (piece of the other side) * 384 + (kind - 1) * 64 +
/// the square as that side sees the board.
fn features(pieces: &[(u8, u8)], perspective: usize, mirrored: bool, out: &mut Vec<usize>) {
    out.clear();
    let flip = if perspective == 0 { 0 } else { 56 } ^ if mirrored { 7 } else { 0 };
    for &(code, sq) in pieces {
        let colour = (code >> 3) as usize;
        let kind = (code & 7) as usize;
        out.push(usize::from(colour != perspective) * 384 + (kind - 1) * 64 + (sq as usize ^ flip));
    }
}

fn read_records(paths: &[PathBuf]) -> Result<(Vec<Record>, Vec<u64>), String> {
    let mut records = Vec::new();
    // Each record's game as (file, game number): game numbers restart in every file.
    let mut games = Vec::new();
    for (file, p) in paths.iter().enumerate() {
        let raw = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if raw.len() < 8 || &raw[..8] != DATA_MAGIC {
            return Err(format!("{}: not a KBZDATA1 file (wrong header)", p.display()));
        }
        if (raw.len() - 8) % RECORD != 0 {
            return Err(format!(
                "{}: {} bytes after the header is not a whole number of 32-byte records",
                p.display(),
                raw.len() - 8
            ));
        }
        for chunk in raw[8..].chunks_exact(RECORD) {
            let r = Record(chunk.try_into().expect("32 bytes"));
            r.check().map_err(|e| format!("{}: {e}", p.display()))?;
            games.push(((file as u64) << 32) | r.game() as u64);
            records.push(r);
        }
    }
    Ok((records, games))
}

/// Float weights: `w1` feature rows of `hidden`, `b1`, per output bucket `w2` (the side to
/// move's half, then the other's) and `b2`.
#[derive(Clone)]
struct Net {
    hidden: usize,
    outputs: usize,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

impl Net {
    /// train.py's start: feature weights N(0, 0.1), biases 0.1, output weights N(0, 1 / sqrt(2H)).
    fn new(hidden: usize, outputs: usize, rng: &mut Rng) -> Net {
        let w1 = (0..NNUE_INPUTS * hidden).map(|_| (0.1 * rng.normal()) as f32).collect();
        let sd = 1.0 / (2.0 * hidden as f64).sqrt();
        let w2 = (0..outputs * 2 * hidden).map(|_| (sd * rng.normal()) as f32).collect();
        Net { hidden, outputs, w1, b1: vec![0.1; hidden], w2, b2: vec![0.0; outputs] }
    }

    fn zeros_like(&self) -> Net {
        Net {
            hidden: self.hidden,
            outputs: self.outputs,
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: vec![0.0; self.b2.len()],
        }
    }

    fn tensors_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.b2]
    }

    fn clear(&mut self) {
        for t in self.tensors_mut() {
            t.fill(0.0);
        }
    }

    fn clip(&mut self) {
        for (t, bound) in [(&mut self.w1, W1_BOUND), (&mut self.b1, B1_BOUND), (&mut self.w2, W2_BOUND)] {
            for w in t.iter_mut() {
                *w = w.clamp(-bound, bound);
            }
        }
    }

    /// The net's output (times SCALE: centipawns for the side to move) for the two
    /// perspectives' features and the output bucket. `acc` holds 2H floats of scratch and
    /// is left with the accumulators.
    fn forward(&self, us: &[usize], them: &[usize], bucket: usize, acc: &mut [f32]) -> f32 {
        let h = self.hidden;
        let (acc_us, acc_them) = acc.split_at_mut(h);
        for (acc, feats) in [(acc_us, us), (acc_them, them)] {
            acc.copy_from_slice(&self.b1);
            for &f in feats {
                add(acc, &self.w1[f * h..(f + 1) * h]);
            }
        }
        let w2 = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        screlu_dot(acc, w2) + self.b2[bucket]
    }

    /// Adds this sample's gradient of the batch loss to `g` (the sample's share of the mean
    /// squared error: `scale` = 2 / batch size) and returns its squared error.
    #[allow(clippy::too_many_arguments)]
    fn backward(
        &self,
        us: &[usize],
        them: &[usize],
        bucket: usize,
        target: f32,
        k: f32,
        scale: f32,
        acc: &mut [f32],
        g: &mut Net,
    ) -> f32 {
        let h = self.hidden;
        let out = self.forward(us, them, bucket, acc);
        let pred = sigmoid(out * SCALE / k);
        let diff = pred - target;
        let g_out = scale * diff * pred * (1.0 - pred) * (SCALE / k);
        g.b2[bucket] += g_out;
        let w2 = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let gw2 = &mut g.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        // acc becomes the gradient at the accumulators, gw2 takes the output layer's.
        output_grads(acc, w2, gw2, g_out);
        let (d_us, d_them) = acc.split_at(h);
        for (d, feats) in [(d_us, us), (d_them, them)] {
            add(&mut g.b1, d);
            for &f in feats {
                add(&mut g.w1[f * h..(f + 1) * h], d);
            }
        }
        diff * diff
    }

    fn quantised(&self) -> Result<Network, String> {
        let q16 = |v: &[f32], q: f32, lim: f32| v.iter().map(|&w| (w * q).round().clamp(-lim, lim) as i16).collect();
        Network::from_params(NetParams {
            hidden: self.hidden,
            king_buckets: None,
            scale: SCALE as u32,
            qa: QA as u32,
            qb: QB as u32,
            feature_weights: q16(&self.w1, QA, 32767.0),
            feature_biases: q16(&self.b1, QA, 32767.0),
            output_weights: q16(&self.w2, QB, 127.0),
            output_biases: self.b2.iter().map(|&b| (b as f64 * QA as f64 * QB as f64).round() as i32).collect(),
        })
        .map_err(|e| format!("the trained net does not quantise: {e}"))
    }
}

fn add(acc: &mut [f32], row: &[f32]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

/// sum over both halves of clamp(acc, 0, 1)^2 * w.
fn screlu_dot(acc: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        for i in 0..8 {
            let c = a[i].clamp(0.0, 1.0);
            lanes[i] += c * c * w[i];
        }
    }
    lanes.iter().sum()
}

/// The output layer's gradient (g_out * activation into `gw2`) and the gradient at each
/// accumulator (g_out * w * 2c where the clamp passes, else 0) written over `acc`.
fn output_grads(acc: &mut [f32], w2: &[f32], gw2: &mut [f32], g_out: f32) {
    for ((a, &w), gw) in acc.iter_mut().zip(w2).zip(gw2.iter_mut()) {
        let c = a.clamp(0.0, 1.0);
        *gw += g_out * c * c;
        *a = if *a > 0.0 && *a < 1.0 { g_out * w * 2.0 * c } else { 0.0 };
    }
}

/// Adam (beta 0.9 and 0.999, eps 1e-8), as train.py's.
struct Adam {
    lr: f32,
    t: i32,
    m: Net,
    v: Net,
}

impl Adam {
    fn step(&mut self, net: &mut Net, g: &mut Net) {
        self.t += 1;
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        let lr = self.lr;
        for (((p, g), m), v) in
            net.tensors_mut().into_iter().zip(g.tensors_mut()).zip(self.m.tensors_mut()).zip(self.v.tensors_mut())
        {
            for (((p, &g), m), v) in p.iter_mut().zip(g.iter()).zip(m.iter_mut()).zip(v.iter_mut()) {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *p -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
            }
        }
    }
}

/// What a thread needs to turn samples into gradients.
struct Scratch {
    pieces: Vec<(u8, u8)>,
    us: Vec<usize>,
    them: Vec<usize>,
    acc: Vec<f32>,
}

impl Scratch {
    fn new(hidden: usize) -> Scratch {
        Scratch { pieces: Vec::with_capacity(32), us: Vec::new(), them: Vec::new(), acc: vec![0.0; 2 * hidden] }
    }

    /// Sample `s` of `records`: record `s % n`, mirrored left-right when `s >= n`. Leaves
    /// its features in `us` and `them` and returns its output bucket.
    fn load(&mut self, records: &[Record], s: usize, buckets: usize) -> usize {
        let n = records.len();
        let r = &records[s % n];
        r.pieces(&mut self.pieces);
        let stm = r.stm();
        features(&self.pieces, stm, s >= n, &mut self.us);
        features(&self.pieces, 1 - stm, s >= n, &mut self.them);
        output_bucket(self.pieces.len(), buckets)
    }
}

struct Trainer<'a> {
    records: &'a [Record],
    targets: &'a [f32],
    k: f32,
    buckets: usize,
}

impl Trainer<'_> {
    /// The summed squared error of `samples`, their gradient (of the mean over `batch`)
    /// added to `g`.
    fn gradients(&self, net: &Net, samples: &[usize], batch: usize, g: &mut Net, s: &mut Scratch) -> f64 {
        let scale = 2.0 / batch as f32;
        let mut loss = 0.0f64;
        for &i in samples {
            let bucket = s.load(self.records, i, self.buckets);
            let t = self.targets[i % self.records.len()];
            loss += net.backward(&s.us, &s.them, bucket, t, self.k, scale, &mut s.acc, g) as f64;
        }
        loss
    }

    /// The gradient of the mean loss over `batch`, left in `grads[0]`, and the summed
    /// squared error: the batch split into one part per entry of `grads` (and `scratch`),
    /// each part on a thread of its own when there are several.
    fn batch_gradients(&self, net: &Net, batch: &[usize], grads: &mut [Net], scratch: &mut [Scratch]) -> f64 {
        let threads = grads.len();
        let per = batch.len().div_ceil(threads);
        let parts = batch.chunks(per).zip(grads.iter_mut()).zip(scratch.iter_mut());
        let losses: Vec<f64> = if threads == 1 {
            parts.map(|((part, g), s)| self.part(net, part, batch.len(), g, s)).collect()
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> =
                    parts.map(|((part, g), s)| scope.spawn(move || self.part(net, part, batch.len(), g, s))).collect();
                handles.into_iter().map(|h| h.join().expect("a training thread panicked")).collect()
            })
        };
        let (first, rest) = grads.split_at_mut(1);
        for other in &mut rest[..losses.len() - 1] {
            for (t, o) in first[0].tensors_mut().into_iter().zip(other.tensors_mut()) {
                add(t, o);
            }
        }
        losses.iter().sum()
    }

    /// One part of a batch: its gradients into a cleared `g`.
    fn part(&self, net: &Net, part: &[usize], batch: usize, g: &mut Net, s: &mut Scratch) -> f64 {
        g.clear();
        self.gradients(net, part, batch, g, s)
    }

    /// Mean squared error of the unmirrored `samples`.
    fn loss(&self, net: &Net, samples: &[usize]) -> f64 {
        let mut s = Scratch::new(net.hidden);
        let mut total = 0.0f64;
        for &i in samples {
            let bucket = s.load(self.records, i, self.buckets);
            let out = net.forward(&s.us, &s.them, bucket, &mut s.acc);
            let d = sigmoid(out * SCALE / self.k) - self.targets[i];
            total += (d * d) as f64;
        }
        total / samples.len().max(1) as f64
    }
}

/// FEN of a record's position (no castling rights or en passant square: the records do not
/// keep them, and the net does not read them).
fn fen(r: &Record) -> String {
    let mut pieces = Vec::new();
    r.pieces(&mut pieces);
    let mut setup = Setup::empty(false);
    for (code, sq) in pieces {
        setup.placement[sq as usize] = code;
    }
    format!("{} {} - - 0 1", setup.board_fen(), if r.stm() == 0 { "w" } else { "b" })
}

fn run(a: &Args) -> Result<(), String> {
    let t0 = Instant::now();
    let (records, games) = read_records(&a.data)?;
    if records.is_empty() {
        return Err("no records".into());
    }
    let targets: Vec<f32> = records.iter().map(|r| r.target(a.lam, a.k)).collect();
    // Held out: the games whose hashed (file, game) falls in the first `holdout` share.
    let cut = (a.holdout * u64::MAX as f64) as u64;
    let held = |i: usize| mix(games[i] ^ a.seed.wrapping_mul(0x2545_F491_4F6C_DD1D)) < cut;
    let n = records.len();
    let (val, mut train): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| held(i));
    if a.mirror {
        let mirrored: Vec<usize> = train.iter().map(|&i| i + n).collect();
        train.extend(mirrored);
    }
    let mut game_keys = games.clone();
    game_keys.sort_unstable();
    game_keys.dedup();
    println!(
        "{n} positions from {} games ({} held out), read in {:.1} s; {} threads",
        game_keys.len(),
        val.len(),
        t0.elapsed().as_secs_f64(),
        a.threads
    );

    let mut rng = Rng::new(a.seed);
    let mut net = Net::new(a.hidden, a.output_buckets, &mut rng);
    let mut opt = Adam { lr: a.lr, t: 0, m: net.zeros_like(), v: net.zeros_like() };
    let trainer = Trainer { records: &records, targets: &targets, k: a.k, buckets: a.output_buckets };
    let mut grads: Vec<Net> = (0..a.threads).map(|_| net.zeros_like()).collect();
    let mut scratch: Vec<Scratch> = (0..a.threads).map(|_| Scratch::new(a.hidden)).collect();
    for epoch in 0..a.epochs {
        if epoch == 2 * a.epochs / 3 {
            opt.lr *= a.lr_drop;
        }
        rng.shuffle(&mut train);
        let (mut total, mut batches) = (0.0f64, 0usize);
        for batch in train.chunks(a.batch) {
            let loss = trainer.batch_gradients(&net, batch, &mut grads, &mut scratch);
            opt.step(&mut net, &mut grads[0]);
            net.clip();
            total += loss / batch.len() as f64;
            batches += 1;
        }
        let v = if val.is_empty() { f64::NAN } else { trainer.loss(&net, &val) };
        println!(
            "epoch {}: train loss {:.6}, validation loss {v:.6} ({:.0} s)",
            epoch + 1,
            total / batches.max(1) as f64,
            t0.elapsed().as_secs_f64()
        );
        if a.keep_epochs {
            let stem = a.out.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
            let ext = a.out.extension().map_or_else(String::new, |s| format!(".{}", s.to_string_lossy()));
            let path = a.out.with_file_name(format!("{stem}.epoch{}{ext}", epoch + 1));
            std::fs::write(&path, net.quantised()?.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let bytes = net.quantised()?.to_bytes();
    std::fs::write(&a.out, &bytes).map_err(|e| format!("{}: {e}", a.out.display()))?;
    println!(
        "wrote {} ({} bytes, hidden {}, king buckets 1, output buckets {})",
        a.out.display(),
        bytes.len(),
        a.hidden,
        a.output_buckets
    );
    if let (Some(path), false) = (&a.heldout_sample, val.is_empty()) {
        // Held-out positions with the float net's evaluation (centipawns, side to move's
        // view): tests/nnue.rs checks the engine's inference of the written file against them.
        let mut pick = val.clone();
        rng.shuffle(&mut pick);
        pick.truncate(a.heldout_count);
        pick.sort_unstable();
        let mut s = Scratch::new(a.hidden);
        let mut text = String::new();
        for &i in &pick {
            let bucket = s.load(&records, i, a.output_buckets);
            let cp = net.forward(&s.us, &s.them, bucket, &mut s.acc) * SCALE;
            text.push_str(&format!("{}\t{cp:.3}\n", fen(&records[i])));
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {} ({} held-out positions)", path.display(), pick.len());
    }
    Ok(())
}

fn main() {
    let result = parse_args().and_then(|a| run(&a));
    if let Err(e) = result {
        eprintln!("train: {e}");
        std::process::exit(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kibitz::{sq120, Board, EMPTY};

    /// A record of a FEN's position (score and result White's view).
    fn record(fen: &str, score: i16, result: u8, game: u32) -> Record {
        let board = Board::from_fen(fen).expect("a valid FEN");
        let mut bytes = [0u8; RECORD];
        let mut occ = 0u64;
        let mut codes = Vec::new();
        for sq in 0..64 {
            let code = board.piece_at(sq120(sq % 8, sq / 8));
            if code != EMPTY {
                occ |= 1 << sq;
                codes.push(code);
            }
        }
        bytes[..8].copy_from_slice(&occ.to_le_bytes());
        for (i, c) in codes.iter().enumerate() {
            bytes[8 + i / 2] |= if i % 2 == 0 { *c } else { *c << 4 };
        }
        bytes[24] = board.side_to_move() as u8;
        bytes[25] = result;
        bytes[26..28].copy_from_slice(&score.to_le_bytes());
        bytes[28..32].copy_from_slice(&game.to_le_bytes());
        Record(bytes)
    }

    const FENS: [&str; 4] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/5k2/8/3KP3/8/8/8/8 b - - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 b - - 0 1",
    ];

    fn small_net(outputs: usize) -> Net {
        let mut rng = Rng::new(7);
        let mut net = Net::new(32, outputs, &mut rng);
        // Biases that put some accumulators inside (0, 1) and some outside.
        for (i, b) in net.b1.iter_mut().enumerate() {
            *b = 0.5 + 0.3 * ((i % 5) as f32 - 2.0);
        }
        net
    }

    #[test]
    fn records_round_trip_their_pieces_and_fen() {
        for fen in FENS {
            let r = record(fen, 12, 1, 3);
            r.check().expect("a valid record");
            let back = Board::from_fen(&super::fen(&r)).expect("the FEN made from the record");
            let board = Board::from_fen(fen).expect("valid");
            for sq in 0..64 {
                assert_eq!(
                    back.piece_at(sq120(sq % 8, sq / 8)),
                    board.piece_at(sq120(sq % 8, sq / 8)),
                    "{fen} square {sq}"
                );
            }
            assert_eq!(back.side_to_move(), board.side_to_move());
        }
    }

    #[test]
    fn gradients_match_finite_differences() {
        let records: Vec<Record> = FENS.iter().enumerate().map(|(i, f)| record(f, 80 - 60 * i as i16, 2, 0)).collect();
        let targets: Vec<f32> = records.iter().map(|r| r.target(0.7, 180.0)).collect();
        let net = small_net(8);
        let trainer = Trainer { records: &records, targets: &targets, k: 180.0, buckets: 8 };
        let samples: Vec<usize> = (0..2 * records.len()).collect(); // the mirrored copies too
        let mut g = net.zeros_like();
        let mut s = Scratch::new(net.hidden);
        trainer.gradients(&net, &samples, samples.len(), &mut g, &mut s);
        let loss = |n: &Net| {
            let mut s = Scratch::new(n.hidden);
            let mut total = 0.0f64;
            for &i in &samples {
                let bucket = s.load(&records, i, 8);
                let out = n.forward(&s.us, &s.them, bucket, &mut s.acc) as f64;
                let d = 1.0 / (1.0 + (-out * 400.0 / 180.0).exp()) - targets[i % records.len()] as f64;
                total += d * d;
            }
            total / samples.len() as f64
        };
        let mut checked = 0;
        for tensor in 0..4 {
            let len = net.clone().tensors_mut()[tensor].len();
            let mut grad = g.clone();
            let analytic = grad.tensors_mut()[tensor].clone();
            // The weights with the largest gradients (the rest are mostly zero).
            let mut order: Vec<usize> = (0..len).collect();
            order.sort_by(|&x, &y| analytic[y].abs().total_cmp(&analytic[x].abs()));
            // (b2 has a gradient only in the buckets the samples use.)
            for &i in order.iter().take(6).filter(|&&i| analytic[i] != 0.0) {
                let eps = 1e-3f32;
                let (mut plus, mut minus) = (net.clone(), net.clone());
                plus.tensors_mut()[tensor][i] += eps;
                minus.tensors_mut()[tensor][i] -= eps;
                let numeric = (loss(&plus) - loss(&minus)) / (2.0 * eps as f64);
                let a = analytic[i] as f64;
                assert!((numeric - a).abs() <= 0.02 * a.abs() + 1e-7, "tensor {tensor} weight {i}: {a} vs {numeric}");
                checked += 1;
            }
        }
        assert!(checked >= 19, "{checked} weights checked");
    }

    #[test]
    fn a_batch_spread_over_threads_has_the_gradient_of_one_thread() {
        let records: Vec<Record> = FENS.iter().enumerate().map(|(i, f)| record(f, 30 * i as i16 - 50, 0, 0)).collect();
        let targets: Vec<f32> = records.iter().map(|r| r.target(0.9, 180.0)).collect();
        let net = small_net(8);
        let trainer = Trainer { records: &records, targets: &targets, k: 180.0, buckets: 8 };
        let batch: Vec<usize> = (0..2 * records.len()).rev().collect();
        let run = |threads: usize| {
            let mut grads: Vec<Net> = (0..threads).map(|_| net.zeros_like()).collect();
            let mut scratch: Vec<Scratch> = (0..threads).map(|_| Scratch::new(net.hidden)).collect();
            // Stale gradients from an earlier batch must not leak in.
            for g in &mut grads {
                g.w1.fill(1.0);
            }
            let loss = trainer.batch_gradients(&net, &batch, &mut grads, &mut scratch);
            (loss, grads.swap_remove(0))
        };
        let (loss1, mut g1) = run(1);
        for threads in [2, 3, 8] {
            let (loss, mut g) = run(threads);
            assert!((loss - loss1).abs() < 1e-9 * loss1.max(1.0), "{threads} threads: loss {loss} vs {loss1}");
            for (a, b) in g.tensors_mut().into_iter().zip(g1.tensors_mut()) {
                for (x, y) in a.iter().zip(b.iter()) {
                    assert!((x - y).abs() <= 1e-6 + 1e-4 * y.abs(), "{threads} threads: {x} vs {y}");
                }
            }
        }
        assert!(g1.w1.iter().any(|&x| x != 0.0));
    }

    #[test]
    fn the_written_file_evaluates_in_the_engine_as_in_the_trainer() {
        let mut net = small_net(8);
        // Output weights on a grid the quantisation keeps, so that only its roundings differ.
        for w in net.w2.iter_mut() {
            *w = (*w * QB).round() / QB;
        }
        let engine = net.quantised().expect("quantises");
        assert_eq!(engine.output_buckets(), 8);
        let back = Network::from_bytes(&engine.to_bytes()).expect("the file reads back");
        for fen in FENS {
            let r = record(fen, 0, 1, 0);
            let mut s = Scratch::new(net.hidden);
            let bucket = s.load(&[r], 0, 8);
            let ours = net.forward(&s.us, &s.them, bucket, &mut s.acc) * SCALE;
            let board = Board::from_fen(fen).expect("valid");
            let theirs = back.evaluate_float(&board);
            // Feature weights and biases rounded to 1/255: a few centipawns at most here.
            assert!((ours as f64 - theirs).abs() < 4.0, "{fen}: trainer {ours} engine {theirs}");
        }
    }

    #[test]
    fn training_lowers_the_loss_on_data_it_can_fit() {
        // Scores that follow the material: a net should learn them.
        let fens = [
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 900),
            ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", -900),
            ("4k3/8/8/8/8/8/8/3RK3 b - - 0 1", 500),
            ("3rk3/8/8/8/8/8/8/4K3 b - - 0 1", -500),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
        ];
        let records: Vec<Record> = fens.iter().map(|&(f, s)| record(f, s, 1, 0)).collect();
        let targets: Vec<f32> = records.iter().map(|r| r.target(1.0, 400.0)).collect();
        let trainer = Trainer { records: &records, targets: &targets, k: 400.0, buckets: 1 };
        let mut rng = Rng::new(3);
        let mut net = Net::new(32, 1, &mut rng);
        let mut opt = Adam { lr: 0.01, t: 0, m: net.zeros_like(), v: net.zeros_like() };
        let samples: Vec<usize> = (0..records.len()).collect();
        let before = trainer.loss(&net, &samples);
        let mut g = net.zeros_like();
        let mut s = Scratch::new(32);
        for _ in 0..300 {
            g.clear();
            trainer.gradients(&net, &samples, samples.len(), &mut g, &mut s);
            opt.step(&mut net, &mut g);
            net.clip();
        }
        let after = trainer.loss(&net, &samples);
        assert!(after < before / 20.0, "loss {before} -> {after}");
    }

    #[test]
    fn output_buckets_follow_the_engines_rule() {
        let net = small_net(8).quantised().expect("quantises");
        for pieces in 2..=32 {
            assert_eq!(output_bucket(pieces, 8), net.output_bucket(pieces as u32), "{pieces} pieces");
        }
    }
}
