//! Move generation from the piece tables: pseudo-legal moves per piece, castling and en
//! passant as side effects of the king's and pawn's moves, the attack test, and legality.
//!
//! Legality comes from a check and pin analysis done once per position (`analyse`): out
//! of check, a move of a piece that is neither royal nor pinned is legal as generated; in
//! a single check it is legal when it lands on a square that answers the check; the royal
//! piece's steps are tested in place for attack; a piece pinned along an unlimited ride
//! may move along it (between the royal piece and the pinner, or onto the pinner). Only
//! en passant, the other pins (limited rides, lame leaps), double checks and what the
//! analysis cannot describe (hoppers, whose attacks a move can create) are made and
//! tested. Perft's last ply counts moves without generating them
//! (`count_legal`): the plain leaps and unlimited rides of each piece type are compiled
//! into bitboard tables (`Compiled::plans`), so a piece's moves are a few table lookups
//! and a bit count; everything else (lame leaps, limited riders, hoppers, promotions)
//! goes through the per-step generator. The bitboard code is written once over a word
//! type (`Bits`): u64 on boards of 64 squares or fewer, u128 up to 12x10.

use super::attack::hopper_attacks;
use super::betza::Hop;
use super::board::VBoard;
use super::def::GameValue;
use super::geometry::{color, kind, VMove, CASTLE, CASTLE_BITS, DOUBLE, EMPTY, EN_PASSANT, MAX_PINS, NORMAL, OFF};
use super::tables::{first_bit, Bits, RayKind, BITS};

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
        if is_pawn
            && self.c.variant.double_step
            && self.c.relative_rank(from, us) + 1 == self.c.variant.double_step_rank as usize
        {
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
            if (self.occ[0] | self.occ[1]) & self.castle_path[us][side] != 0 {
                continue;
            }
            let rsq = self.castle_rook[us][side];
            let kfile =
                if side == 0 { c.variant.castling_kingside_file } else { c.variant.castling_queenside_file } as usize;
            let kto = c.square(kfile, rank);
            let span = |a: u8, b: u8| if a < b { a..=b } else { b..=a };
            let safe = span(ksq, kto).all(|s| s == ksq || !self.attacked(s, 1 - us));
            if safe {
                out.push(VMove { from: ksq, to: kto, promo: 0, kind: CASTLE, rook: rsq });
            }
        }
    }

    /// All pseudo-legal moves (castling included, already legal).
    pub(crate) fn pseudo_moves(&self, in_check: bool, out: &mut Vec<VMove>) {
        if self.c.narrow {
            self.pseudo_moves_w::<u64>(out);
        } else {
            self.pseudo_moves_w::<u128>(out);
        }
        if self.c.variant.castling {
            self.castling_moves(in_check, out);
        }
    }

    /// `pseudo_moves` without castling, on a bitboard word (`Bits`).
    #[inline(always)]
    fn pseudo_moves_w<B: Bits>(&self, out: &mut Vec<VMove>) {
        let us = self.side;
        let c = &*self.c;
        let occ = B::of(self.occ[0] | self.occ[1]);
        let (empty, enemy) = (B::of(c.board_bb) & !occ, B::of(self.occ[1 - us]));
        let pawn = c.pawn.unwrap_or(usize::MAX);
        for &from in &self.plist[us][..self.pcount[us]] {
            let t = kind(self.cells[from as usize]);
            // Destinations from the bitboards, but for the pawn's side effects (promotion,
            // en passant: `piece_moves`).
            let is_pawn = t == pawn;
            if c.plans[us][t].simple && (!is_pawn || (self.ep == 0 && !c.promo_near[us][from as usize])) {
                let mut to = self.reach::<B>(t, c.bit[from as usize] as usize, occ, empty, enemy);
                while to != B::ZERO {
                    out.push(VMove {
                        from,
                        to: c.sq_of_bit[to.lowest() & (BITS - 1)],
                        promo: 0,
                        kind: NORMAL,
                        rook: 0,
                    });
                    to = to.less_lowest();
                }
                if is_pawn && c.double_from[us][from as usize] {
                    let fwd = self.forward(us);
                    let mid = from as i16 + fwd;
                    if self.cells[mid as usize] == EMPTY && self.cells[(mid + fwd) as usize] == EMPTY {
                        out.push(VMove { from, to: (mid + fwd) as u8, promo: 0, kind: DOUBLE, rook: 0 });
                    }
                }
            } else {
                self.piece_moves(from, out);
            }
        }
    }

    /// Check and pin information against the side to move's royal piece, found once per
    /// node by looking outwards from it along the enemy's attacks, so that most moves need
    /// no make-and-test. Sets `check` (0 none, 1 one check that `cmask` describes, 2 a
    /// double check or a hopper's check: test by making), `pinned` (the squares a move may
    /// not leave, or against hoppers enter, untested) and `cmask` (the squares on which a
    /// move answers a single check).
    ///
    /// Leapers only check (answered by capturing them). Riders and limited riders pin: an
    /// own piece that is the only one between the royal piece and an enemy that would
    /// attack along that line from there; their checks are answered on the squares between
    /// and on the checker's. A lame leaper's leg square is pinned when an own piece blocks
    /// it (moving it uncovers the attack); its check is answered on the leg square or the
    /// leaper's. A hopper's attacks a move can create as well as uncover, so every square
    /// on a hopper's line through the royal piece is marked, and its check is left to the
    /// make-and-test. Plain leaps and unlimited rides go through the bitboards; the rest
    /// along the mailbox rays (`Compiled::rays`).
    pub(crate) fn analyse(&mut self) {
        let us = self.side;
        let them = 1 - us;
        let k = self.royal_sq[us];
        self.pinned = 0;
        self.cmask = 0;
        self.check = 0;
        self.npins = 0;
        self.pin_hard = 0;
        if k == 0 {
            return;
        }
        let present = self.present[them];
        let own = |cell: u8| cell != EMPTY && cell != OFF && color(cell) == us;
        let (mut check, mut pinned, mut cmask) =
            if self.c.narrow { self.analyse_bits::<u64>(k, them) } else { self.analyse_bits::<u128>(k, them) };
        let c = &*self.c;
        let cells = &self.cells;
        // What the mailbox rays mark (pins there, hoppers' lines).
        let mut marked = 0u128;
        let k = k as i16;
        for ray in &c.rays[them] {
            if ray.any & present == 0 {
                continue;
            }
            match ray.kind {
                RayKind::Slide => {
                    // A limited-range rider: attacks depend on the distance.
                    let mut p = k - ray.delta;
                    let mut dist = 1;
                    let mut between: Option<i16> = None;
                    loop {
                        let cell = cells[p as usize];
                        if cell == OFF {
                            break;
                        }
                        if cell != EMPTY {
                            let hits = color(cell) == them && ray.dist_mask[dist] & (1 << kind(cell)) != 0;
                            if let Some(s) = between {
                                if hits {
                                    marked |= c.sqbb[s as usize];
                                }
                                break;
                            }
                            if color(cell) == us {
                                between = Some(p);
                            } else {
                                if hits {
                                    check += 1;
                                    let mut q = k;
                                    while q != p {
                                        q -= ray.delta;
                                        cmask |= c.sqbb[q as usize];
                                    }
                                }
                                break;
                            }
                        }
                        if dist == ray.max_dist {
                            break;
                        }
                        dist += 1;
                        p -= ray.delta;
                    }
                }
                RayKind::Lame(block) => {
                    let a = k - ray.delta;
                    let cell = cells[a as usize];
                    if cell != OFF && cell != EMPTY && color(cell) == them && ray.any & (1 << kind(cell)) != 0 {
                        let leg = (a + block) as usize;
                        let lc = cells[leg];
                        if lc == EMPTY {
                            check += 1;
                            cmask |= c.sqbb[a as usize] | c.sqbb[leg];
                        } else if own(lc) {
                            marked |= c.sqbb[leg];
                        }
                    }
                }
                RayKind::Cannon | RayKind::Grasshopper => {
                    let mut p = k - ray.delta;
                    while cells[p as usize] != OFF {
                        marked |= c.sqbb[p as usize];
                        p -= ray.delta;
                    }
                    // Its check: a screen, then the hopper.
                    if hopper_attacks(cells, k, ray, them) {
                        check = 2;
                    }
                }
            }
        }
        // Squares the mailbox rays marked are made and tested.
        self.pin_hard |= marked;
        pinned |= marked;
        self.pinned = pinned;
        self.cmask = cmask;
        self.check = check.min(2) as u8;
    }
    /// The bitboard half of `analyse` (plain leaps and unlimited rides): (checks, pinned
    /// squares, squares answering the check) against the royal piece on `k`. Records the
    /// pins along rides (`pin_bit`, `pin_ray`, `pin_hard`).
    #[inline(always)]
    fn analyse_bits<B: Bits>(&mut self, k: u8, them: usize) -> (u32, u128, u128) {
        let us = 1 - them;
        let c = &*self.c;
        let cells = &self.cells;
        let mut check = 0u32;
        let mut pinned = B::ZERO;
        let mut cmask = B::ZERO;
        let (mut npins, mut hard) = (0usize, 0u128);
        // Codes are below 64; OFF (255) and EMPTY (0) are in no code set.
        let is_in = |codes: u64, cell: u8| cell < 64 && codes & (1 << cell) != 0;
        let own = |cell: u8| cell != EMPTY && cell != OFF && color(cell) == us;
        let b = c.bit[k as usize] as usize & (BITS - 1);
        let near = B::of(c.leap_any[them & 1][b]) & B::of(self.occ[them]) != B::ZERO;
        let mut types = if near { c.leap_types[them] & self.present[them] } else { 0 };
        while types != 0 {
            let t = types.trailing_zeros() as usize;
            types &= types - 1;
            let att = B::of(c.leap_att[them & 1][t & 31][b]) & B::of(self.tbb[them & 1][t & 31]);
            // One checker, or two (or more: all that matters is more than one).
            check += u32::from(att != B::ZERO) + u32::from(att.less_lowest() != B::ZERO);
            cmask |= att;
        }
        let riders = self.riders::<B>(b, them);
        if riders != B::ZERO {
            let occ = B::of(self.occ[0] | self.occ[1]);
            // Only the lines that hold a rider: no check nor pin along the others.
            let mut dirs = self.ride_dirs(b, them, riders);
            while dirs != 0 {
                let r = &c.ride_att[them][dirs.trailing_zeros() as usize];
                dirs &= dirs - 1;
                let rays = c.rays(r.dir as usize);
                let ray = B::of(rays[b]);
                if ray & riders == B::ZERO {
                    continue;
                }
                let blockers = ray & occ;
                let first = first_bit(blockers, r.up);
                let cell = cells[c.sq_of_bit[first] as usize];
                if is_in(r.codes, cell) {
                    check += 1;
                    cmask |= ray & !B::of(rays[first]);
                } else if own(cell) {
                    let rest = blockers ^ B::of(1u128 << first);
                    let second = first_bit(rest, r.up);
                    if rest != B::ZERO && is_in(r.codes, cells[c.sq_of_bit[second] as usize]) {
                        let sq = 1u128 << first;
                        // Pinned along two lines (rides whose rays share squares), or more
                        // pins than the list holds: made and tested.
                        if pinned & B::of(sq) != B::ZERO || npins == MAX_PINS {
                            hard |= sq;
                        } else {
                            self.pin_bit[npins] = first as u8;
                            self.pin_ray[npins] = (ray & !B::of(rays[second])).wide();
                            npins += 1;
                        }
                        pinned |= B::of(sq);
                    }
                }
            }
        }
        self.npins = npins;
        self.pin_hard = hard;
        (check, pinned.wide(), cmask.wide())
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

    /// Filters pseudo-legal `moves` down to the legal ones, in place, once `analyse` has
    /// run for this position.
    fn filter_marked(&mut self, moves: &mut Vec<VMove>) {
        let us = self.side;
        let royal = self.c.royal;
        let hoppers = self.c.has_hoppers[1 - us];
        let immobility = self.c.variant.immobility_illegal;
        let has_royal = self.royal_sq[us] != 0;
        let check = self.check;
        let (pinned, cmask, hard) = (self.pinned, self.cmask, self.pin_hard);
        let mut i = 0;
        while i < moves.len() {
            let m = moves[i];
            let t = kind(self.cells[m.from as usize]);
            let (from, to) = (m.from as usize, m.to as usize);
            let ok =
                if immobility && m.promo == 0 && m.kind != CASTLE && m.kind != EN_PASSANT && self.c.immobile[us][t][to]
                {
                    false
                } else if m.kind == CASTLE || !has_royal {
                    // Castling is generated legal; without a royal piece every move is legal.
                    true
                } else if Some(t) == royal && m.kind == NORMAL {
                    // The royal piece steps to `to`: is `to` attacked once it has left `from`
                    // (and taken whatever stood on `to`)? Tested in place, without make/unmake.
                    let (mover, taken) = (self.cells[from], self.cells[to]);
                    self.cells[from] = EMPTY;
                    self.cells[to] = mover;
                    let occ = ((self.occ[0] | self.occ[1]) & !self.c.sqbb[from]) | self.c.sqbb[to];
                    let bad = self.attacked_occ(m.to, 1 - us, occ);
                    self.cells[to] = taken;
                    self.cells[from] = mover;
                    !bad
                } else if Some(t) == royal
                    || m.kind == EN_PASSANT
                    || check == 2
                    || hard & self.c.sqbb[from] != 0
                    || (hoppers && pinned & self.c.sqbb[to] != 0)
                {
                    self.make(m);
                    let bad = self.attacked(self.royal_sq[us], 1 - us);
                    self.unmake();
                    !bad
                } else {
                    // A piece that is not pinned cannot expose the royal piece, one pinned along
                    // a ride must stay on it; in check, it must capture the checker or stand in
                    // its way.
                    let to_bb = self.c.sqbb[to];
                    (check == 0 || cmask & to_bb != 0)
                        && (pinned & self.c.sqbb[from] == 0 || self.pin_allowed(self.c.bit[from] as usize) & to_bb != 0)
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
        self.analyse();
        self.pseudo_moves(self.check != 0, out);
        self.filter_marked(out);
    }

    /// Where the piece of type `t` (a simple plan, see `Compiled::plans`) of the side to
    /// move on bit `b` may go: its leaps, then each ride's ray up to and including the
    /// first piece on it, by what each may do there (`empty` and `enemy` squares).
    #[inline(always)]
    fn reach<B: Bits>(&self, t: usize, b: usize, occ: B, empty: B, enemy: B) -> B {
        let c = &*self.c;
        let us = self.side;
        let plan = c.plans[us][t];
        let b = b & (BITS - 1);
        let [to_move, to_capture] = c.leapbb[us * c.ntypes + t][b];
        let (mut to_move, mut to_capture) = (B::of(to_move), B::of(to_capture));
        for r in &c.rsteps[plan.start as usize..plan.end as usize] {
            let rays = c.rays(r.dir as usize);
            let ray = B::of(rays[b]);
            let stop = if r.up { B::TOP } else { B::ONE };
            let reach = ray & !B::of(rays[first_bit((ray & occ) | stop, r.up)]);
            to_move |= reach & B::mask(r.mode & 1 != 0);
            to_capture |= reach & B::mask(r.mode & 2 != 0);
        }
        (to_move & empty) | (to_capture & enemy)
    }

    /// The number of legal moves (perft's leaves). Out of check, the moves of pieces that
    /// are neither royal nor pinned are counted from their plans (`Compiled::plans`)
    /// without being generated; the rest (the royal piece, pinned pieces, pawns when en
    /// passant is possible, pieces that may be immobile) are generated into `buf` (scratch
    /// space) and filtered. In check every move is generated and filtered.
    #[inline(always)] // into perft's popcnt copy (see `perft::count`)
    pub(crate) fn count_legal(&mut self, buf: &mut Vec<VMove>) -> u64 {
        let us = self.side;
        if self.royal_sq[us] == 0
            || self.c.has_hoppers[1 - us]
            || (self.c.variant.extinction.is_some() && self.extinct().is_some())
        {
            self.legal_moves_into(buf);
            return buf.len() as u64;
        }
        self.analyse();
        buf.clear();
        if self.check != 0 {
            self.pseudo_moves(true, buf);
            self.filter_marked(buf);
            return buf.len() as u64;
        }
        if self.c.narrow {
            self.count_bits::<u64>(buf)
        } else {
            self.count_bits::<u128>(buf)
        }
    }

    /// `count_legal` out of check, once `analyse` has run, on a bitboard word (`Bits`).
    #[inline(always)]
    fn count_bits<B: Bits>(&mut self, buf: &mut Vec<VMove>) -> u64 {
        let us = self.side;
        let c = &*self.c;
        let cells = &self.cells;
        // usize::MAX: no such type.
        let pawn = c.pawn.unwrap_or(usize::MAX);
        let royal = c.royal.unwrap_or(usize::MAX);
        let immobility = c.variant.immobility_illegal;
        let fwd = self.forward(us) as u8;
        let occ = B::of(self.occ[0] | self.occ[1]);
        let board = B::of(c.board_bb);
        let empty = board & !occ;
        let enemy = B::of(self.occ[1 - us]);
        let not_own = board & !B::of(self.occ[us]);
        let pinned = B::of(self.pinned);
        let leaps = &c.leapbb[us * c.ntypes..];
        let mut n: u64 = 0;
        let mut counter = Counter(0);
        // The pawns neither pinned nor near promotion, all at once: each leap as a shift.
        let bulk = if c.pawn_bulk { B::of(self.tbb[us][pawn] & !c.promo_near_bb[us]) & !pinned } else { B::ZERO };
        if bulk != B::ZERO {
            for pl in &c.pawn_leaps[us] {
                let src = bulk & B::of(pl.from);
                let dst = if pl.shift >= 0 { src << pl.shift as u32 } else { src >> (-pl.shift) as u32 };
                let may = (empty & B::mask(pl.mode & 1 != 0)) | (enemy & B::mask(pl.mode & 2 != 0));
                n += u64::from((dst & may).ones());
            }
            if self.ep != 0 {
                // En passant (a capture-only step onto the empty en passant square), tested
                // by making it.
                for pl in c.pawn_leaps[us].iter().filter(|pl| pl.mode == 2) {
                    let from = (self.ep as i16 - pl.delta) as u8;
                    if bulk & B::of(c.sqbb[from as usize]) != B::ZERO {
                        buf.push(VMove { from, to: self.ep, promo: 0, kind: EN_PASSANT, rook: 0 });
                    }
                }
            }
            let two = bulk & B::of(c.double_bb[us]);
            if two != B::ZERO {
                let fwd_bits = c.files as u32;
                // Over an empty square to an empty square.
                let arrive = if us == 0 {
                    (((two << fwd_bits) & empty) << fwd_bits) & empty
                } else {
                    (((two >> fwd_bits) & empty) >> fwd_bits) & empty
                };
                n += u64::from(arrive.ones());
            }
        }
        // The royal piece's destinations, tested after the loops (no move list: it has one
        // square).
        let mut royal_from = 0u8;
        let mut royal_to = B::ZERO;
        let mut others = self.present[us];
        let plans = &c.plans[us];
        if royal != usize::MAX && plans[royal].simple {
            others &= !(1 << royal);
            royal_from = self.royal_sq[us];
            royal_to = self.reach(royal, c.bit[royal_from as usize] as usize, occ, empty, enemy);
        }
        // The pieces whose every leap and ride may move and capture (`Compiled::count_fast`),
        // not pinned: the squares each reaches as one bitboard, its leaps, then each ride's
        // ray up to and including the first piece on it.
        let mut types = others & c.count_fast[us];
        others &= !c.count_fast[us];
        while types != 0 {
            let t = types.trailing_zeros() as usize;
            types &= types - 1;
            let plan = &plans[t];
            let leap = &leaps[t];
            let (ups, downs) = plan.dirs[..usize::from(plan.nrides)].split_at(usize::from(plan.nup));
            let mut pieces = B::of(self.tbb[us][t & 31]) & !pinned;
            while pieces != B::ZERO {
                let b = pieces.lowest() & (BITS - 1);
                pieces = pieces.less_lowest();
                let mut to = B::of(leap[b][0]);
                // Rides towards higher bits (the first piece is the lowest bit), then the
                // others (the highest).
                for &d in ups {
                    let rays = c.rays(usize::from(d));
                    let ray = B::of(rays[b]);
                    to |= ray & !B::of(rays[first_bit((ray & occ) | B::TOP, true)]);
                }
                for &d in downs {
                    let rays = c.rays(usize::from(d));
                    let ray = B::of(rays[b]);
                    to |= ray & !B::of(rays[first_bit((ray & occ) | B::ONE, false)]);
                }
                n += u64::from((to & not_own).ones());
            }
        }
        // The other types: neither pinned nor counted with the pawns above.
        while others != 0 {
            let t = others.trailing_zeros() as usize;
            others &= others - 1;
            let plan = &plans[t];
            let mut pieces = B::of(self.tbb[us][t & 31]) & !pinned & !bulk;
            let careful = t == royal || (immobility && plan.may_immobile) || (t == pawn && self.ep != 0);
            while pieces != B::ZERO {
                let b = pieces.lowest() & (BITS - 1);
                pieces = pieces.less_lowest();
                let from = c.sq_of_bit[b];
                if careful {
                    self.piece_moves(from, buf);
                } else if !plan.simple || (t == pawn && c.promo_near[us][from as usize]) {
                    self.piece_moves(from, &mut counter);
                } else {
                    n += u64::from(self.reach(t, b, occ, empty, enemy).ones());
                    if t == pawn && c.double_from[us][from as usize] {
                        let mid = from.wrapping_add(fwd);
                        n += u64::from(cells[mid as usize] == EMPTY && cells[mid.wrapping_add(fwd) as usize] == EMPTY);
                    }
                }
            }
        }
        // Pinned pieces: along their pin ray when they have one and a simple plan, else
        // generated and filtered (made and tested if the pin is not along a ride).
        let mut pins = self.pinned & self.occ[us];
        while pins != 0 {
            let b = pins.trailing_zeros() as usize & (BITS - 1);
            pins &= pins - 1;
            let from = c.sq_of_bit[b];
            let t = kind(cells[from as usize]);
            let sq = c.sqbb[from as usize];
            if self.pin_hard & sq == 0
                && t != pawn
                && t != royal
                && c.plans[us][t].simple
                && !(immobility && c.plans[us][t].may_immobile)
            {
                n += u64::from((self.reach(t, b, occ, empty, enemy) & B::of(self.pin_allowed(b))).ones());
            } else {
                self.piece_moves(from, buf);
            }
        }
        // Each royal destination: is it attacked once the royal piece has left `from` (and
        // taken whatever stood there)? Tested in place; the answers are kept for castling.
        let (mut tested, mut attacked) = (0u128, 0u128);
        let royal_occ = (occ & !B::of(c.sqbb[royal_from as usize])).wide();
        let immobile_royal = immobility && royal != usize::MAX && c.plans[us][royal].may_immobile;
        while royal_to != B::ZERO {
            let to = self.c.sq_of_bit[royal_to.lowest() & (BITS - 1)];
            royal_to = royal_to.less_lowest();
            if immobile_royal && self.c.immobile[us][royal][to as usize] {
                continue;
            }
            let (mover, taken) = (self.cells[royal_from as usize], self.cells[to as usize]);
            self.cells[royal_from as usize] = EMPTY;
            self.cells[to as usize] = mover;
            let hit = self.attacked_occ(to, 1 - us, royal_occ | self.c.sqbb[to as usize]);
            n += u64::from(!hit);
            tested |= self.c.sqbb[to as usize];
            attacked |= u128::mask(hit) & self.c.sqbb[to as usize];
            self.cells[to as usize] = taken;
            self.cells[royal_from as usize] = mover;
        }
        if self.c.variant.castling && self.castling & (CASTLE_BITS[us][0] | CASTLE_BITS[us][1]) != 0 {
            if self.c.rays[1 - us].is_empty() {
                // Out of check, with only plain leaps and rides against it, a square next
                // to the royal piece is attacked with it there exactly when it is without
                // it (a ride through its square would check it): the answers above serve
                // for the squares the king passes.
                let occ = self.occ[0] | self.occ[1];
                for (side, &bit) in CASTLE_BITS[us].iter().enumerate() {
                    if self.castling & bit == 0 || occ & self.castle_path[us][side] != 0 {
                        continue;
                    }
                    let mut squares = self.castle_safe[us][side];
                    let mut safe = squares & attacked == 0;
                    squares &= !tested;
                    while safe && squares != 0 {
                        safe = !self.attacked(self.c.sq_of_bit[squares.trailing_zeros() as usize & (BITS - 1)], 1 - us);
                        squares &= squares - 1;
                    }
                    n += u64::from(safe);
                }
            } else {
                self.castling_moves(false, buf);
            }
        }
        if !buf.is_empty() {
            self.filter_marked(buf);
        }
        n + counter.0 + buf.len() as u64
    }

    pub fn legal_moves(&mut self) -> Vec<VMove> {
        let mut v = Vec::with_capacity(128);
        self.legal_moves_into(&mut v);
        v
    }

    /// UCI text of a move of this position, as Fairy-Stockfish writes it (squares, then the
    /// promotion letter; castling as the king's move, `e1g1`), except for a castling whose
    /// king's move would read as another move of the king (a king on b1 castling to c1 beside
    /// its step to c1) or as no move (the king stays): that one is written as the king taking
    /// its own rook (`b1a1`), as Chess960 UCI writes every castling, so that no two legal
    /// moves share a text.
    pub fn move_text(&self, m: VMove) -> String {
        if m.kind == CASTLE && self.castling_text_collides(m) {
            return format!("{}{}", self.c.square_name(m.from), self.c.square_name(m.rook));
        }
        self.c.move_text(m)
    }

    /// Whether castling `m`'s king-move text also names a (pseudo-legal) move of the king
    /// itself, or no move at all.
    fn castling_text_collides(&self, m: VMove) -> bool {
        if m.to == m.from {
            return true;
        }
        let mut moves: Vec<VMove> = Vec::with_capacity(32);
        self.piece_moves(m.from, &mut moves);
        moves.iter().any(|o| o.to == m.to && o.promo == 0)
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
        self.analyse();
        if Some(kind(cell)) == c.royal && c.variant.castling {
            self.castling_moves(self.check != 0, &mut moves);
        }
        // Castling answers to its own text: the king's destination where that names no other
        // move of the king, and the king taking its own rook always.
        moves.retain(|m| {
            m.from == from
                && m.promo == promo
                && if m.kind == CASTLE {
                    m.rook == to || (m.to == to && !self.castling_text_collides(*m))
                } else {
                    m.to == to
                }
        });
        self.filter_marked(&mut moves);
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
