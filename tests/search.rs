//! Search tests: mates found at the right distance (positions whose mate length Stockfish 
//! confirms, and known composed problems), draws by rule scored 0, limits honoured exactly,
//! MultiPV, stop from another thread, and a legal move from every perft-suite position.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kibitz::{mate_in, Board, Engine, Info, Limits, Move, MoveList, SearchOutcome};

fn search(fen: &str, limits: Limits) -> (Board, SearchOutcome) {
    let board = Board::from_fen(fen).unwrap();
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let out = engine.search(&board, &limits, &stop, &mut |_: &Info| true);
    (board, out)
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), multipv: 1, ..Default::default() }
}

fn legal(board: &Board) -> MoveList {
    let mut ml = MoveList::new();
    board.generate_legal(&mut ml);
    ml
}

/// (FEN, mate in N moves for the side to move; negative: it is mated). Distances confirmed
/// by Stockfish (depth 22-24); the composed ones are known problems.
const MATES: [(&str, i32); 10] = [
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
    ("4r1k1/pp3ppp/8/3Q4/8/8/PP3PPP/4R1K1 w - - 0 1", 1),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
    ("1k5r/pP3ppp/3p2b1/1BN1n3/1Q2P3/P1B5/KP3P1P/7q w - - 1 1", 3),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3),
    ("8/8/8/8/8/3k4/8/3K1R1R w - - 0 1", 4),
    ("k7/8/1K6/8/8/8/8/7Q b - - 0 1", -1),
    ("3k4/8/3K4/8/8/8/8/6R1 b - - 0 1", -2),
];

#[test]
fn mates_found_at_the_right_distance() {
    for (fen, n) in MATES {
        let d = (2 * n.unsigned_abs() + 3).max(4);
        let (board, out) = search(fen, depth(d));
        let line = &out.lines[0];
        assert_eq!(mate_in(line.score), Some(n), "{fen}: score {} pv {:?}", line.score, line.pv);
        assert!(legal(&board).contains(out.best.unwrap()));
        if n > 0 {
            // Playing the PV out mates in exactly n moves.
            let mut b = board.clone();
            assert_eq!(line.pv.len() as i32, 2 * n - 1, "{fen}: pv {:?}", line.pv);
            for &m in &line.pv {
                assert!(legal(&b).contains(m), "{fen}: illegal {m:?} in pv {:?}", line.pv);
                b.make_move(m);
            }
            assert!(b.in_check() && legal(&b).is_empty(), "{fen}: pv {:?} does not mate", line.pv);
        }
    }
}

#[test]
fn shortest_mate_preferred_with_deep_search() {
    // KRR v K: mate in 4 is the shortest; a deeper search must not drift to a longer one.
    let (_, out) = search("8/8/8/8/8/3k4/8/3K1R1R w - - 0 1", depth(14));
    assert_eq!(mate_in(out.lines[0].score), Some(4));
}

#[test]
fn draws_by_rule_score_zero() {
    for (fen, d, why) in [
        // Black's rook forces stalemate or a dead position.
        ("k7/8/1QK5/8/8/8/8/7r b - - 0 1", 8, "stalemate / desperado rook"),
        // Queen up but the next move reaches 100 half-moves and no move mates.
        ("8/8/8/4k3/8/8/8/4K2Q w - - 99 120", 6, "fifty-move rule"),
        // K+B v K: nothing to play for.
        ("8/8/4k3/8/8/3K4/5B2/8 w - - 0 1", 6, "insufficient material"),
    ] {
        let (_, out) = search(fen, depth(d));
        assert_eq!(out.lines[0].score, 0, "{why}: {fen} pv {:?}", out.lines[0].pv);
    }
}

#[test]
fn repetition_counts_game_history() {
    // After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, Ng8 brings the start position about for the third
    // time: searched alone, that move must score exactly 0 (two occurrences are before the root).
    let mut b = Board::startpos();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        b.push_uci(m).unwrap();
    }
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let ng8 = b.parse_uci("f6g8").unwrap();
    let lim = Limits { depth: Some(4), multipv: 1, searchmoves: vec![ng8], ..Default::default() };
    let out = engine.search(&b, &lim, &stop, &mut |_: &Info| true);
    assert_eq!(out.lines[0].score, 0);
}

#[test]
fn no_legal_move() {
    let (_, out) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth(3));
    assert!(out.best.is_none() && out.stalemate && !out.checkmate);
    let (_, out) = search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth(3));
    assert!(out.best.is_none() && out.checkmate && !out.stalemate);
}

