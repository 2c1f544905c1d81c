//! Iterative deepening and the root of the tree: the legal moves with their scores, the
//! tablebase filter, MultiPV, aspiration windows, the time decisions after each iteration
//! and the report of each (`Info`). The nodes below the root are `search.rs`'s tree search.

use super::*;

/// A legal move at the root with what the iterations found for it.
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    bound: Bound,
    depth: u32,
    seldepth: u32,
    pv: Vec<Move>,
}

impl<'a> Search<'a> {
    pub(crate) fn run(&mut self, limits: &Limits, report: &mut dyn FnMut(&Info) -> bool) -> SearchOutcome {
        let mut ml = MoveList::new();
        self.board.generate_legal(&mut ml);
        let mut root: Vec<RootMove> = ml
            .iter()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                bound: Bound::Upper,
                depth: 0,
                seldepth: 0,
                pv: vec![mv],
            })
            .collect();
        if ml.is_empty() || root.is_empty() {
            let in_check = self.board.in_check();
            return SearchOutcome {
                best: None,
                ponder: None,
                lines: Vec::new(),
                depth: 0,
                seldepth: 0,
                nodes: 0,
                elapsed: self.start.elapsed(),
                hashfull: self.tt.hashfull(),
                tbhits: 0,
                checkmate: ml.is_empty() && in_check,
                stalemate: ml.is_empty() && !in_check,
                tb_root: false,
            };
        }
        // In the tablebases: only the moves that keep the position's value (the quickest
        // conversion by DTZ when it is won) are searched, so a won ending is converted and a
        // drawn one is held whatever the evaluation thinks.
        let tb_root = self.tb_filter_root(&mut root);
        // Initial order: table move, then captures by MVV-LVA, so that even a search stopped
        // at once returns a sensible legal move.
        {
            let tt_move = self.tt.probe(self.board.key()).map(|e| e.mv).unwrap_or(Move::NULL);
            let b = &self.board;
            root.sort_by_key(|r| {
                if r.mv == tt_move {
                    -1_000_000
                } else if is_tactical(b, r.mv) {
                    -mvv_lva(b, r.mv) - 10_000
                } else {
                    0
                }
            });
        }
        let multipv = limits.multipv.clamp(1, root.len());
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if self.hard == Some(Duration::ZERO) {
            max_depth = 1; // no time at all: the quickest legal answer
        }

        for depth in self.start_depth.min(max_depth)..=max_depth {
            for r in root.iter_mut() {
                r.prev_score = r.score;
            }
            self.root_depth = depth as i32;
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = root[pv_idx].prev_score;
                // Aspiration window around the last score, widened on each failure
                // (params.rs: ASPIRATION_*).
                let mut delta = ASPIRATION_WINDOW;
                let (mut alpha, mut beta) =
                    if self.f.aspiration && depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-INF), (prev + delta).min(INF))
                    } else {
                        (-INF, INF)
                    };
                loop {
                    let score = self.root_search(&mut root, pv_idx, depth as i32, alpha, beta, report);
                    root[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2 + ASPIRATION_GROWTH;
                    if delta > ASPIRATION_MAX {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                root[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed = depth;
            // The caller's time manager decides here whether to go on (false: stop).
            let info = self.info(&root, multipv, depth);
            if !report(&info) {
                self.stopped = true;
                break;
            }
            // The report (a caller's callback) may have taken long: the cap still holds.
            if (self.hard.is_some() || self.deadline.is_some()) && self.past_cap(self.start.elapsed()) {
                self.stopped = true;
                break;
            }
            // A forced mate found at full width needs no deeper search once confirmed twice.
            if limits.depth.is_none()
                && mate_in(root[0].score).is_some_and(|m| m > 0 && (depth as i32) >= 2 * m + 6)
                && multipv == 1
            {
                break;
            }
            // The target: no iteration starts once it has passed.
            if self.soft.is_some_and(|s| self.start.elapsed() >= s) {
                break;
            }
        }

        let elapsed = self.start.elapsed();
        let fallback = if self.board.in_check() { 0 } else { self.evaluate() };
        let lines: Vec<Line> = (0..multipv)
            .map(|i| {
                let r = &root[i];
                // A move never scored (search stopped before it) reports its last score,
                // else the static evaluation.
                let score = if r.score > -INF {
                    r.score
                } else if r.prev_score > -INF {
                    r.prev_score
                } else {
                    fallback
                };
                let (score, bound) = self.shown(score, r.bound);
                Line { multipv: i + 1, score, bound, depth: r.depth, seldepth: r.seldepth, pv: r.pv.clone() }
            })
            .collect();
        let best = root[0].mv;
        let ponder = if root[0].pv.len() >= 2 {
            Some(root[0].pv[1])
        } else {
            self.ponder_from_tt(best).or_else(|| self.tb_best_reply(best))
        };
        SearchOutcome {
            best: Some(best),
            ponder,
            depth: if self.completed > 0 { self.completed } else { lines[0].depth },
            seldepth: lines[0].seldepth,
            lines,
            nodes: self.total_nodes(),
            elapsed,
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits,
            checkmate: false,
            stalemate: false,
            tb_root,
        }
    }

    /// The table's move in the position after `best`, if legal there.
    fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        self.board.make_move(best);
        let reply = self.tt.probe(self.board.key()).map(|e| e.mv).filter(|&m| !m.is_null() && self.board.is_legal(m));
        self.board.unmake_move();
        reply
    }

    /// The tablebase reply to `best` (the best-ranked one), for a ponder move when neither
    /// the pv nor the table has one: a pv that ends in a table position has no second move.
    fn tb_best_reply(&mut self, best: Move) -> Option<Move> {
        let tb = self.syzygy.clone()?;
        self.tb_root_rank?;
        self.board.make_move(best);
        let mut replies = MoveList::new();
        self.board.generate_legal(&mut replies);
        let mut choice: Option<(i32, Move)> = None;
        for &reply in replies.iter() {
            match self.tb_rank(&tb, reply) {
                Some(rank) if choice.is_none_or(|(r, _)| rank > r) => choice = Some((rank, reply)),
                Some(_) => {}
                None => {
                    choice = None;
                    break;
                }
            }
        }
        self.board.unmake_move();
        choice.map(|(_, reply)| reply)
    }

    /// A root move's rank in the tablebases, by the DTZ of the position it leads to: a win
    /// ranks by how soon the winning side zeroes the 50-move counter (a capture or pawn move
    /// zeroes at once; a mate ranks above all), a loss by how late, a draw in between; with
    /// `rule50`, a win or loss beyond the 50-move limit counts as a draw. None when the
    /// table is missing.
    fn tb_rank(&mut self, tb: &Syzygy, mv: Move) -> Option<i32> {
        let zeroing = is_tactical(&self.board, mv) || kind_of(self.board.piece_at(mv.from())) == PAWN;
        self.board.make_move(mv);
        let rank = if !self.board.has_legal_move() {
            if self.board.in_check() {
                Some(2000) // mate at once
            } else {
                Some(0)
            }
        } else {
            tb.tables.probe_dtz(&self.board).ok().map(|child| {
                // `child` is the opponent's DTZ: negative when the opponent loses.
                let plies = if zeroing { 1 } else { child.abs() + 1 };
                // The child's own counter (0 after a zeroing move) plus its DTZ.
                let beyond_50 = tb.rule50 && child.abs() + self.board.halfmove_clock() as i32 > 100;
                match child.signum() {
                    -1 if !beyond_50 => 1000 - plies,
                    1 if !beyond_50 => -1000 + plies,
                    _ => 0,
                }
            })
        };
        self.board.unmake_move();
        if rank.is_some() {
            self.tbhits += 1;
        }
        rank
    }

    /// Cuts the root moves to those that keep the root's tablebase value, when the root is
    /// in the tables (no castling rights, few enough pieces, every child's table present):
    /// the best-ranked ones (`tb_rank`). True when the root is in the tables; its rank is
    /// then kept for the scores shown.
    fn tb_filter_root(&mut self, root: &mut Vec<RootMove>) -> bool {
        let Some(tb) = self.syzygy.clone() else { return false };
        let pieces = (self.board.occ[WHITE] | self.board.occ[BLACK]).count_ones();
        if self.board.castling_rights() != 0 || pieces > tb.cardinality() {
            return false;
        }
        let mut ranks = Vec::with_capacity(root.len());
        for r in root.iter() {
            match self.tb_rank(&tb, r.mv) {
                Some(v) => ranks.push(v),
                None => return false, // a child's table is missing: search them all
            }
        }
        let Some(&best) = ranks.iter().max() else { return false };
        let mut keep = ranks.iter().map(|&v| v == best);
        root.retain(|_| keep.next().unwrap_or(false));
        self.tb_root_rank = Some(best);
        true
    }

    /// The score shown for a root move (and its bound): in the tablebases, the tables' value
    /// where the search has found no mate -- a draw 0, a win `TB_WIN` less the plies to the
    /// winner's zeroing move (as a win the tree search meets in the tables shows), a loss
    /// the negative -- exact; else the search's score.
    fn shown(&self, score: i32, bound: Bound) -> (i32, Bound) {
        match self.tb_root_rank {
            Some(rank) if score.abs() < MATE_BOUND => {
                let shown = match rank.signum() {
                    1 => TB_WIN - (1000 - rank).max(1),
                    -1 => -(TB_WIN - (1000 + rank).max(1)),
                    _ => 0,
                };
                (shown, Bound::Exact)
            }
            _ => (score, bound),
        }
    }

    fn info(&self, root: &[RootMove], multipv: usize, depth: u32) -> Info {
        let lines = (0..multipv)
            .map(|i| {
                let (score, bound) = self.shown(root[i].score, root[i].bound);
                Line { multipv: i + 1, score, bound, depth, seldepth: root[i].seldepth, pv: root[i].pv.clone() }
            })
            .collect();
        Info {
            lines,
            depth,
            seldepth: root[0].seldepth,
            nodes: self.total_nodes(),
            elapsed: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tbhits,
            complete: true,
        }
    }

    /// One pass over the root moves `root[pv_idx..]` with window (alpha, beta).
    // The index is the move's rank in the root list (PV move, late-move reduction), not
    // just a way to reach the element.
    #[allow(clippy::needless_range_loop)]
    fn root_search(
        &mut self,
        root: &mut [RootMove],
        pv_idx: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        report: &mut dyn FnMut(&Info) -> bool,
    ) -> i32 {
        let mut best = -INF;
        let mut best_move = Move::NULL;
        self.evals[0] = if self.board.in_check() { -INF } else { self.evaluate() };
        for i in pv_idx..root.len() {
            let m = root[i].mv;
            self.pv_len[1] = 1;
            self.moves_played[0] = m;
            self.make(m);
            self.cont_rows[0] = cont_row(self.board.piece_at(m.to()), m.to());
            let gives_check = self.board.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let score = if i == pv_idx {
                -self.search(new_depth, -beta, -alpha, 1, true, false)
            } else {
                // Late quiet root moves are reduced by one ply when deep enough.
                let quiet = !gives_check && !is_tactical_after(&self.board, m);
                let r = if depth >= 3 && i >= pv_idx + 4 && quiet { 1 } else { 0 };
                let mut sc = -self.search(new_depth - r, -alpha - 1, -alpha, 1, false, true);
                if sc > alpha && r > 0 && !self.stopped {
                    sc = -self.search(new_depth, -alpha - 1, -alpha, 1, false, true);
                }
                if sc > alpha && sc < beta && !self.stopped {
                    sc = -self.search(new_depth, -beta, -alpha, 1, true, false);
                }
                sc
            };
            self.unmake();
            if self.stopped {
                break;
            }
            let rm = &mut root[i];
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.depth = depth as u32;
                rm.seldepth = self.seldepth as u32;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                // A new best move in the middle of a long iteration is worth reporting.
                if i != pv_idx && pv_idx == 0 && score > alpha && self.start.elapsed() > Duration::from_secs(1) {
                    let line = Line {
                        multipv: 1,
                        score,
                        bound: if score >= beta { Bound::Lower } else { Bound::Exact },
                        depth: depth as u32,
                        seldepth: rm.seldepth,
                        pv: rm.pv.clone(),
                    };
                    let info = Info {
                        lines: vec![line],
                        depth: depth as u32,
                        seldepth: self.seldepth as u32,
                        nodes: self.total_nodes(),
                        elapsed: self.start.elapsed(),
                        hashfull: self.tt.hashfull(),
                        tbhits: self.tbhits,
                        complete: false,
                    };
                    if !report(&info) {
                        self.stopped = true;
                    }
                }
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                best_move = m;
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
            if self.stopped {
                break;
            }
        }
        if !self.stopped && !best_move.is_null() && pv_idx == 0 {
            let bound = if best >= beta { BOUND_LOWER } else { BOUND_EXACT };
            self.tt.store(self.board.key(), best_move, score_to_tt(best, 0), self.evals[0], depth, bound);
        }
        best
    }
}
