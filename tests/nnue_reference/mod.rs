//! The test nets of tests/nnue.rs and their independent reference: a seeded generator,
//! random nets (plain, king-bucketed, with output buckets) written byte by byte by this
//! module's own encoder (FNV-1a included), the accumulators and evaluation recomputed square
//! by square from those bytes in plain integer arithmetic, and random walks and shallow
//! trees that compare incremental accumulators with from-scratch ones.

use kibitz::{color_of, kind_of, sq120, Accumulator, AccumulatorStack, Board, Move, MoveList, Network, EMPTY, WHITE};

/// SplitMix64 (<https://prng.di.unimi.it/splitmix64.c>): a small seeded generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// Uniform in lo..=hi.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// The contents of a test net, as the file describes them.
#[derive(Clone)]
pub struct Spec {
    pub hidden: usize,
    /// King buckets (file version 2): the map by the own king's square from the
    /// perspective's side, and whether a king on the e- to h-files mirrors the board.
    pub buckets: Option<([u8; 64], bool)>,
    pub scale: u32,
    pub qa: u32,
    pub qb: u32,
    pub fw: Vec<i16>,
    pub fb: Vec<i16>,
    /// `2 * hidden` per output bucket.
    pub ow: Vec<i16>,
    /// One per output bucket (more than one: file version 3).
    pub ob: Vec<i32>,
}

/// A random net whose accumulators stay inside i16 (|bias| + 32 pieces * |weight| < 2^15)
/// and span the clipping range both ways. `wide_output` uses the full i16 output weights.
pub fn random_spec(seed: u64, hidden: usize, wide_output: bool) -> Spec {
    let mut rng = Rng(seed);
    let w = |rng: &mut Rng, lo, hi| rng.range(lo, hi) as i16;
    let fw = (0..768 * hidden).map(|_| w(&mut rng, -90, 90)).collect();
    let fb = (0..hidden).map(|_| w(&mut rng, -150, 400)).collect();
    let ow = (0..2 * hidden)
        .map(|i| {
            if wide_output {
                if i % 97 == 0 {
                    i16::MIN
                } else {
                    w(&mut rng, -32768, 32767)
                }
            } else {
                w(&mut rng, -127, 127)
            }
        })
        .collect();
    let ob = vec![rng.range(-200_000, 200_000) as i32];
    Spec { hidden, buckets: None, scale: 400, qa: 255, qb: 64, fw, fb, ow, ob }
}

/// A random net with `n` king buckets over a random map (every bucket used), mirrored or not.
pub fn random_bucket_spec(seed: u64, hidden: usize, n: usize, mirror: bool) -> Spec {
    let mut spec = random_spec(seed, hidden, false);
    let mut rng = Rng(seed ^ 0x5eed);
    let mut map = [0u8; 64];
    for (s, b) in map.iter_mut().enumerate() {
        *b = if s < n { s as u8 } else { rng.below(n) as u8 };
    }
    spec.fw = (0..768 * n * hidden).map(|_| rng.range(-90, 90) as i16).collect();
    spec.buckets = Some((map, mirror));
    spec
}

/// `spec` with `n` output buckets, each with random output weights and bias.
pub fn with_outputs(mut spec: Spec, n: usize, seed: u64) -> Spec {
    let mut rng = Rng(seed ^ 0x0b0b);
    spec.ow = (0..n * 2 * spec.hidden).map(|_| rng.range(-127, 127) as i16).collect();
    spec.ob = (0..n).map(|_| rng.range(-200_000, 200_000) as i32).collect();
    spec
}

/// FNV-1a 64, written here from its definition.
pub fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The net file of `s`, byte by byte as the format describes it.
pub fn encode(s: &Spec) -> Vec<u8> {
    let mut out = b"KBZNNUE\0".to_vec();
    let inputs = match &s.buckets {
        None => 768,
        Some((map, _)) => 768 * (*map.iter().max().unwrap() as u32 + 1),
    };
    let version = if s.ob.len() > 1 {
        3
    } else if s.buckets.is_some() {
        2
    } else {
        1u32
    };
    for v in [version, inputs, s.hidden as u32, s.scale, s.qa, s.qb] {
        out.extend(v.to_le_bytes());
    }
    if version >= 2 {
        let (map, mirror) = s.buckets.unwrap_or(([0; 64], false));
        out.extend(u32::from(mirror).to_le_bytes());
        out.extend(map);
    }
    if version == 3 {
        out.extend((s.ob.len() as u32).to_le_bytes());
    }
    for v in s.fw.iter().chain(&s.fb).chain(&s.ow) {
        out.extend(v.to_le_bytes());
    }
    for b in &s.ob {
        out.extend(b.to_le_bytes());
    }
    let sum = fnv(&out);
    out.extend(sum.to_le_bytes());
    out
}