#[test]
fn only_move_is_played_at_once() {
    // Black has one legal move (Kg8); with a clock running the search returns at once.
    let fen = "7k/8/6K1/8/8/8/8/R7 b - - 0 1";
    let board = Board::from_fen(fen).unwrap();
    assert_eq!(legal(&board).len(), 1);
    let lim = Limits { soft: Some(Duration::from_secs(5)), hard: Some(Duration::from_secs(10)), multipv: 1, ..Default::default() };
    let t = Instant::now();
    let (_, out) = search(fen, lim);
    assert!(t.elapsed() < Duration::from_millis(500));
    assert_eq!(out.best, Some(legal(&board)[0]));
}

#[test]
fn depth_and_node_limits_are_exact() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for d in [1, 2, 5, 7] {
        let (_, out) = search(kiwipete, depth(d));
        assert_eq!(out.depth, d);
        assert_eq!(out.lines[0].depth, d);
    }
    for n in [1u64, 10, 1000, 12345, 100_000] {
        let (board, out) = search(kiwipete, Limits { nodes: Some(n), multipv: 1, ..Default::default() });
        assert!(out.nodes <= n, "{} > {n}", out.nodes);
        assert!(legal(&board).contains(out.best.unwrap()));
        if n >= 1000 {
            // The search was cut by the limit, not finished early.
            assert_eq!(out.nodes, n);
        }
    }
}

#[test]
fn multipv_distinct_legal_ordered() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let (board, out) = search(fen, Limits { depth: Some(6), multipv: 4, ..Default::default() });
    assert_eq!(out.lines.len(), 4);
    let moves: Vec<Move> = out.lines.iter().map(|l| l.pv[0]).collect();
    for (i, l) in out.lines.iter().enumerate() {
        assert_eq!(l.multipv, i + 1);
        assert!(legal(&board).contains(l.pv[0]));
        assert!(!moves[..i].contains(&l.pv[0]), "duplicate {:?}", l.pv[0]);
        if i > 0 {
            assert!(out.lines[i - 1].score >= l.score, "{:?}", out.lines);
        }
    }
    assert_eq!(out.best, Some(moves[0]));
    // More lines than moves: one line per legal move.
    let (board, out) = search("7k/8/6K1/8/8/8/8/R7 b - - 0 1", Limits { depth: Some(3), multipv: 5, ..Default::default() });
    assert_eq!(out.lines.len(), legal(&board).len());
}

#[test]
fn searchmoves_restricts_root() {
    let board = Board::startpos();
    let a3 = board.parse_uci("a2a3").unwrap();
    let h3 = board.parse_uci("h2h3").unwrap();
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let lim = Limits { depth: Some(5), multipv: 1, searchmoves: vec![a3, h3], ..Default::default() };
    let out = engine.search(&board, &lim, &stop, &mut |_: &Info| true);
    assert!(out.best == Some(a3) || out.best == Some(h3));
}

#[test]
fn stop_from_another_thread_is_prompt() {
    let board = Board::from_fen("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9").unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let s2 = Arc::clone(&stop);
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        s2.store(true, Ordering::SeqCst);
        Instant::now()
    });
    let mut engine = Engine::new(16);
    let out = engine.search(&board, &Limits { multipv: 1, ..Default::default() }, &stop, &mut |_: &Info| true);
    let returned = Instant::now();
    let stopped_at = setter.join().unwrap();
    let lag = returned.duration_since(stopped_at);
    assert!(lag < Duration::from_millis(50), "took {lag:?} to stop");
    assert!(legal(&board).contains(out.best.unwrap()));
}

#[test]
fn hard_time_limit_is_kept() {
    let board = Board::from_fen("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9").unwrap();
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(16);
    let t = Instant::now();
    let lim = Limits { hard: Some(Duration::from_millis(150)), multipv: 1, ..Default::default() };
    let out = engine.search(&board, &lim, &stop, &mut |_: &Info| true);
    let took = t.elapsed();
    // The lower bound is exact; the upper one is generous because the test machines are
    // shared (a hung search would take forever, not 1 s).
    assert!(took >= Duration::from_millis(150) && took < Duration::from_secs(1), "{took:?}");
    assert!(out.best.is_some());
}

#[test]
fn every_perftsuite_position_gets_a_legal_move() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perftsuite.epd")).unwrap();
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let board = Board::from_fen(fen).unwrap();
        let out = engine.search(&board, &depth(4), &stop, &mut |_: &Info| true);
        let moves = legal(&board);
        match out.best {
            Some(m) => assert!(moves.contains(m), "{fen}: {m:?}"),
            None => assert!(moves.is_empty(), "{fen}: no move returned"),
        }
        // The PV is a legal line.
        let mut b = board.clone();
        for &m in &out.lines.first().map(|l| l.pv.clone()).unwrap_or_default() {
            assert!(legal(&b).contains(m), "{fen}: pv");
            b.make_move(m);
        }
    }
}
