//! The table-driven variant generator on orthodox chess, against the published
//! counts of the perft suite and against kibitz's fast generator, and its definition
//! errors. Variants other than chess are checked against Fairy-Stockfish in
//! tests/python/test_variant.py.

use kibitz::{perft, variant_divide_until, variant_perft, Board, Compiled, VBoard, VariantSet};
use std::sync::Arc;

fn builtins() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("python/kibitz/variant/data");
    let mut docs = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "ini") {
            docs.push((p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()));
        }
    }
    docs
}

fn chess() -> Arc<Compiled> {
    Arc::new(Compiled::new(VariantSet::parse(&builtins()).unwrap().build("chess").unwrap()))
}

/// Every position of tests/data/perftsuite.epd (published counts, Marcel van Kervinck's
/// suite as on chessprogramming.org) to depth 3, and to depth 4 where that is under
/// 200,000 nodes: the generic generator must give the published count, the fast one's
/// count, and leave the position unchanged.
#[test]
fn orthodox_perft_suite_matches_published_and_fast_generator() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perftsuite.epd")).unwrap();
    let c = chess();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap().trim();
        let mut generic = VBoard::from_fen_compiled(c.clone(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut fast = Board::from_fen(fen).unwrap();
        for part in parts {
            let (d, n) = part.trim().split_once(' ').unwrap();
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let published: u64 = n.parse().unwrap();
            if depth > 4 || (depth == 4 && published > 200_000) {
                continue;
            }
            assert_eq!(variant_perft(&mut generic, depth), published, "generic perft({depth}) of {fen}");
            assert_eq!(perft(&mut fast, depth), published, "fast perft({depth}) of {fen}");
            checked += 1;
        }
        assert_eq!(generic.fen(), VBoard::from_fen_compiled(c.clone(), fen).unwrap().fen(), "perft changed {fen}");
    }
    assert!(checked >= 3 * 126, "only {checked} counts checked");
}

/// FENs of chess positions read and written back unchanged (the fast board's FEN as
/// reference), with en passant kept only where a capture is possible (both generators'
/// and Fairy-Stockfish's convention).
#[test]
fn fen_round_trip_agrees_with_fast_board() {
    let c = chess();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let b = VBoard::from_fen_compiled(c.clone(), fen).unwrap();
        assert_eq!(b.fen(), Board::from_fen(fen).unwrap().fen());
    }
}

/// Each bad definition is refused with a message naming the line and the problem.
#[test]
fn bad_definitions_name_the_line() {
    let cases: [(&str, usize, &str); 12] = [
        ("[v]\npawn = p\nking = k\nfoo = 1\n", 4, "unknown or unsupported rule \"foo\""),
        ("[v]\nking = k\ncustomPiece1 = a:BX\n", 3, "unknown atom 'X'"),
        ("[v]\nking = k\ncustomPiece1 = a\n", 3, "must be 'letter:Betza'"),
        ("[v]\nking = k\nqueen = k\n", 3, "letter 'k' is already used by king (line 2)"),
        ("[v]\nking = k\nmaxFile = 13\n", 3, "maxFile must be 1-12"),
        ("[v]\nking = k\nmaxRank = 11\n", 3, "maxRank must be a whole number from 1 to 10"),
        ("[v]\nking = k\ncastling = yes\n", 3, "castling must be true or false"),
        ("[v]\nking = k\nrook = r\npromotionPieceTypes = rx\n", 4, "'x' is not the letter of a piece"),
        ("[v]\nking = k\nstartFen = 8/8/8/8/8/8/8/8 w - - 0 1\n", 3, "startFen: White has 0 royal pieces"),
        ("[v:nosuch]\nking = k\n", 1, "parent variant \"nosuch\" is not defined"),
        ("king = k\n", 1, "a rule before the first [section]"),
        ("[v]\nking = k\nthis line has no equals sign\n", 3, "expected 'key = value'"),
    ];
    for (text, line, message) in cases {
        let mut docs = builtins();
        docs.push(("user.ini".to_string(), text.to_string()));
        let err = VariantSet::parse(&docs).and_then(|s| s.build("v")).expect_err(text);
        assert_eq!((err.source.as_str(), err.line), ("user.ini", line), "{text}: {err}");
        assert!(err.to_string().contains(message), "{text}: {err}");
    }
}