/// The accumulator of `perspective`, recomputed square by square from the spec (i64, then
/// checked to fit i16: the random nets are built so that it does).
pub fn reference_acc(s: &Spec, board: &Board, perspective: usize) -> Vec<i64> {
    let h = s.hidden;
    let mut acc: Vec<i64> = s.fb.iter().map(|&b| b as i64).collect();
    // The rank and file as the perspective sees them: Black's board upside down.
    let seen = |file: usize, rank: usize| if perspective == WHITE { (file, rank) } else { (file, 7 - rank) };
    // King buckets: the bucket of the own king's square, and the left-right mirror.
    let (mut base, mut mirrored) = (0, false);
    if let Some((map, mirror)) = &s.buckets {
        let king = (0..64)
            .find(|&sq| {
                let p = board.piece_at(sq120(sq % 8, sq / 8));
                kind_of(p) == kibitz::KING && color_of(p) == perspective
            })
            .expect("a king");
        let (kf, kr) = seen(king % 8, king / 8);
        base = 768 * map[kr * 8 + kf] as usize;
        mirrored = *mirror && kf >= 4;
    }
    for rank in 0..8 {
        for file in 0..8 {
            let p = board.piece_at(sq120(file, rank));
            if p == EMPTY {
                continue;
            }
            let (f_seen, r_seen) = seen(file, rank);
            let f_seen = if mirrored { 7 - f_seen } else { f_seen };
            let relative = r_seen * 8 + f_seen;
            let f = base + if color_of(p) == perspective { 0 } else { 384 } + (kind_of(p) as usize - 1) * 64 + relative;
            for (a, &w) in acc.iter_mut().zip(&s.fw[f * h..f * h + h]) {
                *a += w as i64;
            }
        }
    }
    assert!(acc.iter().all(|&a| (i16::MIN as i64..=i16::MAX as i64).contains(&a)), "test net leaves i16");
    acc
}

/// The evaluation by the formula of the format, in i128 from the spec.
pub fn reference_eval(s: &Spec, board: &Board) -> i32 {
    let stm = board.side_to_move();
    let qa = s.qa as i128;
    // The output bucket: min((pieces - 1) * n / 32, n - 1), the pieces counted square by square.
    let pieces = (0..64).filter(|&sq| board.piece_at(sq120(sq % 8, sq / 8)) != EMPTY).count();
    let n = s.ob.len();
    let bucket = ((pieces - 1) * n / 32).min(n - 1);
    let ow = &s.ow[bucket * 2 * s.hidden..(bucket + 1) * 2 * s.hidden];
    let mut sum: i128 = 0;
    for (half, perspective) in [(0, stm), (1, 1 - stm)] {
        for (j, &a) in reference_acc(s, board, perspective).iter().enumerate() {
            let c = (a as i128).clamp(0, qa);
            sum += c * c * ow[half * s.hidden + j] as i128;
        }
    }
    let out = sum / qa + s.ob[bucket] as i128; // Rust's `/` truncates towards zero, as the format says
    (out * s.scale as i128 / (qa * s.qb as i128)) as i32
}

pub fn net_of(s: &Spec) -> Network {
    Network::from_bytes(&encode(s)).expect("the test net loads")
}

pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut ml = MoveList::new();
    board.generate_legal(&mut ml);
    ml.iter().copied().collect()
}

pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Castling both ways for both sides, en passant (d5 x e6), promotions with capture both ways.
pub const SPECIAL: &str = "r3k2r/1P4P1/8/3Pp3/8/8/1p4p1/R3K2R w KQkq e6 0 1";
pub const SPECIAL_BLACK: &str = "r3k2r/1P4P1/8/8/3pP3/8/1p4p1/R3K2R b KQkq e3 0 1";
pub const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";

/// The first `n` Chess960 positions of tests/data/chess960.perft.
pub fn chess960_fens(n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess960.perft"))
        .expect("tests/data/chess960.perft");
    text.lines().filter_map(|l| l.strip_prefix("epd ")).take(n).map(|s| s.trim().to_string()).collect()
}

/// What kinds of moves a walk exercised (so that the tests fail if coverage is lost).
#[derive(Default, Debug)]
pub struct Seen {
    pub castles: usize,
    pub castles_960: usize,
    pub en_passant: usize,
    pub promo_captures: usize,
    pub captures: usize,
    pub nulls: usize,
    pub pops: usize,
    pub checked: usize,
}

