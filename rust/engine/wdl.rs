//! Win/draw/loss chances from a score: what UCI_ShowWDL reports (`info ... wdl W D L`) and
//! `SearchResult.wdl` gives, per mille, from the side to move's view.
//!
//! The model has the shape Stockfish uses: with s the score in centipawns and x the
//! material on the board (pawn 1, knight and bishop 3, rook 5, queen 9, both sides) over 58,
//! `a = A0 + A1 x + A2 x^2`, `b = B0 + B1 x + B2 x^2`, win = 1 / (1 + e^((a - s) / b)), loss = 1 / (1 +
//! e^((a + s) / b)) and draw the rest. `a` is the score at which a win is as likely as not;
//! `b` says how fast the chances move with the score. The constants are fitted by maximum
//! likelihood on kibitz's own games (`tools/wdl_fit.py`; the fit, its data and its
//! calibration table are in `benches/results/wdl-fit.txt`).

use crate::chess::board::Board;
use crate::chess::types::{kind_of, BISHOP, BLACK, KNIGHT, PAWN, QUEEN, ROOK, WHITE};
use crate::engine::types::{mate_in, TB_WIN};
use crate::engine::MAX_PLY;

/// The fitted constants (see the module comment and benches/results/wdl-fit.txt: 43,463
/// positions of 300 self-play games at 1+0.01 and 10+0.1, mean log loss 0.595 against 0.943
/// for the outcome shares alone).
const A0: f64 = 684.5;
const A1: f64 = -1255.9;
const A2: f64 = 644.3;
const B0: f64 = 236.6;
const B1: f64 = -452.0;
const B2: f64 = 265.5;

/// The material the model counts: pawn 1, knight and bishop 3, rook 5, queen 9, both sides.
pub fn material(board: &Board) -> u32 {
    let mut m = 0;
    for c in [WHITE, BLACK] {
        for &sq in board.pieces(c) {
            m += match kind_of(board.piece_at(sq as usize)) {
                PAWN => 1,
                KNIGHT | BISHOP => 3,
                ROOK => 5,
                QUEEN => 9,
                _ => 0,
            };
        }
    }
    m
}

/// Win, draw and loss per mille (summing to 1000) for `score` with `material` on the board.
/// A mate found, or a tablebase win, is certain.
pub fn wdl(score: i32, material: u32) -> [u32; 3] {
    if let Some(m) = mate_in(score) {
        return if m > 0 { [1000, 0, 0] } else { [0, 0, 1000] };
    }
    if score.abs() > TB_WIN - MAX_PLY as i32 {
        return if score > 0 { [1000, 0, 0] } else { [0, 0, 1000] };
    }
    let x = material.min(78) as f64 / 58.0;
    let a = A0 + A1 * x + A2 * x * x;
    let b = (B0 + B1 * x + B2 * x * x).max(1.0);
    let s = score as f64;
    let win = (1000.0 / (1.0 + ((a - s) / b).exp())).round() as u32;
    let loss = (1000.0 / (1.0 + ((a + s) / b).exp())).round() as u32;
    let (win, loss) = (win.min(1000), loss.min(1000 - win.min(1000)));
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_a_thousand_and_is_monotonic_in_the_score() {
        for m in [4, 20, 40, 78] {
            let mut last = wdl(-3000, m);
            for s in (-3000..=3000).step_by(25) {
                let w = wdl(s, m);
                assert_eq!(w.iter().sum::<u32>(), 1000, "{s} {m}");
                assert!(w[0] >= last[0] && w[2] <= last[2], "{s} {m}: {w:?} after {last:?}");
                last = w;
            }
        }
    }

    #[test]
    fn symmetric_and_drawish_at_zero() {
        for m in [10, 40, 78] {
            let [w, d, l] = wdl(0, m);
            assert_eq!(w, l);
            assert!(d > w);
            let up = wdl(150, m);
            let down = wdl(-150, m);
            assert_eq!((up[0], up[2]), (down[2], down[0]));
        }
    }

    #[test]
    fn mates_are_certain() {
        assert_eq!(wdl(crate::engine::types::MATE - 5, 30), [1000, 0, 0]);
        assert_eq!(wdl(-crate::engine::types::MATE + 4, 30), [0, 0, 1000]);
    }

    #[test]
    fn material_of_the_start_position_is_78() {
        assert_eq!(material(&Board::startpos()), 78);
    }
}
