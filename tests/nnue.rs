//! NNUE inference (rust/eval/nnue/) against references written here, independently of the module
//! (`nnue_reference/`): the net file is written by the tests' own encoder (FNV-1a included),
//! the accumulators and the evaluation are recomputed from those bytes square by square in
//! plain i64 arithmetic, and incremental accumulators are compared with from-scratch ones along random
//! games and every move of shallow trees (castling both ways, en passant, promotions with
//! capture, Chess960 castling from tests/data/chess960.perft).

use kibitz::{Accumulator, AccumulatorStack, Board, Move, NetError, Network, SimdPath, BLACK, EMPTY, WHITE};

mod nnue_reference;
use nnue_reference::*;

#[test]
fn incremental_accumulators_equal_refreshed_ones_along_random_games() {
    for (seed, hidden) in [(1, 32), (2, 256)] {
        let net = net_of(&random_spec(seed, hidden, false));
        let mut seen = Seen::default();
        random_walk(&net, &start_fens(), 150, seed * 7, &mut seen);
        assert!(
            seen.castles > 20
                && seen.castles_960 > 10
                && seen.en_passant > 5
                && seen.promo_captures > 5
                && seen.nulls > 100
                && seen.pops > 100,
            "random games missed move kinds: {seen:?}"
        );
    }
}

#[test]
fn incremental_accumulators_equal_refreshed_ones_over_every_move_of_shallow_trees() {
    let net = net_of(&random_spec(3, 64, false));
    let mut seen = Seen::default();
    let fens: Vec<(String, bool)> = [KIWIPETE, SPECIAL, SPECIAL_BLACK, POS4]
        .iter()
        .map(|f| (f.to_string(), false))
        .chain(chess960_fens(60).into_iter().map(|f| (f, true)))
        .collect();
    for (fen, is960) in &fens {
        let mut board = Board::from_fen_with(fen, *is960).unwrap();
        let mut stack = AccumulatorStack::new(&net, &board);
        tree_walk(&net, &mut board, &mut stack, 2, &mut seen);
        assert_eq!(stack.depth(), 0);
    }
    assert!(seen.castles_960 > 20 && seen.en_passant > 0 && seen.promo_captures > 10, "{seen:?}");
}

#[test]
fn general_update_equals_refresh() {
    let net = net_of(&random_spec(4, 48, false));
    let before = Board::from_fen(KIWIPETE).unwrap();
    // e5xf7: knight e5 to f7 capturing the pawn, written as explicit changes.
    let mut after = before.clone();
    after.push_uci("e5f7").unwrap();
    let knight = before.piece_at(kibitz::parse_square("e5").unwrap());
    let pawn = before.piece_at(kibitz::parse_square("f7").unwrap());
    let (e5, f7) = (kibitz::parse_square("e5").unwrap(), kibitz::parse_square("f7").unwrap());
    let mut acc = Accumulator::from_board(&net, &before);
    assert!(acc.update(&net, &[(knight, f7)], &[(knight, e5), (pawn, f7)]));
    assert_eq!(acc, Accumulator::from_board(&net, &after));
    assert_ne!(acc, Accumulator::from_board(&net, &before));
}

#[test]
fn evaluate_equals_the_independent_reference() {
    let mut rng = Rng(5);
    for (seed, hidden, wide) in [(6, 16, false), (7, 256, false), (8, 256, true), (9, 1024, true), (24, 1024, true)] {
        let spec = random_spec(seed, hidden, wide);
        let mut net = net_of(&spec);
        // Alternate the kernels: the reference is checked against both paths.
        let path = if seed % 2 == 0 || !SimdPath::Avx2.is_available() { SimdPath::Scalar } else { SimdPath::Avx2 };
        assert!(net.set_simd(path));
        let mut checked = 0;
        for (fen, is960) in start_fens() {
            let mut board = Board::from_fen_with(&fen, is960).unwrap();
            let mut stack = AccumulatorStack::new(&net, &board);
            for _ in 0..40 {
                let stm = board.side_to_move();
                let want = reference_eval(&spec, &board);
                assert_eq!(stack.evaluate(&net, stm), want, "H={hidden} {}", board.fen());
                for (p, v) in [(WHITE, 0), (BLACK, 1)] {
                    let r: Vec<i16> = reference_acc(&spec, &board, p).iter().map(|&a| a as i16).collect();
                    assert_eq!(stack.current(&net).values(p), r, "perspective {v}");
                }
                checked += 1;
                let moves = legal_moves(&board);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                stack.push(&net, &board, m);
                board.make_move(m);
            }
        }
        assert!(checked > 500);
    }
}

