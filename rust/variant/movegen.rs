//! Move generation from the piece tables: pseudo-legal moves per piece, castling and en
//! passant as side effects of the king's and pawn's moves, the attack test, and legality.
//!
//! Legality is tested by making the move and asking whether the royal piece is attacked,
//! except where that cannot change: when the side is not in check, a move of a non-royal
//! piece from a square that no enemy rider, hopper or lame leg could see the royal piece
//! through (and, if the enemy has hoppers, to such a square) is legal as generated. That
//! shortcut is what keeps orthodox chess within a small factor of the fast generator.

use super::betza::Hop;
use super::board::{color, kind, VBoard, VMove, CASTLE, CASTLE_BITS, DOUBLE, EMPTY, EN_PASSANT, NORMAL, OFF};
use super::tables::RayKind;
use super::def::GameValue;

/// Where generated moves go: a move list, or a counter for the leaves of perft (bulk
/// counting without storing the moves of pieces that need no legality test).
pub(crate) trait Sink {
    fn add(&mut self, m: VMove);
}

impl Sink for Vec<VMove> {
    #[inline]
    fn add(&mut self, m: VMove) {
        self.push(m);
    }
}

/// Counts moves instead of storing them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn add(&mut self, _m: VMove) {
        self.0 += 1;
    }
}