impl Seen {
    pub fn note(&mut self, board: &Board, m: Move) {
        if m.is_castle() {
            self.castles += 1;
            if board.is_chess960() {
                self.castles_960 += 1;
            }
        } else if m.is_en_passant() {
            self.en_passant += 1;
        } else if board.piece_at(m.to()) != EMPTY {
            self.captures += 1;
            if m.is_promotion() {
                self.promo_captures += 1;
            }
        }
    }
}

/// Plays random games from `fens`, pushing before each make and popping after random
/// take-backs, with null moves now and then; checks every accumulator against a refresh.
pub fn random_walk(net: &Network, fens: &[(String, bool)], games: usize, seed: u64, seen: &mut Seen) {
    let mut rng = Rng(seed);
    for g in 0..games {
        let (fen, is960) = &fens[g % fens.len()];
        let mut board = Board::from_fen_with(fen, *is960).unwrap();
        let mut stack = AccumulatorStack::new(net, &board);
        for _ in 0..120 {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            let r = rng.below(100);
            if r < 8 && stack.depth() > 0 {
                board.unmake_move();
                stack.pop();
                seen.pops += 1;
            } else if r < 12 && !board.in_check() {
                if r < 10 {
                    stack.push(net, &board, Move::NULL);
                    board.make_null();
                } else {
                    board.make_null();
                    stack.push_made(net, &board);
                }
                seen.nulls += 1;
            } else {
                // Prefer the special moves when they are there, so that every game tests them.
                let special: Vec<Move> =
                    moves.iter().copied().filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion()).collect();
                let m = if !special.is_empty() && rng.below(2) == 0 {
                    special[rng.below(special.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                seen.note(&board, m);
                // Both entry points: from the board before the move and from the board after it.
                if rng.below(2) == 0 {
                    stack.push(net, &board, m);
                    board.make_move(m);
                } else {
                    board.make_move(m);
                    stack.push_made(net, &board);
                }
            }
            // Not at every ply: the stack is lazy, and a check after several unchecked plies
            // tests the catching up over them.
            if rng.below(3) != 0 {
                assert_eq!(
                    stack.current(net),
                    &Accumulator::from_board(net, &board),
                    "after {:?} in {}",
                    board.move_history().last(),
                    board.fen()
                );
                seen.checked += 1;
            }
        }
    }
}

/// Every move down to `depth` plies, checked at every node; `push` at odd plies,
/// `push_made` at even ones.
pub fn tree_walk(net: &Network, board: &mut Board, stack: &mut AccumulatorStack, depth: u32, seen: &mut Seen) {
    if depth == 0 {
        return;
    }
    for m in legal_moves(board) {
        seen.note(board, m);
        if depth.is_multiple_of(2) {
            stack.push(net, board, m);
            board.make_move(m);
        } else {
            board.make_move(m);
            stack.push_made(net, board);
        }
        assert_eq!(stack.current(net), &Accumulator::from_board(net, board), "after {m:?}: {}", board.fen());
        seen.checked += 1;
        tree_walk(net, board, stack, depth - 1, seen);
        board.unmake_move();
        stack.pop();
        assert_eq!(stack.current(net), &Accumulator::from_board(net, board), "after popping {m:?}: {}", board.fen());
    }
}

pub fn start_fens() -> Vec<(String, bool)> {
    let mut fens: Vec<(String, bool)> =
        [kibitz::STARTPOS, KIWIPETE, SPECIAL, SPECIAL_BLACK, POS4].iter().map(|f| (f.to_string(), false)).collect();
    fens.extend(chess960_fens(20).into_iter().map(|f| (f, true)));
    fens
}

/// Asserts that the stack's evaluation of `board` is the reference's, and that the float
/// evaluation lies within 2 cp of it.
pub fn assert_evaluates_as_reference(spec: &Spec, net: &Network, stack: &mut AccumulatorStack, board: &Board) {
    let want = reference_eval(spec, board);
    assert_eq!(stack.evaluate(net, board.side_to_move()), want, "{}", board.fen());
    let float = net.evaluate_float(board);
    assert!((float - want as f64).abs() < 2.0, "float {float} against {want} in {}", board.fen());
}

/// A random legal move of `board`, half the time one that `prefer` picks when there is one
/// (to steer random games: king moves across buckets, captures into endgames); None when
/// there is no legal move.
pub fn biased_move(rng: &mut Rng, board: &Board, prefer: impl Fn(Move) -> bool) -> Option<Move> {
    let moves = legal_moves(board);
    if moves.is_empty() {
        return None;
    }
    let preferred: Vec<Move> = moves.iter().copied().filter(|&m| prefer(m)).collect();
    Some(if !preferred.is_empty() && rng.below(2) == 0 {
        preferred[rng.below(preferred.len())]
    } else {
        moves[rng.below(moves.len())]
    })
}