/// Castling files that would put the rook off the board are refused, naming the line of the
/// key (or of maxFile when the default files do not fit), and castling = false allows them.
#[test]
fn castling_that_would_put_the_rook_off_the_board_is_refused_naming_the_line() {
    let cases: [(&str, usize, &str); 4] = [
        ("[v:chess]\ncastlingKingsideFile = a\n", 2, "castlingKingsideFile a: castling kingside"),
        ("[v:chess]\ncastlingQueensideFile = h\n", 2, "castlingQueensideFile h: castling queenside"),
        // On a 3-file board the default queenside file (c) leaves no room for the rook.
        ("[v]\nking = k\nrook = r\nmaxFile = 3\nstartFen = k2/3/3/3/3/3/3/K2 w - - 0 1\n", 4, "off the 3-file board"),
        ("[v:chess]\nmaxRank = 6\ncastlingRank = 7\nstartFen = k7/8/8/8/8/K7 w - - 0 1\n", 3, "castlingRank 7"),
    ];
    for (text, line, message) in cases {
        let mut docs = builtins();
        docs.push(("user.ini".to_string(), text.to_string()));
        let err = VariantSet::parse(&docs).and_then(|s| s.build("v")).expect_err(text);
        assert_eq!((err.source.as_str(), err.line), ("user.ini", line), "{text}: {err}");
        assert!(err.to_string().contains(message), "{text}: {err}");
        let off = format!("{text}castling = false\n");
        let mut docs = builtins();
        docs.push(("user.ini".to_string(), off.clone()));
        VariantSet::parse(&docs).and_then(|s| s.build("v")).unwrap_or_else(|e| panic!("{off}: {e}"));
    }
    // The edge that fits: kingside castling to b1 puts the rook on a1.
    let mut docs = builtins();
    docs.push(("user.ini".to_string(), "[v:chess]\ncastlingKingsideFile = b\n".to_string()));
    VariantSet::parse(&docs).unwrap().build("v").unwrap();
}

/// Where castling's king move would read as another move of the king (a king on b1 with
/// its rook on a1 castles queenside to c1, and also steps to c1), castling is written as the
/// king taking its rook: every legal move has its own text, each text plays its own move, and
/// divide sums to perft.
#[test]
fn castling_whose_king_move_collides_gets_its_own_text_and_divide_sums_to_perft() {
    let c = chess();
    let stop = std::sync::atomic::AtomicBool::new(false);
    for (fen, castling_text) in [
        ("4k3/8/8/8/8/8/8/RK6 w Q - 0 1", "b1a1"),
        ("rk6/8/8/8/8/8/8/4K3 b q - 0 1", "b8a8"),
        ("4k3/8/8/8/8/8/8/R1K5 w Q - 0 1", "c1a1"), // the king stays on c1, the rook goes to d1
        ("4k3/8/8/8/8/8/8/6KR w K - 0 1", "g1h1"),
        ("4k3/8/8/8/8/8/8/2K4R w K - 0 1", "c1g1"), // no collision: the usual text
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"),
    ] {
        let mut b = VBoard::from_fen_compiled(c.clone(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let moves = b.legal_moves();
        let texts: Vec<String> = moves.iter().map(|&m| b.move_text(m)).collect();
        let mut unique = texts.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), texts.len(), "{fen}: repeated move text in {texts:?}");
        for (&m, t) in moves.iter().zip(&texts) {
            assert_eq!(b.parse_move(t), Ok(m), "{fen}: {t}");
        }
        assert!(texts.iter().any(|x| x == castling_text), "{fen}: no {castling_text} in {texts:?}");
        for depth in 1..=3 {
            let counts = variant_divide_until(&mut b, depth, &stop).unwrap();
            let mut names: Vec<&String> = counts.iter().map(|(m, _)| m).collect();
            names.dedup();
            assert_eq!(names.len(), moves.len(), "{fen}: divide({depth}) lost a move");
            let sum: u64 = counts.iter().map(|(_, n)| n).sum();
            assert_eq!(sum, variant_perft(&mut b, depth), "{fen}: divide({depth}) does not sum to perft");
        }
        // The same counts as the fast generator (in Chess960 mode, which castles a king from
        // any square as the variant generator does).
        let mut fast = Board::from_fen_with(fen, true).unwrap();
        assert_eq!(variant_perft(&mut b, 3), perft(&mut fast, 3), "{fen}");
    }
}

/// A user section inherits from a built-in and overrides it.
#[test]
fn inheritance_from_builtin() {
    let mut docs = builtins();
    docs.push((
        "user.ini".into(),
        "[nocastle:chess]\ncastling = false\nstartFen = r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n".into(),
    ));
    let v = VariantSet::parse(&docs).unwrap().build("nocastle").unwrap();
    let fen = v.start_fen.clone();
    let mut b = VBoard::from_fen_compiled(Arc::new(Compiled::new(v)), &fen).unwrap();
    // 26 moves with castling (published: chessprogramming.org), 24 without.
    assert_eq!(variant_perft(&mut b, 1), 24);
    let mut with = VBoard::from_fen_compiled(chess(), &fen).unwrap();
    assert_eq!(variant_perft(&mut with, 1), 26);
}