#[test]
fn evaluations_vary_and_are_clipped_in_both_directions() {
    // Guards the other tests against a degenerate net (all neurons clipped at 0 or at QA).
    let spec = random_spec(10, 256, false);
    let board = Board::from_fen(KIWIPETE).unwrap();
    let acc = reference_acc(&spec, &board, WHITE);
    assert!(acc.iter().filter(|&&a| a < 0).count() > 20 && acc.iter().filter(|&&a| a > 255).count() > 20);
    assert!(acc.iter().filter(|&&a| (1..255).contains(&a)).count() > 20);
    let net = net_of(&spec);
    let evals: std::collections::HashSet<i32> = start_fens()
        .iter()
        .map(|(f, c)| Board::from_fen_with(f, *c).unwrap())
        .map(|b| net.evaluate(&Accumulator::from_board(&net, &b), b.side_to_move()))
        .collect();
    assert!(evals.len() > 15, "{evals:?}");
}

#[test]
fn avx2_and_scalar_kernels_agree() {
    let mut scalar = net_of(&random_spec(11, 256, true));
    assert!(scalar.set_simd(SimdPath::Scalar));
    assert_eq!(scalar.simd(), SimdPath::Scalar);
    let mut fast = scalar.clone();
    if !fast.set_simd(SimdPath::Avx2) {
        // Nothing to compare on this CPU; the refusal itself is what must hold.
        assert!(!SimdPath::Avx2.is_available() && fast.simd() == SimdPath::Scalar);
        return;
    }
    assert_eq!(SimdPath::detect(), SimdPath::Avx2);
    let mut rng = Rng(12);
    let mut compared = 0;
    for (fen, is960) in start_fens() {
        let mut board = Board::from_fen_with(&fen, is960).unwrap();
        let mut s1 = AccumulatorStack::new(&scalar, &board);
        let mut s2 = AccumulatorStack::new(&fast, &board);
        for _ in 0..60 {
            assert_eq!(s1.current(&scalar), s2.current(&fast));
            let stm = board.side_to_move();
            assert_eq!(s1.evaluate(&scalar, stm), s2.evaluate(&fast, stm));
            assert_eq!(s1.evaluate(&scalar, 1 - stm), s2.evaluate(&fast, 1 - stm));
            compared += 1;
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            s1.push(&scalar, &board, m);
            s2.push(&fast, &board, m);
            board.make_move(m);
        }
    }
    assert!(compared > 500);
    // Saturated accumulators (every neuron clipped at QA or at 0) on both paths.
    let mut spec = random_spec(13, 64, true);
    for (j, b) in spec.fb.iter_mut().enumerate() {
        *b = if j % 2 == 0 { 30000 } else { -30000 };
    }
    spec.fw.iter_mut().for_each(|w| *w /= 40);
    let (mut a, mut b) = (net_of(&spec), net_of(&spec));
    assert!(a.set_simd(SimdPath::Scalar) && b.set_simd(SimdPath::Avx2));
    let board = Board::startpos();
    let want = reference_eval(&spec, &board);
    assert_eq!(a.evaluate(&Accumulator::from_board(&a, &board), WHITE), want);
    assert_eq!(b.evaluate(&Accumulator::from_board(&b, &board), WHITE), want);
}

#[test]
fn float_reference_is_within_the_stated_tolerance() {
    // Both truncating divisions together lose less than 1 + SCALE / (QA * QB) centipawns.
    let spec = random_spec(14, 256, false);
    let net = net_of(&spec);
    let tolerance = 1.0 + spec.scale as f64 / (spec.qa as f64 * spec.qb as f64) + 1e-6;
    let mut rng = Rng(15);
    let mut worst: f64 = 0.0;
    let mut n = 0;
    for (fen, is960) in start_fens() {
        let mut board = Board::from_fen_with(&fen, is960).unwrap();
        for _ in 0..30 {
            let q = net.evaluate(&Accumulator::from_board(&net, &board), board.side_to_move()) as f64;
            let f = net.evaluate_float(&board);
            worst = worst.max((q - f).abs());
            assert!((q - f).abs() <= tolerance, "quantised {q} float {f} in {}", board.fen());
            n += 1;
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            board.make_move(moves[rng.below(moves.len())]);
        }
    }
    assert!(n > 300 && worst > 0.0, "{n} positions, worst {worst}");
}

