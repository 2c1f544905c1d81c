//! Static exchange evaluation (<https://www.chessprogramming.org/Static_Exchange_Evaluation>):
//! the material balance of the capture sequence on one square when both sides always
//! recapture with their least valuable piece and may stop when continuing would lose.
//!
//! On a mailbox the simplest correct way is to play the exchange on a scratch copy of the
//! 120 cells: taking an attacker off the scratch board opens the ray behind it, so x-ray
//! attackers (a rook behind a rook, a queen behind a bishop) join by themselves. Pins are
//! ignored, as usual. Used to order captures (losing ones after the quiet moves) and to
//! prune losing captures in the search and in quiescence.

use crate::chess::board::Board;
use crate::chess::geometry::{bb_of, nearest, KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS, RAYS, SQ64};
use crate::chess::types::*;
use crate::eval::classic::SEE_VALUE;

/// The 0..64 square offsets of `KNIGHT_JUMPS`, in the same order (ties between two knights
/// go to the first, so that the exchange is the same whichever way it is computed).
const KNIGHT_STEPS: [isize; 8] = [17, 15, 10, 6, -6, -10, -15, -17];

/// The least valuable piece of colour `by` attacking square `s` (0..64) when only the
/// pieces in `occ` are still on the board: (square, kind). Ties go to the first found
/// in the mailbox walk's order (for White the pawn on the higher file first, for Black
/// the lower; knights in `KNIGHT_JUMPS` order;
/// sliders by ray in `KING_DIRS` order); the king comes last.
#[inline]
fn least_attacker(board: &Board, s: usize, by: Color, occ: u64) -> Option<(usize, u8)> {
    let pawns = PAWN_ATTACKS[by ^ 1][s] & board.bb(PAWN, by) & occ;
    if pawns != 0 {
        // The pawn one file to the right (seen from White) is tried first.
        let right = if by == WHITE { s.wrapping_sub(7) } else { s + 7 };
        let sq = if right < 64 && pawns >> right & 1 != 0 { right } else { pawns.trailing_zeros() as usize };
        return Some((sq, PAWN));
    }
    let knights = KNIGHT_ATTACKS[s] & board.bb(KNIGHT, by) & occ;
    if knights != 0 {
        for d in KNIGHT_STEPS {
            let t = s as isize + d;
            if (0..64).contains(&t) && knights >> t & 1 != 0 {
                return Some((t as usize, KNIGHT));
            }
        }
    }
    let queens = board.bb(QUEEN, by) & occ;
    let ortho = (board.bb(ROOK, by) & occ) | queens;
    let diag = (board.bb(BISHOP, by) & occ) | queens;
    let mut best: Option<(usize, u8)> = None;
    for (dir, rays) in RAYS.iter().enumerate() {
        let sliders = if dir < 4 { ortho } else { diag };
        let ray = rays[s];
        if ray & sliders == 0 {
            continue;
        }
        let t = nearest(dir, ray & occ);
        if sliders >> t & 1 == 0 {
            continue;
        }
        let k = if queens >> t & 1 != 0 {
            QUEEN
        } else if dir < 4 {
            ROOK
        } else {
            BISHOP
        };
        if best.is_none_or(|(_, bk)| SEE_VALUE[k as usize] < SEE_VALUE[bk as usize]) {
            best = Some((t, k));
            if k == BISHOP {
                // Nothing cheaper can come from the remaining rays.
                return best;
            }
        }
    }
    if best.is_some() {
        return best;
    }
    let king = KING_ATTACKS[s] & board.bb(KING, by) & occ;
    (king != 0).then(|| (king.trailing_zeros() as usize, KING))
}
/// `see(board, m) >= threshold`, answered without playing the exchange out when its first
/// two plies decide it: the exchange can never gain more than the first capture (the
/// opponent may always decline to recapture), and never less than the first capture
/// minus the capturing piece (we may always stop after their recapture). Most captures
/// of an equal or bigger piece and most quiet moves with a negative threshold end here.
#[inline]
pub fn see_ge(board: &Board, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return 0 >= threshold;
    }
    let mut first =
        if m.is_en_passant() { SEE_VALUE[PAWN as usize] } else { SEE_VALUE[kind_of(board.cells[m.to()]) as usize] };
    let mut moved = kind_of(board.cells[m.from()]);
    if m.is_promotion() {
        first += SEE_VALUE[m.promo() as usize] - SEE_VALUE[PAWN as usize];
        moved = m.promo();
    }
    if first < threshold {
        return false;
    }
    if first - SEE_VALUE[moved as usize] >= threshold {
        return true;
    }
    see(board, m) >= threshold
}