/// Betza pieces Fairy-Stockfish 11.1 has no named type for, counted by hand on small
/// positions: a grasshopper (gQ) with one hurdle, a rook limited to two squares (R2), a
/// nightrider (NN), each beside a white king on h1 (3 moves: g1, g2, h2) and a black king
/// on h8 that none of them attacks.
#[test]
fn hand_counted_betza_pieces() {
    let cases = [
        // Grasshopper on d4, hurdle (black pawn) on d6: the only landing square is d7.
        ("g:gQ", "7k/8/3p4/8/3G4/8/8/7K w - - 0 1", 1),
        // Rook limited to two squares on a1: a2, a3, b1, c1.
        ("g:R2", "7k/8/8/8/8/8/8/G6K w - - 0 1", 4),
        // Nightrider on a1: b3 c5 d7 and c2 e3 g4.
        ("g:NN", "7k/8/8/8/8/8/8/G6K w - - 0 1", 6),
        // A cannon (mRcpR) on a1 with a screen on a4 and a black pawn on a7: moves a2, a3,
        // b1..g1 (6), captures a7 over the screen: 9.
        ("g:mRcpR", "7k/p7/8/8/P7/8/8/G6K w - - 0 1", 9),
    ];
    for (piece, fen, moves) in cases {
        let mut docs = builtins();
        docs.push(("user.ini".into(), format!("[t:chess]\ncustomPiece1 = {piece}\nstartFen = {fen}\n")));
        let v = VariantSet::parse(&docs).unwrap().build("t").unwrap();
        let mut b = VBoard::from_fen_compiled(Arc::new(Compiled::new(v)), fen).unwrap();
        // The white pawn on a4 in the cannon case has its own move (a5).
        let pawn_moves = if piece == "g:mRcpR" { 1 } else { 0 };
        assert_eq!(variant_perft(&mut b, 1), moves + 3 + pawn_moves, "{piece} in {fen}");
    }
}

/// Positions aimed at the generic generator's check and pin analysis (the speed
/// work: most moves are counted without being made, so each shortcut has a position
/// here): pins of an en passant capturer along a rank and a diagonal, en passant that
/// captures the checker, double check, castling through and out of attacked squares, a
/// promotion that captures the checker, a pinned pawn on the promotion rank, checks
/// answered by blocking, a king that may not step back along the checking line, and
/// pinned riders that may move along the pin. Each position's perft to depth 4 through
/// the generic generator must equal the fast generator's, and so must its divide.
const CHECK_AND_PIN_POSITIONS: [&str; 16] = [
    "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
    "k7/8/8/8/3Pp3/8/8/4K2B b - d3 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    "4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1",
    "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1",
    "3rk2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K1qR w KQkq - 0 1",
    "3r3k/4P3/8/8/8/8/8/3K4 w - - 0 1",
    "8/8/8/8/8/8/k2p3R/6K1 b - - 0 1",
    "4k3/8/8/8/8/8/4N3/R3K2r w Q - 0 1",
    "4k3/8/8/8/8/8/8/r3K3 w - - 0 1",
    "4k3/4r3/8/8/4Q3/8/8/4K3 w - - 0 1",
    "4k3/8/8/1b6/8/3B4/8/5K2 w - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "8/3k4/8/2pP4/8/8/8/6KB w - c6 0 2",
];

#[test]
fn check_and_pin_positions_agree_with_fast_generator() {
    let c = chess();
    for fen in CHECK_AND_PIN_POSITIONS {
        let mut generic = VBoard::from_fen_compiled(c.clone(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut fast = Board::from_fen(fen).unwrap();
        for depth in 1..=4 {
            assert_eq!(variant_perft(&mut generic, depth), perft(&mut fast, depth), "perft({depth}) of {fen}");
        }
        // Per move, by UCI text.
        let split = kibitz::divide(&mut fast, 3);
        let mut theirs: Vec<(String, u64)> = split.into_iter().map(|(m, n)| (fast.move_to_uci(m), n)).collect();
        theirs.sort();
        let ours = kibitz::variant_divide_until(&mut generic, 3, &std::sync::atomic::AtomicBool::new(false)).unwrap();
        assert_eq!(ours, theirs, "divide(3) of {fen}");
    }
}

/// Every position along 150 seeded random games of up to 120 plies: the leaf count at
/// depth 1 and 2 through the generic generator (moves counted without being made) equals
/// the fast generator's, and the generic legal move list has that many moves.
#[test]
fn random_games_agree_with_fast_generator() {
    let c = chess();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15; // any odd constant: a fixed, reproducible game set
    let mut positions = 0;
    for _ in 0..150 {
        let mut b = VBoard::from_fen_compiled(c.clone(), kibitz::STARTPOS).unwrap();
        for _ in 0..120 {
            let fen = b.fen();
            let mut fast = Board::from_fen(&fen).unwrap();
            let moves = b.legal_moves();
            assert_eq!(moves.len() as u64, perft(&mut fast, 1), "legal moves of {fen}");
            assert_eq!(variant_perft(&mut b, 1), perft(&mut fast, 1), "perft(1) of {fen}");
            assert_eq!(variant_perft(&mut b, 2), perft(&mut fast, 2), "perft(2) of {fen}");
            positions += 1;
            if moves.is_empty() {
                break;
            }
            // xorshift64 (Marsaglia): a small generator for a reproducible choice.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            b.make(moves[(seed % moves.len() as u64) as usize]);
        }
    }
    assert!(positions > 5_000, "only {positions} positions");
}
