//! Quiescence search: at the horizon, captures (and every move in check) until the position
//! is quiet, so that the static evaluation is never taken in the middle of an exchange.
//! Written as numbered steps, as the tree search.

use super::*;

impl<'a> Search<'a> {
    /// Quiescence search (captures only, all moves in check), as numbered steps.
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        // Step 1. Node entry: the limits, a draw by rule, the ply limit.
        if let Some(score) = self.node_entry(ply) {
            return score;
        }
        // Step 2. The transposition table [tt].
        let in_check = self.board.in_check();
        let key = self.board.key();
        let entry = if self.f.tt { self.tt.probe(key) } else { None };
        let mut tt_eval = None;
        if let Some(e) = entry {
            let score = score_from_tt(e.score as i32, ply);
            if bound_cuts(e.bound(), score, alpha, beta) {
                return score;
            }
            tt_eval = Some(e.eval as i32);
        }

        // Step 3. Stand pat: out of check the side to move may decline every capture.
        let mut best;
        let stand_pat;
        let raw_eval;
        if in_check {
            best = -INF;
            stand_pat = -INF;
            raw_eval = -INF;
        } else {
            raw_eval = match tt_eval {
                Some(v) if v.abs() < MATE_BOUND => v,
                _ => self.evaluate(),
            };
            stand_pat = self.corrected(raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
        }

        // Step 4. The moves: every legal move in check, else the captures, by MVV-LVA.
        let mut moves = MoveList::new();
        if in_check {
            self.board.generate_legal(&mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            self.board.generate_captures(&mut moves);
        }
        score_captures(&self.board, &moves, &mut self.scores[ply]);
        let orig_alpha = alpha;
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            let (m, _) = pick(&mut moves, &mut self.scores[ply], i);
            if !in_check {
                if m.is_promotion() && m.promo() != QUEEN {
                    continue;
                }
                // Step 5. Delta pruning [delta]: even winning the victim (plus a margin for
                // positional gain) leaves us below alpha.
                if self.f.delta && !m.is_promotion() {
                    let victim = if m.is_en_passant() { PAWN } else { kind_of(self.board.piece_at(m.to())) };
                    if stand_pat + SEE_VALUE[victim as usize] + DELTA_MARGIN <= alpha {
                        continue;
                    }
                }
                // Step 6. SEE pruning [qsee]: losing captures are not searched (measured with
                // the tree search's SEE pruning, params.rs SEE_CAPTURE_MARGIN).
                if self.f.qsearch_see && !see_ge(&self.board, m, 0) {
                    continue;
                }
            }
            self.make(m);
            self.tt.prefetch(self.board.key());
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // Step 7. The result goes to the table at depth 0.
        let bound = bound_of(best, alpha, orig_alpha, beta);
        self.tt.store(key, best_move, score_to_tt(best, ply), raw_eval.max(-MATE_BOUND), 0, bound);
        best
    }
}
