//! FEN parsing: malformed inputs give the right error; good ones round-trip.

use kibitz::{Board, FenError};

fn err(fen: &str) -> FenError {
    Board::from_fen(fen).expect_err(fen)
}

#[test]
fn malformed_fens_name_the_problem() {
    use FenError::*;
    assert!(matches!(err(""), FieldCount(0)));
    assert!(matches!(err("8/8/8/8/8/8/8/8 w - - 0 1 extra"), FieldCount(7)));
    assert!(matches!(err("8/8/8 w - - 0 1"), RankCount(3)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/4K2 w - - 0 1"), RankLength(1, 7)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/4K2R1 w - - 0 1"), RankLength(1, 9)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/4X3 w - - 0 1"), PieceLetter('X')));
    assert!(matches!(err("8/8/8/8/8/8/8/4K3 w - - 0 1"), KingCount("black", 0)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"), KingCount("white", 2)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/P3K3 w - - 0 1"), PawnOnBackRank(_)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"), SideToMove(_)));
    assert!(matches!(err("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), OppositeCheck("black")));
    assert!(matches!(err("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), Castling(_)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/4K2R w KK - 0 1"), Castling(_)));
    assert!(matches!(err("4k3/8/8/8/8/8/8/4K3 w - e3 0 1"), EnPassant(_)));
    assert!(matches!(err("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1"), EnPassant(_)));
    assert!(matches!(err("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 x 1"), HalfmoveClock(_)));
    assert!(matches!(err("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 -1"), FullmoveNumber(_)));
    assert!(matches!(err("QQQQQQQQ/QQQQQQQQ/k7/8/8/8/8/4K3 w - - 0 1"), TooManyPieces("white", 17)));
}

#[test]
fn fens_round_trip() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        assert_eq!(Board::from_fen(fen).unwrap().fen(), fen);
    }
    // Four fields: clocks default to 0 and 1.
    assert_eq!(Board::from_fen("4k3/8/8/8/8/8/8/4K3 b - -").unwrap().fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // An en-passant square with no capturing pawn is accepted but not written back.
    assert_eq!(
        Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap().fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

#[test]
fn polyglot_keys_match_the_published_examples() {
    // Test positions and keys from the Polyglot book format specification.
    let cases: [(&str, u64); 9] = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196),
        ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0),
        ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78),
        ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1),
        ("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9),
        ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637),
        ("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560),
    ];
    for (fen, key) in cases {
        assert_eq!(Board::from_fen(fen).unwrap().key(), key, "{fen}");
    }
    // And incrementally, along the same game.
    let mut b = Board::startpos();
    for (mv, key) in [
        ("e2e4", 0x823c9b50fd114196u64),
        ("d7d5", 0x0756b94461c50fb0),
        ("e4e5", 0x662fafb965db29d4),
        ("f7f5", 0x22a48b5a8e47ff78),
        ("e1e2", 0x652a607ca3f242c1),
        ("e8f7", 0x00fdd303c946bdd9),
    ] {
        b.push_uci(mv).unwrap();
        assert_eq!(b.key(), key, "after {mv}");
    }
}

/// Counters never wrap. Values python-chess reads (Python `int()` syntax,
/// any size) are read, saturating at 2^31 - 1; the clock stays a draw one ply later.
#[test]
fn counters_saturate_instead_of_wrapping() {
    let base = "4k3/8/8/8/8/8/8/4K2R w - -";
    for (h, f, want_h, want_f) in [
        ("4294967295", "4294967296", 2147483647, 2147483647),
        ("99999999999999999999999", "1", 2147483647, 1),
        ("+5", "-0", 5, 1),
        ("0_0", "1_0", 0, 10),
        ("007", "0", 7, 1),
    ] {
        let b = Board::from_fen(&format!("{base} {h} {f}")).unwrap_or_else(|e| panic!("{h} {f}: {e}"));
        assert_eq!((b.halfmove_clock(), b.fullmove_number()), (want_h, want_f), "{h} {f}");
    }
    for (h, f) in
        [("-1", "1"), ("1", "-3"), ("1__0", "1"), ("_1", "1"), ("1_", "1"), ("1.5", "1"), ("+", "1"), ("0x10", "1")]
    {
        assert!(Board::from_fen(&format!("{base} {h} {f}")).is_err(), "{h:?} {f:?} accepted");
    }
    let mut b = Board::from_fen(&format!("{base} 4294967295 1")).unwrap();
    let m = b.parse_uci("e1d1").unwrap();
    b.make_move(m);
    assert_eq!(b.halfmove_clock(), 2147483648);
    b.unmake_move();
    assert_eq!(b.halfmove_clock(), 2147483647);
}

/// Two digits in a row ("44") describe the right number of squares but are not FEN;
/// python-chess rejects them, and the message names the rank.
#[test]
fn two_digits_in_a_row_are_rejected_naming_the_rank() {
    let e = err("4k3/8/8/44/8/8/8/4K3 w - - 0 1");
    assert!(matches!(e, FenError::ConsecutiveDigits(5, _)), "{e:?}");
    assert!(e.to_string().contains("rank 5"), "{e}");
    assert!(matches!(err("4k3/8/8/8/8/8/8/4K111 w - - 0 1"), FenError::ConsecutiveDigits(1, _)));
    assert!(Board::from_fen("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1").is_ok());
}