/// The colour-flipped mirror of a FEN: ranks reversed, colours swapped, side to move
/// swapped, castling letters swapped, the en-passant rank mirrored.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect()
    };
    let board = f[0].split('/').rev().map(swap).collect::<Vec<_>>().join("/");
    let side = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let s = swap(f[2]);
        let (upper, lower): (String, String) = s.chars().partition(|c| c.is_ascii_uppercase());
        upper + &lower
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!("{board} {side} {castling} {ep} 0 1")
}

#[test]
fn mirrored_positions_evaluate_alike_for_the_side_to_move() {
    let spec = random_spec(16, 128, true);
    let net = net_of(&spec);
    let mut rng = Rng(17);
    let mut n = 0;
    for (fen, is960) in start_fens() {
        let mut board = Board::from_fen_with(&fen, is960).unwrap();
        for _ in 0..25 {
            let mirror = Board::from_fen_with(&mirror_fen(&board.fen()), is960).unwrap();
            let e = net.evaluate(&Accumulator::from_board(&net, &board), board.side_to_move());
            let m = net.evaluate(&Accumulator::from_board(&net, &mirror), mirror.side_to_move());
            assert_eq!(e, m, "{} vs {}", board.fen(), mirror.fen());
            // And the perspectives swap exactly.
            let (a, b) = (Accumulator::from_board(&net, &board), Accumulator::from_board(&net, &mirror));
            assert_eq!(a.values(WHITE), b.values(BLACK));
            n += 1;
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            board.make_move(moves[rng.below(moves.len())]);
        }
    }
    assert!(n > 300);
    // The side to move matters (otherwise the symmetry above would be vacuous).
    let b = Board::from_fen(KIWIPETE).unwrap();
    let acc = Accumulator::from_board(&net, &b);
    assert_ne!(net.evaluate(&acc, WHITE), net.evaluate(&acc, BLACK));
}

#[test]
fn round_trip_through_bytes_and_params() {
    let spec = random_spec(18, 32, true);
    let bytes = encode(&spec);
    assert_eq!(bytes.len(), 32 + 2 * (768 * 32 + 3 * 32) + 4 + 8);
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!((net.hidden(), net.scale(), net.qa(), net.qb()), (32, 400, 255, 64));
    assert_eq!(net.to_bytes(), bytes);
    let p = net.params();
    assert_eq!(
        (p.feature_weights, p.feature_biases, p.output_weights, p.output_biases),
        (spec.fw.clone(), spec.fb.clone(), spec.ow.clone(), spec.ob.clone())
    );
    let again = Network::from_params(net.params()).unwrap();
    assert_eq!(again.to_bytes(), bytes);
    // The size of the first net's file (H = 256), as the format documentation states.
    assert_eq!(encode(&random_spec(19, 256, false)).len(), 394_796);
}

/// `bytes` with the u32 header field at `offset` replaced (checksum left stale: the header
/// checks come first).
fn with_field(bytes: &[u8], offset: usize, value: u32) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    b
}