impl VBoard {
    /// Whether square `s` is attacked by a piece of colour `by`.
    pub(crate) fn attacked(&self, s: u8, by: usize) -> bool {
        let cells = &self.cells;
        let present = self.present[by];
        for ray in &self.c.rays[by] {
            if ray.any & present == 0 {
                continue;
            }
            match ray.kind {
                RayKind::Slide if ray.uniform => {
                    // Codes are below 64; OFF (255) and EMPTY (0) are in no code set.
                    let mut p = s as i16 - ray.delta;
                    let cell = cells[p as usize];
                    if cell != EMPTY {
                        if cell < 64 && ray.near_codes & (1 << cell) != 0 {
                            return true;
                        }
                        continue;
                    }
                    if ray.far_codes == 0 {
                        continue;
                    }
                    p -= ray.delta;
                    while cells[p as usize] == EMPTY {
                        p -= ray.delta;
                    }
                    let cell = cells[p as usize];
                    if cell < 64 && ray.far_codes & (1 << cell) != 0 {
                        return true;
                    }
                }
                RayKind::Slide => {
                    let mut p = s as i16 - ray.delta;
                    let mut d = 1;
                    loop {
                        let cell = cells[p as usize];
                        if cell == OFF {
                            break;
                        }
                        if cell != EMPTY {
                            if color(cell) == by && ray.dist_mask[d] & (1 << kind(cell)) != 0 {
                                return true;
                            }
                            break;
                        }
                        if d == ray.max_dist {
                            break;
                        }
                        d += 1;
                        p -= ray.delta;
                    }
                }
                RayKind::Lame(block) => {
                    let a = s as i16 - ray.delta;
                    let cell = cells[a as usize];
                    if cell != OFF && cell != EMPTY && color(cell) == by && ray.any & (1 << kind(cell)) != 0 && cells[(a + block) as usize] == EMPTY {
                        return true;
                    }
                }
                RayKind::Cannon | RayKind::Grasshopper => {
                    let mut p = s as i16 - ray.delta;
                    if ray.kind == RayKind::Cannon {
                        while cells[p as usize] == EMPTY {
                            p -= ray.delta;
                        }
                    }
                    // p is the screen (must be a piece), then the attacker is the next piece.
                    if cells[p as usize] == OFF || cells[p as usize] == EMPTY {
                        continue;
                    }
                    p -= ray.delta;
                    while cells[p as usize] == EMPTY {
                        p -= ray.delta;
                    }
                    let cell = cells[p as usize];
                    if cell != OFF && color(cell) == by && ray.any & (1 << kind(cell)) != 0 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether the side to move's royal piece is attacked.
    pub fn in_check(&self) -> bool {
        let k = self.royal_sq[self.side];
        k != 0 && self.attacked(k, 1 - self.side)
    }

    /// Pawn moves to `to`, with promotions where the pawn reaches the promotion zone.
    fn pawn_moves<S: Sink>(&self, from: u8, to: u8, out: &mut S) {
        let v = &self.c.variant;
        let us = self.side;
        if self.c.relative_rank(to, us) + 1 >= v.promotion_rank as usize {
            for &t in &v.promotion_types {
                let limit = v.promotion_limit[t];
                if limit == 0 || u32::from(self.tcount[us][t]) < limit {
                    out.add(VMove { from, to, promo: t as u8 + 1, kind: NORMAL, rook: 0 });
                }
            }
            if v.mandatory_promotion {
                return;
            }
        }
        out.add(VMove { from, to, promo: 0, kind: NORMAL, rook: 0 });
    }

    /// The pseudo-legal moves of the piece on `from` (castling not included).
    pub(crate) fn piece_moves<S: Sink>(&self, from: u8, out: &mut S) {
        let cells = &self.cells;
        let us = self.side;
        let t = kind(cells[from as usize]);
        let is_pawn = Some(t) == self.c.pawn;
        for st in &self.c.steps[us][t] {
            let mut p = from as i16 + st.delta;
            match st.hop {
                Hop::None => {
                    if st.block != 0 && cells[(from as i16 + st.block) as usize] != EMPTY {
                        continue;
                    }
                    let mut n = 1;
                    loop {
                        let cell = cells[p as usize];
                        if cell == OFF {
                            break;
                        }
                        if cell == EMPTY {
                            if st.can_move {
                                if is_pawn {
                                    self.pawn_moves(from, p as u8, out);
                                } else {
                                    out.add(VMove { from, to: p as u8, promo: 0, kind: NORMAL, rook: 0 });
                                }
                            } else if is_pawn && p as u8 == self.ep && self.ep != 0 && st.can_capture {
                                out.add(VMove { from, to: p as u8, promo: 0, kind: EN_PASSANT, rook: 0 });
                            }
                        } else {
                            if color(cell) != us && st.can_capture {
                                if is_pawn {
                                    self.pawn_moves(from, p as u8, out);
                                } else {
                                    out.add(VMove { from, to: p as u8, promo: 0, kind: NORMAL, rook: 0 });
                                }
                            }
                            break;
                        }
                        if n >= st.range {
                            break;
                        }
                        n += 1;
                        p += st.delta;
                    }
                }
                Hop::Cannon | Hop::Grasshopper => {
                    while cells[p as usize] == EMPTY {
                        p += st.delta;
                    }
                    if cells[p as usize] == OFF {
                        continue;
                    }
                    p += st.delta;
                    loop {
                        let cell = cells[p as usize];
                        if cell == OFF {
                            break;
                        }
                        if cell == EMPTY {
                            if st.can_move {
                                out.add(VMove { from, to: p as u8, promo: 0, kind: NORMAL, rook: 0 });
                            }
                        } else {
                            if color(cell) != us && st.can_capture {
                                out.add(VMove { from, to: p as u8, promo: 0, kind: NORMAL, rook: 0 });
                            }
                            break;
                        }
                        if st.hop == Hop::Grasshopper {
                            break;
                        }
                        p += st.delta;
                    }
                }
            }
        }
        // The pawn's double step from its double-step rank, over an empty square.
        if is_pawn && self.c.variant.double_step && self.c.relative_rank(from, us) + 1 == self.c.variant.double_step_rank as usize {
            let fwd = self.forward(us);
            let mid = from as i16 + fwd;
            let to = mid + fwd;
            if cells[mid as usize] == EMPTY && cells[to as usize] == EMPTY {
                out.add(VMove { from, to: to as u8, promo: 0, kind: DOUBLE, rook: 0 });
            }
        }
    }

    /// Castling moves of the side to move; generated only when fully legal (not in check,
    /// path empty, the king's squares not attacked), as Fairy-Stockfish does.
    pub(crate) fn castling_moves(&self, in_check: bool, out: &mut Vec<VMove>) {
        let us = self.side;
        if in_check || self.castling & (CASTLE_BITS[us][0] | CASTLE_BITS[us][1]) == 0 {
            return;
        }
        let c = &self.c;
        let ksq = self.royal_sq[us];
        if ksq == 0 {
            return;
        }
        let rank = c.rank_of[ksq as usize] as usize;
        for (side, &bit) in CASTLE_BITS[us].iter().enumerate() {
            if self.castling & bit == 0 {
                continue;
            }
            let rsq = self.castle_rook[us][side];
            let kfile = if side == 0 { c.variant.castling_kingside_file } else { c.variant.castling_queenside_file } as usize;
            let kto = c.square(kfile, rank);
            let rto = if side == 0 { kto - 1 } else { kto + 1 };
            let span = |a: u8, b: u8| if a < b { a..=b } else { b..=a };
            let clear = span(rsq, rto).chain(span(ksq, kto)).all(|s| s == ksq || s == rsq || self.cells[s as usize] == EMPTY);
            if !clear {
                continue;
            }
            let safe = span(ksq, kto).all(|s| s == ksq || !self.attacked(s, 1 - us));
            if safe {
                out.push(VMove { from: ksq, to: kto, promo: 0, kind: CASTLE, rook: rsq });
            }
        }
    }

    /// All pseudo-legal moves (castling included, already legal).
    pub(crate) fn pseudo_moves(&self, in_check: bool, out: &mut Vec<VMove>) {
        let us = self.side;
        for i in 0..self.pcount[us] {
            self.piece_moves(self.plist[us][i], out);
        }
        if self.c.variant.castling {
            self.castling_moves(in_check, out);
        }
    }

    /// Marks the squares a piece may not leave (or enter) without the make-and-test.
    /// Against riders and lame leapers that is the pinned pieces: an own piece that is the
    /// only one between the royal piece and an enemy rider that would attack along that
    /// line, or that blocks the leg of an enemy lame leaper aimed at it. Against hoppers
    /// (whose attacks a move can create as well as uncover) it is every square on a
    /// hopper's line through the royal piece.
    fn mark_pins(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark = [0; super::board::CELLS];
            self.stamp = 1;
        }
        let us = self.side;
        let them = 1 - us;
        let k = self.royal_sq[us] as i16;
        let present = self.present[them];
        let c = &*self.c;
        let cells = &self.cells;
        let mark = &mut self.mark;
        let stamp = self.stamp;
        for ray in &c.rays[them] {
            if ray.any & present == 0 {
                continue;
            }
            match ray.kind {
                RayKind::Lame(block) => {
                    let a = k - ray.delta;
                    let cell = cells[a as usize];
                    if cell != OFF && cell != EMPTY && color(cell) == them && ray.any & (1 << kind(cell)) != 0 {
                        mark[(a + block) as usize] = stamp;
                    }
                }
                RayKind::Slide => {
                    if ray.max_dist <= 1 {
                        continue;
                    }
                    let mut p = k - ray.delta;
                    let mut d = 1;
                    let mut candidate: i16 = -1;
                    loop {
                        let cell = cells[p as usize];
                        if cell == OFF {
                            break;
                        }
                        if cell != EMPTY {
                            if color(cell) == us {
                                if candidate >= 0 {
                                    break;
                                }
                                candidate = p;
                            } else {
                                if candidate >= 0 && ray.dist_mask[d] & (1 << kind(cell)) != 0 {
                                    mark[candidate as usize] = stamp;
                                }
                                break;
                            }
                        }
                        if d == ray.max_dist {
                            break;
                        }
                        d += 1;
                        p -= ray.delta;
                    }
                }
                RayKind::Cannon | RayKind::Grasshopper => {
                    let mut p = k - ray.delta;
                    while cells[p as usize] != OFF {
                        mark[p as usize] = stamp;
                        p -= ray.delta;
                    }
                }
            }
        }
    }

    /// Whether the game is over by the extinction rule (shatranj's bare king): then there
    /// are no legal moves, as in Fairy-Stockfish.
    pub(crate) fn extinct(&self) -> Option<GameValue> {
        let ext = self.c.variant.extinction.as_ref()?;
        let us = self.side;
        let count = |col: usize, t: Option<usize>| -> u32 {
            match t {
                None => self.pcount[col] as u32,
                Some(t) => u32::from(self.tcount[col][t]),
            }
        };
        for col in [0, 1] {
            for &t in &ext.types {
                let claim = u32::from(ext.claim && col == us);
                if count(col, t) <= ext.count && count(1 - col, t) >= ext.opponent_count + claim {
                    let v = ext.value;
                    return Some(if col == us {
                        v
                    } else {
                        match v {
                            GameValue::Win => GameValue::Loss,
                            GameValue::Loss => GameValue::Win,
                            GameValue::Draw => GameValue::Draw,
                        }
                    });
                }
            }
        }
        None
    }

    /// Filters pseudo-legal `moves` down to the legal ones, in place.
    pub(crate) fn filter_legal(&mut self, check: bool, moves: &mut Vec<VMove>) {
        if !check && self.royal_sq[self.side] != 0 {
            self.mark_pins();
        }
        self.filter_marked(check, moves);
    }

    /// `filter_legal` once `mark_pins` has run for this position (when not in check).
    fn filter_marked(&mut self, check: bool, moves: &mut Vec<VMove>) {
        let us = self.side;
        let royal = self.c.royal;
        let hoppers = self.c.has_hoppers[1 - us];
        let immobility = self.c.variant.immobility_illegal;
        let mut i = 0;
        while i < moves.len() {
            let m = moves[i];
            let t = kind(self.cells[m.from as usize]);
            let ok = if immobility && m.promo == 0 && m.kind != CASTLE && m.kind != EN_PASSANT && self.c.immobile[us][t][m.to as usize] {
                false
            } else if m.kind == CASTLE
                || self.royal_sq[us] == 0
                || (!check
                    && Some(t) != royal
                    && m.kind != EN_PASSANT
                    && self.mark[m.from as usize] != self.stamp
                    && (!hoppers || self.mark[m.to as usize] != self.stamp))
            {
                // Castling is generated legal; without a royal piece every move is legal;
                // a piece that is not pinned cannot expose the royal piece.
                true
            } else if Some(t) == royal && m.kind == NORMAL {
                // The royal piece steps to `to`: is `to` attacked once it has left `from`
                // (and taken whatever stood on `to`)? Tested in place, without make/unmake.
                let (from, to) = (m.from as usize, m.to as usize);
                let (mover, taken) = (self.cells[from], self.cells[to]);
                self.cells[from] = EMPTY;
                self.cells[to] = mover;
                let bad = self.attacked(m.to, 1 - us);
                self.cells[to] = taken;
                self.cells[from] = mover;
                !bad
            } else {
                self.make(m);
                let bad = self.attacked(self.royal_sq[us], 1 - us);
                self.unmake();
                !bad
            };
            if ok {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
    }

    /// The legal moves (none once the game has ended by extinction).
    pub fn legal_moves_into(&mut self, out: &mut Vec<VMove>) {
        out.clear();
        if self.extinct().is_some() {
            return;
        }
        let check = self.in_check();
        self.pseudo_moves(check, out);
        self.filter_legal(check, out);
    }

    /// The number of legal moves (perft's leaves), storing and testing only the moves of
    /// the royal piece, of pinned pieces and en passant captures; `buf` is scratch space.
    pub(crate) fn count_legal(&mut self, buf: &mut Vec<VMove>) -> u64 {
        let us = self.side;
        let c = self.c.clone();
        let check = self.in_check();
        if check || self.royal_sq[us] == 0 || c.variant.immobility_illegal || c.has_hoppers[1 - us] || self.extinct().is_some() {
            self.legal_moves_into(buf);
            return buf.len() as u64;
        }
        self.mark_pins();
        let mut counter = Counter(0);
        buf.clear();
        for i in 0..self.pcount[us] {
            let from = self.plist[us][i];
            let t = kind(self.cells[from as usize]);
            let careful = Some(t) == c.royal || self.mark[from as usize] == self.stamp || (self.ep != 0 && Some(t) == c.pawn);
            if careful {
                self.piece_moves(from, buf);
            } else {
                self.piece_moves(from, &mut counter);
            }
        }
        if c.variant.castling {
            self.castling_moves(false, buf);
        }
        self.filter_marked(false, buf);
        counter.0 + buf.len() as u64
    }

    pub fn legal_moves(&mut self) -> Vec<VMove> {
        let mut v = Vec::with_capacity(128);
        self.legal_moves_into(&mut v);
        v
    }

    /// The legal move written `text` (UCI, as Fairy-Stockfish writes it), generating only the
    /// moves of the piece on its from-square. Err(true) if the text is not a move at all,
    /// Err(false) if it is well formed but not legal here.
    pub fn parse_move(&mut self, text: &str) -> Result<VMove, bool> {
        let c = self.c.clone();
        let b = text.as_bytes();
        let (from, n1) = c.parse_square(b).ok_or(true)?;
        let (to, n2) = c.parse_square(&b[n1..]).ok_or(true)?;
        let rest = &text[n1 + n2..];
        let promo = match rest.len() {
            0 => 0,
            1 => {
                let t = c.variant.type_of_letter(rest.chars().next().unwrap_or(' ')).ok_or(true)?;
                if rest.chars().next().is_some_and(|ch| ch.is_ascii_uppercase()) {
                    return Err(true);
                }
                t as u8 + 1
            }
            _ => return Err(true),
        };
        let cell = self.cells[from as usize];
        if cell == EMPTY || color(cell) != self.side || self.extinct().is_some() {
            return Err(false);
        }
        let mut moves = Vec::with_capacity(64);
        self.piece_moves(from, &mut moves);
        let check = self.in_check();
        if Some(kind(cell)) == c.royal && c.variant.castling {
            self.castling_moves(check, &mut moves);
        }
        moves.retain(|m| m.from == from && m.to == to && m.promo == promo);
        self.filter_legal(check, &mut moves);
        moves.first().copied().ok_or(false)
    }

    /// How the game stands for the side to move: None while it goes on, else the result
    /// for the side to move and the rule that decided it.
    pub fn outcome(&mut self) -> Option<(GameValue, &'static str)> {
        if let Some(v) = self.extinct() {
            return Some((v, "extinction"));
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            return Some(if self.in_check() {
                (self.c.variant.checkmate, "checkmate")
            } else {
                (self.c.variant.stalemate, "stalemate")
            });
        }
        let n = self.c.variant.n_move_rule;
        if n > 0 && self.halfmove >= 2 * n {
            return Some((GameValue::Draw, "n-move rule"));
        }
        None
    }
}