/// The static exchange value of move `m` for the side making it, in `SEE_VALUE` units
/// (pawn = 100). Quiet moves score 0 or the loss of the moved piece; castling 0.
pub fn see(board: &Board, m: Move) -> i32 {
    if m.is_castle() {
        return 0;
    }
    let from = m.from();
    let to = m.to();
    let us = board.side;
    let mut occ = board.occ[WHITE] | board.occ[BLACK];
    let mut gain = [0i32; 40];
    let mut on_square = kind_of(board.cells[from]); // the piece now standing on `to`
    gain[0] = if m.is_en_passant() {
        let capsq = (to as isize - pawn_push(us)) as usize;
        occ &= !bb_of(capsq);
        SEE_VALUE[PAWN as usize]
    } else if board.cells[to] != EMPTY {
        SEE_VALUE[kind_of(board.cells[to]) as usize]
    } else {
        0
    };
    if m.is_promotion() {
        gain[0] += SEE_VALUE[m.promo() as usize] - SEE_VALUE[PAWN as usize];
        on_square = m.promo();
    }
    occ &= !bb_of(from);
    let to64 = SQ64[to] as usize;
    let mut side = us ^ 1;
    let mut d = 0;
    loop {
        d += 1;
        let Some((sq, k)) = least_attacker(board, to64, side, occ) else { break };
        // Capturing the piece on `to` gains its value, minus what the other side had gained.
        gain[d] = SEE_VALUE[on_square as usize] - gain[d - 1];
        if d + 1 >= gain.len() {
            d += 1;
            break;
        }
        occ &= !(1u64 << sq);
        on_square = k;
        side ^= 1;
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use crate::chess::board::Board;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let b = Board::from_fen(fen).unwrap();
        let m = b.parse_uci(uci).unwrap();
        super::see(&b, m)
    }

    #[test]
    fn simple_exchanges() {
        // Undefended pawn.
        assert_eq!(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
        // Pawn defended by a pawn: RxP PxR loses the exchange.
        assert_eq!(see_of("1k6/8/3p4/4p3/8/8/8/1K2R3 w - - 0 1", "e1e5"), 100 - 500);
        // Rook behind rook (x-ray) against one defender: RxP, PxR? no: BxR... plain cases.
        assert_eq!(see_of("1k2r3/8/8/4p3/8/8/4R3/1K2R3 w - - 0 1", "e2e5"), 100);
        // Knight takes a defended pawn: loses N for P.
        assert_eq!(see_of("1k6/8/3p4/4p3/8/5N2/8/1K6 w - - 0 1", "f3e5"), 100 - 320);
        // Quiet move onto a square attacked by a pawn loses the piece.
        assert_eq!(see_of("1k6/8/3p4/8/8/5N2/8/1K6 w - - 0 1", "f3e5"), -320);
        // Safe quiet move.
        assert_eq!(see_of("1k6/8/8/8/8/5N2/8/1K6 w - - 0 1", "f3e5"), 0);
    }

    /// Calls `f` with every legal move of each position in `fens` and every legal reply to
    /// each of them (the positions are chosen full of exchanges).
    fn for_each_move_and_reply(fens: &[&str], mut f: impl FnMut(&Board, crate::chess::types::Move)) {
        use crate::chess::types::MoveList;
        for fen in fens {
            let mut b = Board::from_fen(fen).unwrap();
            let mut root = MoveList::new();
            b.generate_legal(&mut root);
            for &r in root.iter() {
                f(&b, r);
                b.make_move(r);
                let mut ml = MoveList::new();
                b.generate_legal(&mut ml);
                for &m in ml.iter() {
                    f(&b, m);
                }
                b.unmake_move();
            }
        }
    }

    /// `see_ge` must agree with the full exchange for every legal move and threshold, on
    /// positions full of exchanges (perft test positions and their children).
    #[test]
    fn see_ge_agrees_with_see() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        ];
        let mut checked = 0;
        for_each_move_and_reply(&fens, |b, m| {
            let v = super::see(b, m);
            for t in [-1000, -500, -330, -320, -101, -100, -30, -1, 0, 1, 99, 100, 101, 220, 320, 500, 1000] {
                assert_eq!(super::see_ge(b, m, t), v >= t, "{} {:?} t={t} see={v}", b.fen(), m);
                checked += 1;
            }
        });
        assert!(checked > 100_000, "{checked}");
    }

    /// The exchange played out on a scratch copy of the 120 mailbox cells, the way this
    /// module did it before the bitboards: an independent reference for `Board::see`.
    fn mailbox_see(b: &Board, m: crate::chess::types::Move) -> i32 {
        use crate::chess::types::*;
        use crate::eval::classic::SEE_VALUE;
        /// The least valuable piece of colour `by` attacking `sq` on `cells`: (cell, kind).
        fn least_attacker(cells: &[u8; 120], sq: Square, by: Color) -> Option<(Square, u8)> {
            let pawn = make_piece(PAWN, by);
            let (l, r) = if by == WHITE { (sq - 9, sq - 11) } else { (sq + 9, sq + 11) };
            if cells[l] == pawn {
                return Some((l, PAWN));
            }
            if cells[r] == pawn {
                return Some((r, PAWN));
            }
            let knight = make_piece(KNIGHT, by);
            for d in KNIGHT_JUMPS {
                let t = (sq as isize + d) as usize;
                if cells[t] == knight {
                    return Some((t, KNIGHT));
                }
            }
            // Sliders: the first piece along each ray; keep the cheapest that attacks this way.
            let mut best: Option<(Square, u8)> = None;
            let mut king: Option<Square> = None;
            for (i, &d) in KING_DIRS.iter().enumerate() {
                let diagonal = i >= 4;
                let mut t = (sq as isize + d) as usize;
                let first = cells[t];
                if first == make_piece(KING, by) {
                    king = Some(t);
                    continue;
                }
                while cells[t] == EMPTY {
                    t = (t as isize + d) as usize;
                }
                let p = cells[t];
                if !is_color(p, by) {
                    continue;
                }
                let k = kind_of(p);
                let attacks = k == QUEEN || (diagonal && k == BISHOP) || (!diagonal && k == ROOK);
                if attacks && best.is_none_or(|(_, bk)| SEE_VALUE[k as usize] < SEE_VALUE[bk as usize]) {
                    best = Some((t, k));
                    if k == BISHOP {
                        // Nothing cheaper can come from the remaining rays (pawns and knights are done).
                        return best;
                    }
                }
            }
            if best.is_some() {
                return best;
            }
            king.map(|k| (k, KING))
        }
        if m.is_castle() {
            return 0;
        }
        let (from, to, us) = (m.from(), m.to(), b.side_to_move());
        let mut cells = b.cells;
        let mut gain = [0i32; 40];
        let mut on_square = kind_of(cells[from]);
        gain[0] = if m.is_en_passant() {
            cells[(to as isize - pawn_push(us)) as usize] = EMPTY;
            SEE_VALUE[PAWN as usize]
        } else {
            SEE_VALUE[kind_of(cells[to]) as usize]
        };
        if m.is_promotion() {
            gain[0] += SEE_VALUE[m.promo() as usize] - SEE_VALUE[PAWN as usize];
            on_square = m.promo();
        }
        cells[from] = EMPTY;
        cells[to] = make_piece(on_square, us);
        let (mut side, mut d) = (us ^ 1, 0);
        loop {
            d += 1;
            let Some((sq, k)) = least_attacker(&cells, to, side) else { break };
            gain[d] = SEE_VALUE[on_square as usize] - gain[d - 1];
            if d + 1 >= gain.len() {
                d += 1;
                break;
            }
            cells[sq] = EMPTY;
            cells[to] = make_piece(k, side);
            on_square = k;
            side ^= 1;
        }
        while d > 1 {
            d -= 1;
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        }
        gain[0]
    }

    #[test]
    fn bitboard_exchange_equals_mailbox_exchange() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "2r1r1k1/1b1q1ppp/p2b1n2/1p1pN3/3P1B2/P1NQ2P1/1P3PBP/2RR2K1 b - - 0 1",
            "4k3/8/4pn2/3p4/8/1B6/Q7/4K3 w - - 0 1",
            "3r2k1/1q3pp1/2n1r2p/p1pNp3/P1P1P1b1/1QN3P1/5PBP/3RR1K1 w - - 0 1",
        ];
        let mut checked = 0;
        for_each_move_and_reply(&fens, |b, m| {
            assert_eq!(super::see(b, m), mailbox_see(b, m), "{} {}", b.fen(), b.move_to_uci(m));
            checked += 1;
        });
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn xray_queen_behind_bishop() {
        // Bxd5 exd5? White: bishop b3, queen a2 behind it on the diagonal; black pawn d5
        // defended by pawn e6 and knight f6... BxP PxB QxP NxQ: 100 - 330 + 100 - 950 -> stop earlier.
        let v = see_of("4k3/8/4pn2/3p4/8/1B6/Q7/4K3 w - - 0 1", "b3d5");
        assert_eq!(v, 100 - 330);
    }

    #[test]
    fn king_cannot_recapture_defended_piece() {
        // Rxh7 with the king recapturing is only possible if h7 is not also covered by the rook on h1.
        assert_eq!(see_of("6k1/7p/8/8/8/8/8/6KR w - - 0 1", "h1h7"), 100 - 500);
        assert_eq!(see_of("6k1/7p/8/8/8/8/7R/6KR w - - 0 1", "h2h7"), 100);
    }
}
