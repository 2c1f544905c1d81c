//! Perft of the standard test positions against the published counts
//! (<https://www.chessprogramming.org/Perft_Results>), plus the invariant checker and exact
//! restoration walked over every node of shallower trees. Run optimised, `cargo test
//! --profile quick` (as scripts/test does) or `--release`: the deep counts total about
//! 3.6 * 10^8 nodes.

use kibitz::{divide, perft, perft_full, Board};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS4_MIRRORED: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// (FEN, counts from depth 1 upwards) as published.
const CASES: [(&str, &[u64]); 7] = [
    (STARTPOS, &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324]),
    (KIWIPETE, &[48, 2_039, 97_862, 4_085_603, 193_690_690]),
    (POS3, &[14, 191, 2_812, 43_238, 674_624, 11_030_083]),
    (POS4, &[6, 264, 9_467, 422_333, 15_833_292]),
    (POS4_MIRRORED, &[6, 264, 9_467, 422_333, 15_833_292]),
    (POS5, &[44, 1_486, 62_379, 2_103_487]),
    (POS6, &[46, 2_079, 89_890, 3_894_594]),
];

#[test]
fn published_perft_counts() {
    let mut total = 0;
    for (fen, counts) in CASES {
        let mut board = Board::from_fen(fen).unwrap();
        for (i, &expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            if cfg!(debug_assertions) && expected > 5_000_000 {
                continue; // debug builds check every invariant at every node: keep them quick
            }
            assert_eq!(perft(&mut board, depth), expected, "perft({depth}) of {fen}");
            total += expected;
        }
        assert_eq!(board.fen(), Board::from_fen(fen).unwrap().fen(), "perft left {fen} changed");
    }
    assert!(cfg!(debug_assertions) || total > 100_000_000, "the deep counts must total at least 10^8 nodes");
}

#[test]
fn full_make_perft_matches_bulk_counting() {
    for (fen, counts) in CASES {
        let mut board = Board::from_fen(fen).unwrap();
        let depth = 3.min(counts.len());
        assert_eq!(perft_full(&mut board, depth as u32), counts[depth - 1], "{fen}");
    }
}

#[test]
fn divide_sums_to_perft() {
    for (fen, counts) in CASES {
        let mut board = Board::from_fen(fen).unwrap();
        let parts = divide(&mut board, 3);
        assert_eq!(parts.len() as u64, counts[0]);
        assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), counts[2], "{fen}");
    }
}

/// Walks every node to `depth`, checking the invariants after each make and that each
/// unmake restores the position exactly (mailbox, lists, rights, clocks, key, history), that
/// counting the legal moves agrees with listing them, and that `gives_check` foretells
/// `in_check` after the move.
fn walk(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let before = board.clone();
    let mut nodes = 0;
    let moves: Vec<_> = {
        let mut ml = kibitz::MoveList::new();
        board.generate_legal(&mut ml);
        ml.iter().copied().collect()
    };
    // perft's leaf counter (bitboards, no list) against the listing generator (mailbox).
    assert_eq!(board.count_legal(), moves.len(), "count_legal of {}", before.fen());
    for m in moves {
        let check = board.gives_check(m);
        board.make_move(m);
        assert!(board.is_ok(), "invariant broken after {m:?} from {}", before.fen());
        assert_eq!(board.in_check(), check, "gives_check of {m:?} from {}", before.fen());
        assert!(
            !board.is_attacked(board.king_square(board.side_to_move() ^ 1), board.side_to_move()),
            "{m:?} from {} leaves the king in check",
            before.fen()
        );
        nodes += walk(board, depth - 1);
        assert_eq!(board.unmake_move(), Some(m));
        assert!(board.is_ok());
        assert!(board.same_state(&before), "unmake of {m:?} did not restore {}", before.fen());
    }
    nodes
}

#[test]
fn invariants_hold_and_unmake_restores_exactly() {
    for (fen, counts) in CASES {
        let mut board = Board::from_fen(fen).unwrap();
        assert_eq!(walk(&mut board, 3), counts[2], "{fen}");
    }
}

