//! The evaluation trace the Texel tuner fits (rust/eval/classic.rs `trace_eval`): for every weight
//! it must count exactly the additions `evaluate` makes, so that the trace times the weight
//! table reproduces `evaluate` to the centipawn. Checked on the perft-suite positions and on
//! the positions of random playouts from them (some thousands, all phases, promotions and
//! bare endgames included), plus the colour symmetry of the coefficients.

use kibitz::{evaluate, trace_eval, Board, MoveList, Weights, NUM_WEIGHTS, WEIGHTS};

/// Plies of each random playout, and playouts per suite position.
const PLAYOUT_PLIES: usize = 120;
const PLAYOUTS: usize = 2;

fn suite() -> Vec<Board> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perftsuite.epd"))
        .expect("tests/data/perftsuite.epd");
    text.lines()
        .filter_map(|l| l.split(';').next())
        .filter(|f| !f.trim().is_empty())
        .map(|f| Board::from_fen(f.trim()).expect("suite FEN"))
        .collect()
}

/// A fixed pseudo-random sequence (64-bit LCG, Knuth's MMIX constants; the high bits).
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The suite positions and every position of random playouts from them.
fn positions() -> Vec<Board> {
    let mut rng = Lcg(2024);
    let mut out = Vec::new();
    for start in suite() {
        out.push(start.clone());
        for _ in 0..PLAYOUTS {
            let mut b = start.clone();
            let mut ml = MoveList::new();
            for _ in 0..PLAYOUT_PLIES {
                ml.clear();
                b.generate_legal(&mut ml);
                if ml.is_empty() {
                    break;
                }
                // Prefer captures half the time so the playouts reach endgames.
                let caps: Vec<_> = ml.iter().copied().filter(|m| b.piece_at(m.to()) != kibitz::EMPTY).collect();
                let m = if !caps.is_empty() && rng.below(2) == 0 {
                    caps[rng.below(caps.len())]
                } else {
                    ml[rng.below(ml.len())]
                };
                b.make_move(m);
                out.push(Board::from_fen(&b.fen()).expect("own FEN"));
            }
        }
    }
    out
}

#[test]
fn trace_reproduces_evaluate() {
    let boards = positions();
    assert!(boards.len() > 2000, "only {} positions", boards.len());
    let mut phases = [0usize; 25];
    for b in &boards {
        let t = trace_eval(b);
        assert_eq!(t.coefficients.len(), NUM_WEIGHTS);
        assert_eq!(t.evaluate(&WEIGHTS), evaluate(b), "{}", b.fen());
        phases[t.phase as usize] += 1;
    }
    // The playouts cover openings and bare endgames alike.
    assert!(phases[0] > 0 && phases[24] > 0, "phases {phases:?}");
}

#[test]
fn trace_is_linear_in_the_weights() {
    // Doubling every weight doubles the evaluation (less the tempo), up to the truncation
    // of the two integer divisions (endgame scaling, taper), under 1 each.
    for b in suite().iter().take(20) {
        let t = trace_eval(b);
        let w2 = Weights::from_pairs(&WEIGHTS.to_pairs().iter().map(|&(m, e)| (2 * m, 2 * e)).collect::<Vec<_>>())
            .expect("doubled weights fit");
        let tempo = if t.white_to_move { t.tempo_white() } else { -t.tempo_white() }; // side to move's
        let once = t.evaluate(&WEIGHTS) - tempo;
        let twice = t.evaluate(&w2) - tempo;
        assert!((twice - 2 * once).abs() <= 3, "{}: {once} then {twice}", b.fen());
    }
}

/// The same position with colours swapped (board mirrored top to bottom).
fn flip(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let swap = |s: &str| {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect::<String>()
    };
    let placement = f[0].split('/').rev().map(swap).collect::<Vec<_>>().join("/");
    let side = if f[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = swap(f[2]).chars().collect();
    castling.sort_by_key(|c| "KQkq-".find(*c));
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!("{placement} {side} {} {ep} {} {}", castling.iter().collect::<String>(), f[4], f[5])
}

#[test]
fn flipped_colours_negate_the_coefficients() {
    for b in positions().iter().step_by(7) {
        let fen = b.fen();
        let m = Board::from_fen(&flip(&fen)).expect("flipped FEN");
        let (t, tm) = (trace_eval(b), trace_eval(&m));
        let neg: Vec<i32> = t.coefficients.iter().map(|c| -c).collect();
        assert_eq!(tm.coefficients, neg, "{fen}");
        assert_eq!(tm.phase, t.phase);
        assert_eq!(evaluate(&m), evaluate(b), "{fen}");
    }
}