#[test]
fn every_bad_file_gets_its_error() {
    let spec = random_spec(20, 32, false);
    let good = encode(&spec);
    let len = good.len();
    assert!(Network::from_bytes(&good).is_ok());

    for cut in [0, 3, 8, 20, 31] {
        assert_eq!(
            Network::from_bytes(&good[..cut]).unwrap_err(),
            NetError::Truncated { expected: 32, got: cut },
            "cut at {cut}"
        );
    }
    for cut in [32, 33, 1000, len / 2, len - 9, len - 8, len - 1] {
        assert_eq!(
            Network::from_bytes(&good[..cut]).unwrap_err(),
            NetError::Truncated { expected: len, got: cut },
            "cut at {cut}"
        );
    }
    let msg = Network::from_bytes(&good[..1000]).unwrap_err().to_string();
    assert!(msg.contains(&len.to_string()) && msg.contains("1000"), "{msg}");

    let mut longer = good.clone();
    longer.push(0);
    assert_eq!(Network::from_bytes(&longer).unwrap_err(), NetError::TrailingBytes { expected: len, got: len + 1 });

    for at in [40, len / 2, len - 12, len - 9, len - 1] {
        let mut flipped = good.clone();
        flipped[at] ^= 0x10;
        let err = Network::from_bytes(&flipped).unwrap_err();
        assert!(
            matches!(err, NetError::ChecksumMismatch { stored, computed } if stored != computed),
            "flip at {at}: {err}"
        );
        assert!(err.to_string().contains("checksum"));
    }

    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(Network::from_bytes(&magic).unwrap_err(), NetError::BadMagic);
    assert_eq!(Network::from_bytes(b"PK\x03\x04 a zip file, not a net").unwrap_err(), NetError::BadMagic);
    assert_eq!(Network::from_bytes(b"PK").unwrap_err(), NetError::BadMagic);

    assert_eq!(Network::from_bytes(&with_field(&good, 8, 4)).unwrap_err(), NetError::UnsupportedVersion(4));
    assert!(NetError::UnsupportedVersion(4).to_string().contains("version 4"));
    assert_eq!(Network::from_bytes(&with_field(&good, 12, 769)).unwrap_err(), NetError::BadInputs(769));
    for h in [0, 8, 24, 1040, u32::MAX] {
        assert_eq!(Network::from_bytes(&with_field(&good, 16, h)).unwrap_err(), NetError::BadHidden(h));
    }
    for (offset, field, bad, max) in [
        (20, "scale", 0, 10_000),
        (20, "scale", 10_001, 10_000),
        (24, "qa", 0, 255),
        (24, "qa", 256, 255),
        (28, "qb", 0, 32767),
        (28, "qb", 40_000, 32767),
    ] {
        assert_eq!(
            Network::from_bytes(&with_field(&good, offset, bad)).unwrap_err(),
            NetError::BadQuantisation { field, value: bad, max }
        );
    }
    // A valid header whose hidden size makes the file longer than it is.
    let h64 = with_field(&good, 16, 64);
    assert_eq!(
        Network::from_bytes(&h64).unwrap_err(),
        NetError::Truncated { expected: 32 + 2 * (768 * 64 + 3 * 64) + 12, got: len }
    );

    let mut params = Network::from_bytes(&good).unwrap().params();
    params.output_weights.pop();
    assert_eq!(
        Network::from_params(params).unwrap_err(),
        NetError::BadLength { what: "output weights", expected: 64, got: 63 }
    );
}

#[test]
fn random_garbage_never_panics() {
    let good = encode(&random_spec(21, 16, false));
    let mut rng = Rng(22);
    for _ in 0..2000 {
        let mut b = good.clone();
        for _ in 0..rng.below(4) + 1 {
            let at = rng.below(b.len());
            b[at] = rng.next() as u8;
        }
        b.truncate(rng.below(b.len() + 1).max(b.len() - rng.below(3)));
        // Any outcome but a panic is fine; a changed byte must not load unnoticed.
        if let Ok(net) = Network::from_bytes(&b) {
            assert_eq!(net.to_bytes(), b);
        }
    }
}

#[test]
fn chess960_castling_where_squares_coincide() {
    // King already on its destination (g1); rook already on its destination (f1); king and
    // rook swapping squares (d1/c1); king from b1 past the rook's destination; and Black's
    // mirror of the first.
    let net = net_of(&random_spec(25, 32, false));
    let fens = [
        "4k3/8/8/8/8/8/8/6KR w H - 0 1",
        "4k3/8/8/8/8/8/8/4KR2 w F - 0 1",
        "4k3/8/8/8/8/8/8/2RK4 w C - 0 1",
        "4k3/8/8/8/8/8/8/RK6 w A - 0 1",
        "6kr/8/8/8/8/8/8/4K3 b h - 0 1",
    ];
    for fen in fens {
        let board = Board::from_fen_with(fen, true).unwrap();
        let castles: Vec<Move> = legal_moves(&board).into_iter().filter(|m| m.is_castle()).collect();
        assert_eq!(castles.len(), 1, "{fen}");
        let mut after = board.clone();
        after.make_move(castles[0]);
        let mut stack = AccumulatorStack::new(&net, &board);
        stack.push(&net, &board, castles[0]);
        assert_eq!(stack.current(&net), &Accumulator::from_board(&net, &after), "{fen} after {:?}", castles[0]);
        stack.pop();
        stack.push_made(&net, &after);
        assert_eq!(stack.current(&net), &Accumulator::from_board(&net, &after), "{fen}: push_made");
        assert_ne!(stack.current(&net), &Accumulator::from_board(&net, &board), "{fen}: the castling changed nothing");
    }
}