/// `gives_check` against making the move and asking `in_check` (and `gives_check_with`, the
/// search's form, against `gives_check`), over every node to depth 3
/// of each position of the perft suite and of 60 Chess960 positions (castling with the rook
/// giving check, en passant uncovering a check, promotions, pins and discovered checks).
/// Counts the moves that gave check and those that did not into `counts[1]` / `counts[0]`,
/// so that the test fails if the positions lose them.
fn check_walk(board: &mut Board, depth: u32, counts: &mut [usize; 2]) {
    let mut ml = kibitz::MoveList::new();
    board.generate_legal(&mut ml);
    for &m in ml.iter() {
        let check = board.gives_check(m);
        let ci = board.check_info();
        assert_eq!(board.gives_check_with(&ci, m), check, "gives_check_with of {m:?} in {}", board.fen());
        board.make_move(m);
        if board.in_check() != check {
            board.unmake_move();
            panic!("gives_check of {m:?} says {check} in {}", board.fen());
        }
        counts[check as usize] += 1;
        if depth > 1 {
            check_walk(board, depth - 1, counts);
        }
        board.unmake_move();
    }
}

/// The positions of the perft suite (tests/data/perftsuite.epd) and the first 60 of
/// tests/data/chess960.perft.
fn suite_and_chess960() -> Vec<Board> {
    let suite = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perftsuite.epd")).unwrap();
    let c960 = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/chess960.perft")).unwrap();
    let mut boards: Vec<Board> = suite
        .lines()
        .filter_map(|l| l.split(';').next())
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
    boards.extend(
        c960.lines()
            .filter_map(|l| l.strip_prefix("epd "))
            .take(60)
            .map(|f| Board::from_fen_with(f.trim(), true).unwrap()),
    );
    assert!(boards.len() > 180, "{} positions", boards.len());
    boards
}

#[test]
fn gives_check_agrees_with_making_the_move() {
    let mut counts = [0usize; 2];
    for mut board in suite_and_chess960() {
        check_walk(&mut board, 3, &mut counts);
    }
    assert!(counts[1] > 10_000, "only {} checking moves among {}", counts[1], counts[0] + counts[1]);
}

/// `is_legal_quick` (the search's check of its table move) against `is_legal` (generate and
/// look up), for moves taken from other positions: every move seen in the perft suite's and
/// 60 Chess960 positions and their children, plus copies with their flags and promotion
/// piece altered, tried in each of those positions whenever our piece stands on its origin.
#[test]
fn is_legal_quick_agrees_with_generating() {
    use kibitz::{color_of, Move, EMPTY, OFFBOARD};
    let roots = suite_and_chess960();
    let mut positions = Vec::new();
    let mut pool = std::collections::BTreeSet::new();
    for root in roots {
        let mut ml = kibitz::MoveList::new();
        root.generate_legal(&mut ml);
        for &m in ml.iter() {
            let mut child = root.clone();
            child.make_move(m);
            let mut replies = kibitz::MoveList::new();
            child.generate_legal(&mut replies);
            pool.extend(replies.iter().map(|r| r.0));
            positions.push(child);
        }
        pool.extend(ml.iter().map(|m| m.0));
        positions.push(root);
    }
    // Altered copies: each flag toggled, the promotion piece changed or added.
    let originals: Vec<u32> = pool.iter().copied().collect();
    for raw in originals {
        for flip in [Move::DOUBLE_PUSH, Move::EN_PASSANT, Move::CASTLE, 1 << 16, 2 << 16, 4 << 16, 1 << 19, 1 << 23] {
            pool.insert(raw ^ flip);
        }
    }
    let pool: Vec<Move> = pool.into_iter().map(Move).collect();
    let (mut tried, mut legal) = (0usize, 0usize);
    for (i, board) in positions.iter().enumerate() {
        let us = board.side_to_move();
        // Every tenth position tries the whole pool; the others the moves from our pieces.
        for &m in &pool {
            let from = m.from();
            let ours = (21..=98).contains(&from)
                && ![EMPTY, OFFBOARD].contains(&board.piece_at(from))
                && color_of(board.piece_at(from)) == us;
            if !ours && i % 10 != 0 {
                continue;
            }
            let expected = board.is_legal(m);
            assert_eq!(board.is_legal_quick(m), expected, "{m:?} ({:#x}) in {}", m.0, board.fen());
            tried += 1;
            legal += expected as usize;
        }
    }
    assert!(legal > 50_000 && tried > 20 * legal, "{legal} legal of {tried}");
}
