//! Search tests: mates found at the right distance (positions whose mate length Stockfish
//! confirms, and known composed problems), draws by rule scored 0, limits honoured exactly,
//! MultiPV, stop from another thread, and a legal move from every perft-suite position.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kibitz::{mate_in, Board, Engine, Info, Limits, Move, MoveList, SearchOutcome};

fn search(fen: &str, limits: Limits) -> (Board, SearchOutcome) {
    search_with(fen, limits, kibitz::Features::default())
}

/// `search` with the search features `features`.
fn search_with(fen: &str, limits: Limits, features: kibitz::Features) -> (Board, SearchOutcome) {
    let board = Board::from_fen(fen).unwrap();
    let mut engine = Engine::new(16);
    engine.features = features;
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

/// (FEN, mate in N moves for the side to move; negative: it is mated), read from
/// tests/data/mates.txt, which tests/python/test_engine.py reads too (its header says where
/// the distances come from).
fn mates() -> Vec<(&'static str, i32)> {
    let mates: Vec<(&str, i32)> = include_str!("data/mates.txt")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (fen, n) =
                line.rsplit_once(" mate ").unwrap_or_else(|| panic!("mates.txt: expected 'FEN mate N', got {line:?}"));
            assert_eq!(fen.split_whitespace().count(), 6, "mates.txt: not a six-field FEN in {line:?}");
            (fen, n.parse().unwrap_or_else(|e| panic!("mates.txt: bad N in {line:?}: {e}")))
        })
        .collect();
    assert!(!mates.is_empty(), "mates.txt holds no positions");
    mates
}

#[test]
fn mates_found_at_the_right_distance() {
    for (fen, n) in mates() {
        // Two plies beyond the mate's length plus margin: the selective search (late-move
        // pruning, futility) can miss the shortest mate at exactly its depth and first see a
        // longer one; two-rook mate in 4 needs depth 14 (13 before continuation history).
        let d = (2 * n.unsigned_abs() + 6).max(4);
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
    let lim = Limits {
        soft: Some(Duration::from_secs(5)),
        hard: Some(Duration::from_secs(10)),
        multipv: 1,
        ..Default::default()
    };
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
    let (board, out) =
        search("7k/8/6K1/8/8/8/8/R7 b - - 0 1", Limits { depth: Some(3), multipv: 5, ..Default::default() });
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

/// The search features still off by default (candidates under test).
const OFF_BY_DEFAULT: [&str; 4] = ["cont", "corr", "cutnode", "caphist"];

#[test]
fn search_features_are_switched_by_name_and_unknown_names_are_errors() {
    let defaults = kibitz::Features::default();
    assert_eq!(kibitz::Features::from_lists("", ""), Ok(defaults));
    let f = kibitz::Features::from_lists("se, cont", "nmp,lmr").unwrap();
    assert!(f.singular && f.cont && !f.null_move && !f.lmr && f.aspiration);
    for name in kibitz::Features::NAMES {
        let mut g = defaults;
        let was = g.get(name).unwrap();
        g.set(name, !was).unwrap();
        assert_eq!(g.get(name), Some(!was), "{name}");
        assert_ne!(g, defaults, "{name} switches nothing");
    }
    let err = kibitz::Features::from_lists("", "nmp,bogus").unwrap_err();
    assert!(err.to_string().contains("\"bogus\"") && err.to_string().contains("nmp"), "{err}");
    assert_eq!(defaults.get("bogus"), None);
    // A switched feature changes the search: null move off at a fixed depth searches
    // another tree.
    let board = Board::from_fen("r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9").unwrap();
    let stop = AtomicBool::new(false);
    let nodes = |features: kibitz::Features| {
        let mut e = Engine::new(16);
        e.features = features;
        e.search(&board, &depth(12), &stop, &mut |_: &Info| true).nodes
    };
    assert_ne!(nodes(defaults), nodes(kibitz::Features::from_lists("", "nmp").unwrap()));
    // Each feature still off by default is wired: switched on, it searches another tree.
    for name in OFF_BY_DEFAULT {
        assert!(!defaults.get(name).unwrap(), "{name} is on by default");
        let on = kibitz::Features::from_lists(name, "").unwrap();
        assert_ne!(nodes(defaults), nodes(on), "{name} on searches the same tree");
    }
}

#[test]
fn features_off_by_default_still_find_every_mate_at_its_distance() {
    // The candidates under test change reductions, extensions, ordering and the static eval:
    // none of them may cost a mate its length. Two plies more than the default search's test
    // gets (correction history alone first sees the two-rook mate in 4 at depth 16, not 14).
    let mut missed = vec![];
    for name in OFF_BY_DEFAULT {
        let on = kibitz::Features::from_lists(name, "").unwrap();
        for (fen, n) in mates() {
            let d = (2 * n.unsigned_abs() + 6).max(4) + 2;
            let (board, out) = search_with(fen, depth(d), on);
            if mate_in(out.lines[0].score) != Some(n) {
                missed.push((name, fen, n, out.lines[0].score));
            }
            assert!(legal(&board).contains(out.best.unwrap()), "{name}: {fen}");
        }
    }
    assert!(missed.is_empty(), "mates missed or misjudged (feature, FEN, N, score): {missed:?}");
}