#[test]
fn a_net_written_by_the_trainer_evaluates_as_the_trainer_does() {
    // tests/data/make_nnue_fixture.py: a small net written by training/train.py's own code,
    // with the trainer's float evaluations of 60 positions, both with its float weights and
    // with the weights read back from the file (dequantised).
    let net = Network::from_bytes(include_bytes!("data/nnue_trainer_h16.nnue")).expect("the trainer's file loads");
    assert_eq!((net.hidden(), net.scale(), net.qa(), net.qb()), (16, 400, 255, 64));
    let (lo, hi) = net.accumulator_range();
    assert!(lo >= i16::MIN as i64 && hi <= i16::MAX as i64, "the fixture could wrap: {lo}..{hi}");
    let exact = 1.0 + 400.0 / (255.0 * 64.0);
    let (mut n, mut worst, mut total) = (0, 0.0f64, 0.0f64);
    for line in include_str!("data/nnue_trainer_h16.txt").lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let board = Board::from_fen(fields[0]).unwrap();
        let trainer: f64 = fields[1].parse().unwrap();
        let dequantised: f64 = fields[2].parse().unwrap();
        let q = net.evaluate(&Accumulator::from_board(&net, &board), board.side_to_move()) as f64;
        // The same weights, the same formula: only the two truncating divisions differ.
        assert!(
            (q - dequantised).abs() <= exact,
            "{}: quantised {q}, trainer on the file's weights {dequantised}",
            fields[0]
        );
        let f = net.evaluate_float(&board);
        assert!((f - dequantised).abs() <= 1e-6 * dequantised.abs().max(1.0), "{}: {f} vs {dequantised}", fields[0]);
        worst = worst.max((q - trainer).abs());
        total += (q - trainer).abs();
        n += 1;
    }
    assert_eq!(n, 60);
    // Against the trainer's unrounded float weights: rounding the weights to steps of 1/255
    // and 1/64 costs this fixture (|evaluations| up to 1383 cp, median 612) 22 cp at most and
    // 6 cp on average (measured when the fixture was made); allowed: 30 and 10.
    assert!(worst <= 30.0 && total / n as f64 <= 10.0, "quantisation error: worst {worst}, mean {}", total / n as f64);
}

#[test]
fn accumulator_range_bounds_every_position() {
    // A hand-made net: neuron 0's weights are 1 for every feature, neuron 1's -2 for the
    // first 10 features and 3 for the last, the rest 0; biases 5 and -7.
    let mut spec = random_spec(26, 16, false);
    spec.fw.iter_mut().for_each(|w| *w = 0);
    spec.fb.iter_mut().for_each(|b| *b = 0);
    spec.fb[0] = 5;
    spec.fb[1] = -7;
    for f in 0..768 {
        spec.fw[f * 16] = 1;
        spec.fw[f * 16 + 1] = if f < 10 {
            -2
        } else if f == 767 {
            3
        } else {
            0
        };
    }
    assert_eq!(net_of(&spec).accumulator_range(), (-7 - 20, 5 + 32));
    // A random net: every accumulator of many positions lies within its range, and the
    // range is not absurdly loose (the random nets' rows are within +-90, 32 of them).
    let spec = random_spec(27, 64, false);
    let net = net_of(&spec);
    let (lo, hi) = net.accumulator_range();
    assert!(lo >= -150 - 32 * 90 && hi <= 400 + 32 * 90 && lo < -1000 && hi > 1000, "{lo}..{hi}");
    let mut rng = Rng(28);
    for (fen, is960) in start_fens() {
        let mut board = Board::from_fen_with(&fen, is960).unwrap();
        for _ in 0..30 {
            let acc = Accumulator::from_board(&net, &board);
            for p in [WHITE, BLACK] {
                assert!(acc.values(p).iter().all(|&v| (lo..=hi).contains(&(v as i64))));
            }
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            board.make_move(moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn a_net_whose_accumulators_could_leave_the_i16_range_is_refused() {
    // Every weight and bias at the i16 maximum: 33 of them summed wrap many times over.
    let mut spec = random_spec(31, 16, false);
    spec.fw.iter_mut().for_each(|w| *w = i16::MAX);
    spec.fb.iter_mut().for_each(|b| *b = i16::MAX);
    let err = Network::from_bytes(&encode(&spec)).unwrap_err();
    let NetError::AccumulatorOverflow { lo, hi } = err else { panic!("expected an overflow error, got {err:?}") };
    assert!(hi > i16::MAX as i64 && lo <= hi, "{lo}..{hi}");
    assert!(err.to_string().contains("i16 range"), "{err}");
    // Just inside: one neuron whose bias plus its 32 largest weights is exactly i16::MAX loads,
    // one more and it is refused (also through from_params).
    let mut spec = random_spec(32, 16, false);
    spec.fw.iter_mut().for_each(|w| *w = 0);
    spec.fb.iter_mut().for_each(|b| *b = 0);
    for f in 0..32 {
        spec.fw[f * 16] = 1000;
    }
    spec.fb[0] = i16::MAX - 32_000;
    let net = Network::from_bytes(&encode(&spec)).expect("a net at the edge of the range loads");
    assert_eq!(net.accumulator_range().1, i16::MAX as i64);
    let mut params = net.params();
    params.feature_biases[0] += 1;
    assert_eq!(
        Network::from_params(params).unwrap_err(),
        NetError::AccumulatorOverflow { lo: 0, hi: i16::MAX as i64 + 1 }
    );
}

#[test]
fn king_buckets_incremental_accumulators_equal_refreshed_ones() {
    // Random games move the kings across buckets and across the mirror line often.
    for (seed, hidden, n, mirror) in [(31, 32, 4, true), (32, 16, 7, false), (33, 48, 16, true)] {
        let net = net_of(&random_bucket_spec(seed, hidden, n, mirror));
        assert_eq!(net.king_buckets().map(|kb| (kb.count(), kb.mirror)), Some((n, mirror)));
        let mut seen = Seen::default();
        random_walk(&net, &start_fens(), 120, seed * 11, &mut seen);
        assert!(seen.castles > 20 && seen.castles_960 > 10 && seen.pops > 100, "{seen:?}");
        let mut seen = Seen::default();
        for fen in [KIWIPETE, SPECIAL, SPECIAL_BLACK] {
            let mut board = Board::from_fen(fen).unwrap();
            let mut stack = AccumulatorStack::new(&net, &board);
            tree_walk(&net, &mut board, &mut stack, 2, &mut seen);
        }
        assert!(seen.castles > 10, "{seen:?}");
    }
}

#[test]
fn king_buckets_evaluate_as_the_independent_reference() {
    let mut rng = Rng(34);
    for (seed, hidden, n, mirror) in [(35, 16, 4, true), (36, 64, 8, false), (37, 32, 2, true)] {
        let spec = random_bucket_spec(seed, hidden, n, mirror);
        let net = net_of(&spec);
        let (mut checked, mut buckets_seen) = (0, std::collections::HashSet::new());
        for (fen, is960) in start_fens() {
            let mut board = Board::from_fen_with(&fen, is960).unwrap();
            let mut stack = AccumulatorStack::new(&net, &board);
            for _ in 0..60 {
                assert_evaluates_as_reference(&spec, &net, &mut stack, &board);
                for p in [WHITE, BLACK] {
                    let r: Vec<i16> = reference_acc(&spec, &board, p).iter().map(|&a| a as i16).collect();
                    assert_eq!(stack.current(&net).values(p), r, "perspective {p} in {}", board.fen());
                }
                let king = board.king_square(WHITE);
                buckets_seen.insert(spec.buckets.unwrap().0[kibitz::sq64(king)]);
                checked += 1;
                // King moves more often than their share, to cross buckets.
                let king = board.king_square(board.side_to_move());
                let Some(m) = biased_move(&mut rng, &board, |m| m.from() == king) else { break };
                board.make_move(m);
                stack.push_made(&net, &board);
            }
        }
        assert!(checked > 800 && buckets_seen.len() == n, "{checked} positions, buckets {buckets_seen:?} of {n}");
    }
}

#[test]
fn king_buckets_round_trip_and_bad_maps() {
    let spec = random_bucket_spec(38, 32, 4, true);
    let bytes = encode(&spec);
    assert_eq!(bytes.len(), 32 + 4 + 64 + 2 * (4 * 768 * 32 + 3 * 32) + 4 + 8);
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!(net.to_bytes(), bytes);
    assert_eq!(Network::from_params(net.params()).unwrap().to_bytes(), bytes);
    let kb = net.king_buckets().unwrap();
    assert_eq!((kb.map, kb.mirror), spec.buckets.unwrap());

    // A map that names a fifth bucket in a four-bucket net (checksum made good again).
    let fix = |mut b: Vec<u8>| {
        let end = b.len() - 8;
        let sum = fnv(&b[..end]);
        b[end..].copy_from_slice(&sum.to_le_bytes());
        b
    };
    let mut five = bytes.clone();
    five[36 + 10] = 4;
    let err = Network::from_bytes(&fix(five)).unwrap_err();
    assert!(matches!(err, NetError::BadKingBuckets(_)) && err.to_string().contains("5 buckets"), "{err}");
    let mut flags = bytes.clone();
    flags[32] = 2;
    let err = Network::from_bytes(&fix(flags)).unwrap_err();
    assert!(err.to_string().contains("flags"), "{err}");
    // Inputs must be 768 per bucket, at most 32 buckets.
    for inputs in [769, 768 * 33, 0] {
        assert_eq!(Network::from_bytes(&with_field(&bytes, 12, inputs)).unwrap_err(), NetError::BadInputs(inputs));
    }
    // The version-1 net with the same weights as one bucket is the same net.
    let mut one = random_spec(39, 16, false);
    let plain = net_of(&one);
    one.buckets = Some(([0; 64], false));
    let bucketed = net_of(&one);
    let board = Board::from_fen(KIWIPETE).unwrap();
    assert_eq!(
        Accumulator::from_board(&plain, &board).values(BLACK),
        Accumulator::from_board(&bucketed, &board).values(BLACK)
    );
}

#[test]
fn king_buckets_general_update_refuses_a_change_of_view() {
    // Bucket by the own king's rank: 0 on the first rank, 1 above it.
    let mut spec = random_bucket_spec(40, 16, 2, false);
    let mut map = [1u8; 64];
    map[..8].fill(0);
    spec.buckets = Some((map, false));
    let net = net_of(&spec);
    let sq = |s: &str| kibitz::parse_square(s).unwrap();
    let before = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    let king = before.piece_at(sq("e1"));
    // Ke1-f1 stays in bucket 0: added row by row.
    let mut acc = Accumulator::from_board(&net, &before);
    assert!(acc.update(&net, &[(king, sq("f1"))], &[(king, sq("e1"))]));
    let mut after = before.clone();
    after.push_uci("e1f1").unwrap();
    assert_eq!(acc, Accumulator::from_board(&net, &after));
    // Ke1-e2 enters bucket 1: refused, the accumulator unchanged.
    let mut acc = Accumulator::from_board(&net, &before);
    assert!(!acc.update(&net, &[(king, sq("e2"))], &[(king, sq("e1"))]));
    assert_eq!(acc, Accumulator::from_board(&net, &before));
}

/// Endgames reached from these by random play visit the low piece counts (the first output buckets).
const ENDGAMES: [&str; 4] = [
    "8/2k5/3p4/p2P1p2/P2P1P2/8/3K4/8 w - - 0 1",
    "4k3/8/8/3n4/8/2B5/8/4K2R w K - 0 1",
    "r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1",
    "8/8/3k4/8/8/4K3/4P3/8 w - - 0 1",
];

#[test]
fn output_buckets_evaluate_as_the_independent_reference() {
    let mut rng = Rng(41);
    for (seed, hidden, outputs, kings) in [(42, 16, 8, 0), (43, 32, 4, 4), (44, 16, 32, 0), (45, 48, 2, 0)] {
        let base =
            if kings > 0 { random_bucket_spec(seed, hidden, kings, true) } else { random_spec(seed, hidden, false) };
        let spec = with_outputs(base, outputs, seed);
        let net = net_of(&spec);
        assert_eq!(net.output_buckets(), outputs);
        assert_eq!(net.king_buckets().is_some(), kings > 0);
        let mut fens = start_fens();
        fens.extend(ENDGAMES.iter().map(|f| (f.to_string(), false)));
        let (mut checked, mut seen) = (0, std::collections::HashSet::new());
        for (fen, is960) in fens {
            let mut board = Board::from_fen_with(&fen, is960).unwrap();
            let mut stack = AccumulatorStack::new(&net, &board);
            for _ in 0..150 {
                assert_evaluates_as_reference(&spec, &net, &mut stack, &board);
                let pieces = stack.current(&net).pieces();
                assert_eq!(pieces, Accumulator::from_board(&net, &board).pieces(), "{}", board.fen());
                seen.insert(net.output_bucket(pieces));
                checked += 1;
                // Captures more often than their share, so that the games thin out.
                let capture = |m: Move| board.piece_at(m.to()) != EMPTY || m.is_en_passant();
                let Some(m) = biased_move(&mut rng, &board, capture) else { break };
                board.make_move(m);
                stack.push_made(&net, &board);
            }
        }
        assert!(checked > 1000 && seen.len() >= outputs.min(6), "{checked} positions, buckets {seen:?} of {outputs}");
    }
}

#[test]
fn output_buckets_round_trip_and_bad_counts() {
    let spec = with_outputs(random_spec(46, 32, false), 8, 46);
    let bytes = encode(&spec);
    assert_eq!(bytes.len(), 32 + 4 + 64 + 4 + 2 * (768 * 32 + 32) + 8 * (2 * 2 * 32 + 4) + 8);
    let net = Network::from_bytes(&bytes).unwrap();
    assert_eq!(net.to_bytes(), bytes);
    assert_eq!(Network::from_params(net.params()).unwrap().to_bytes(), bytes);
    assert!(net.king_buckets().is_none());
    // With king buckets too.
    let both = with_outputs(random_bucket_spec(47, 16, 4, true), 4, 47);
    let b = encode(&both);
    assert_eq!(Network::from_bytes(&b).unwrap().to_bytes(), b);
    // The count field (after the flags and the map) must be 2..=32 in a version-3 file.
    for bad in [0u32, 1, 33, u32::MAX] {
        let err = Network::from_bytes(&with_field(&bytes, 100, bad)).unwrap_err();
        assert_eq!(err, NetError::BadOutputBuckets(bad));
        assert!(err.to_string().contains("output bucket"), "{err}");
    }
    // A header cut before the count is a short file.
    assert_eq!(Network::size_from_header(&bytes[..102]).unwrap_err(), NetError::Truncated { expected: 104, got: 102 });
    // from_params: no bias, or output weights that do not fit the bias count.
    let mut p = net.params();
    p.output_biases.clear();
    assert_eq!(Network::from_params(p).unwrap_err(), NetError::BadOutputBuckets(0));
    let mut p = net.params();
    p.output_biases.pop();
    assert_eq!(
        Network::from_params(p).unwrap_err(),
        NetError::BadLength { what: "output weights", expected: 7 * 64, got: 8 * 64 }
    );
    // One bucket's weights copied into every bucket: the same evaluations as the single output.
    let single = random_spec(48, 16, false);
    let mut eight = single.clone();
    eight.ow = single.ow.repeat(8);
    eight.ob = vec![single.ob[0]; 8];
    let (a, b) = (net_of(&single), net_of(&eight));
    for fen in [KIWIPETE, ENDGAMES[0], ENDGAMES[3]] {
        let board = Board::from_fen(fen).unwrap();
        let stm = board.side_to_move();
        assert_eq!(
            a.evaluate(&Accumulator::from_board(&a, &board), stm),
            b.evaluate(&Accumulator::from_board(&b, &board), stm)
        );
    }
}
