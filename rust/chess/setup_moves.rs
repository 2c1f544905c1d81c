//! The moves of any position python-chess holds (`Setup`): no king or several, more than
//! sixteen pieces, pawns on a back rank, the side not to move in check. The core's move
//! generator (`movegen`) plays only positions a game can reach; this one answers for the
//! rest as python-chess 1.11 answers, the same moves in the same order, so that a program
//! written for python-chess lists, tests and plays the same moves on kibitz.
//!
//! python-chess's rules for such positions, as its bitboard generator has them:
//!
//! * A pseudo-legal move: any piece of the side to move to a square its attacks reach that
//!   does not hold its own piece; castling; pawn captures, pushes and en passant, a pawn's
//!   single push from the first rank too (and on to the double step when the squares are
//!   empty), promotions onto either back rank.
//! * A legal move: the pseudo-legal moves, filtered against the highest-numbered king of the
//!   side to move (promoted or not); with no king, every pseudo-legal move is legal.
//! * Check: the side to move's highest king that is not promoted is attacked.
//! * Squares are numbered a1 = 0 .. h8 = 63; lists run from the highest square down.
//!
//! It is the slow path (the positions are rare): bitboards made from the placement, each
//! list built whole. The differential tests compare it with python-chess move by move.

use crate::chess::geometry::{diag_attacks, ortho_attacks, KING_ATTACKS, KNIGHT_ATTACKS, PAWN_ATTACKS};
use crate::chess::setup::{msb, Setup};
use crate::chess::types::*;

/// A move of a `Setup` in python-chess's terms: squares a1 = 0, `promotion` a piece kind
/// (0 for none). Castling is the king's two-square step in standard chess (e1g1) and the
/// king onto its rook in Chess960 (e1h1), as python-chess writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetupMove {
    pub from: u8,
    pub to: u8,
    pub promotion: u8,
}

impl SetupMove {
    fn new(from: usize, to: usize, promotion: u8) -> SetupMove {
        SetupMove { from: from as u8, to: to as u8, promotion }
    }
}

const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;
const FILE_A: u64 = 0x0101_0101_0101_0101;

fn bit(s: usize) -> u64 {
    1u64 << s
}

/// The squares of `mask` from the highest down (python-chess's `scan_reversed`).
fn descending(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let s = msb(mask);
            mask ^= bit(s);
            s
        })
    })
}

/// The direction (file step, rank step) from `a` to `b` when they share a line, else None.
fn direction(a: usize, b: usize) -> Option<(i32, i32)> {
    let (df, dr) = ((b % 8) as i32 - (a % 8) as i32, (b / 8) as i32 - (a / 8) as i32);
    (a != b && (df == 0 || dr == 0 || df.abs() == dr.abs())).then_some((df.signum(), dr.signum()))
}

/// The squares from `s` on (excluded) stepping by `(sf, sr)` to the edge.
fn walk(s: usize, (sf, sr): (i32, i32)) -> impl Iterator<Item = usize> {
    let (mut f, mut r) = ((s % 8) as i32, (s / 8) as i32);
    std::iter::from_fn(move || {
        f += sf;
        r += sr;
        ((0..8).contains(&f) && (0..8).contains(&r)).then_some((r * 8 + f) as usize)
    })
}

/// python-chess's `_to_chess960`: a king on e1 (e8) sent to g1 or c1 (g8, c8) where no rook
/// stands is castling written the standard way, with the corner's rook. The target square
/// in king-takes-rook form: the corner for such a move, `to` for any other. `is(square,
/// kind)` tells whether a piece of that kind (either colour) stands on the square.
pub fn to_chess960_target(from: u8, to: u8, promo: u8, is: impl Fn(u8, u8) -> bool) -> u8 {
    if promo != 0 || !(from == 4 || from == 60) || !is(from, KING) || is(to, ROOK) {
        return to;
    }
    let home = from - 4;
    if to == home + 6 {
        home + 7
    } else if to == home + 2 {
        home
    } else {
        to
    }
}

/// The whole line through two squares, both included (python-chess's `ray`); 0 when they
/// share none.
pub fn line(a: usize, b: usize) -> u64 {
    let Some(d) = direction(a, b) else { return 0 };
    let forth = walk(a, d).fold(0, |m, s| m | bit(s));
    let back = walk(a, (-d.0, -d.1)).fold(0, |m, s| m | bit(s));
    forth | back | bit(a)
}

/// The squares strictly between two squares on a line (python-chess's `between`); 0 when
/// they share none.
pub fn between(a: usize, b: usize) -> u64 {
    let Some(d) = direction(a, b) else { return 0 };
    walk(a, d).take_while(|&s| s != b).fold(0, |m, s| m | bit(s))
}

/// A `Setup` as bitboards, with the castling rights its moves use, for listing and testing
/// moves. Made by `Setup::moves`.
pub struct SetupMoves<'a> {
    setup: &'a Setup,
    /// The side to move (0 White, 1 Black).
    us: usize,
    by_color: [u64; 2],
    /// By piece kind (index PAWN..=KING).
    by_kind: [u64; 7],
    occupied: u64,
    /// The castling rights as python-chess's `clean_castling_rights()` gives them.
    castling: u64,
}

impl Setup {
    /// The position's moves as python-chess lists them, with `castling` as the rights its
    /// `clean_castling_rights()` gives (`clean_castling()` for a board without move stack; a
    /// board with moves played keeps the rights as they are).
    pub fn moves(&self, castling: u64) -> SetupMoves<'_> {
        let mut by_color = [0u64; 2];
        let mut by_kind = [0u64; 7];
        for (s, &p) in self.placement.iter().enumerate() {
            if p != EMPTY {
                by_color[color_of(p)] |= bit(s);
                by_kind[kind_of(p) as usize] |= bit(s);
            }
        }
        SetupMoves {
            setup: self,
            us: if self.white_to_move { WHITE } else { BLACK },
            by_color,
            by_kind,
            occupied: by_color[0] | by_color[1],
            castling,
        }
    }
}

impl SetupMoves<'_> {
    /// The side to move (0 White, 1 Black).
    pub fn side(&self) -> usize {
        self.us
    }

    /// The castling rights these moves were made with (python-chess's clean rights).
    pub fn castling(&self) -> u64 {
        self.castling
    }

    /// The piece code on square `s` (EMPTY for none).
    pub fn piece(&self, s: usize) -> u8 {
        self.setup.placement[s]
    }

    fn kind(&self, k: u8) -> u64 {
        self.by_kind[k as usize]
    }

    /// The en-passant square as python-chess reads it (square 0 counts as none).
    fn ep(&self) -> Option<usize> {
        self.setup.ep.filter(|&e| e != 0).map(usize::from)
    }

    /// The squares the piece on `s` attacks (none for an empty square).
    pub fn attacks(&self, s: usize) -> u64 {
        let b = bit(s);
        if b & self.kind(PAWN) != 0 {
            let c = if b & self.by_color[WHITE] != 0 { WHITE } else { BLACK };
            return PAWN_ATTACKS[c][s];
        }
        if b & self.kind(KNIGHT) != 0 {
            return KNIGHT_ATTACKS[s];
        }
        if b & self.kind(KING) != 0 {
            return KING_ATTACKS[s];
        }
        let queens = self.kind(QUEEN);
        let mut out = 0;
        if b & (self.kind(BISHOP) | queens) != 0 {
            out = diag_attacks(s, self.occupied);
        }
        if b & (self.kind(ROOK) | queens) != 0 {
            out |= ortho_attacks(s, self.occupied);
        }
        out
    }

    /// The pieces of colour `c` attacking `s` when the sliders' blockers are `occupied`.
    pub fn attackers(&self, c: usize, s: usize, occupied: u64) -> u64 {
        let queens = self.kind(QUEEN);
        let attackers = KING_ATTACKS[s] & self.kind(KING)
            | KNIGHT_ATTACKS[s] & self.kind(KNIGHT)
            | ortho_attacks(s, occupied) & (self.kind(ROOK) | queens)
            | diag_attacks(s, occupied) & (self.kind(BISHOP) | queens)
            | PAWN_ATTACKS[c ^ 1][s] & self.kind(PAWN);
        attackers & self.by_color[c]
    }

    /// The king of colour `c` that counts for check: the highest one not promoted.
    pub fn king(&self, c: usize) -> Option<usize> {
        let kings = self.by_color[c] & self.kind(KING) & !self.setup.promoted;
        (kings != 0).then(|| msb(kings))
    }

    /// The pieces giving check to the side to move (none without a king).
    pub fn checkers(&self) -> u64 {
        self.king(self.us).map_or(0, |k| self.attackers(self.us ^ 1, k, self.occupied))
    }

    /// Whether the side not to move has its king attacked (python-chess's `was_into_check`).
    pub fn was_into_check(&self) -> bool {
        self.king(self.us ^ 1).is_some_and(|k| self.attackers(self.us, k, self.occupied) != 0)
    }

    /// The move from `king` to `rook` as python-chess writes it: the king's two-square step
    /// in standard chess with the king on e1 (e8) and the rook in a corner.
    fn castling_move(&self, king: usize, rook: usize) -> SetupMove {
        if !self.setup.chess960 {
            let kings = self.kind(KING);
            for home in [4usize, 60] {
                if king == home && kings & bit(home) != 0 {
                    if rook == home + 3 {
                        return SetupMove::new(king, home + 2, 0);
                    }
                    if rook == home - 4 {
                        return SetupMove::new(king, home - 2, 0);
                    }
                }
            }
        }
        SetupMove::new(king, rook, 0)
    }

    fn attacked_for_king(&self, path: u64, occupied: u64) -> bool {
        descending(path).any(|s| self.attackers(self.us ^ 1, s, occupied) != 0)
    }

    /// Castling moves (the pieces on `from_mask`, the rooks on `to_mask`).
    pub fn castling_moves(&self, from_mask: u64, to_mask: u64, out: &mut Vec<SetupMove>) {
        let backrank = if self.us == WHITE { RANK_1 } else { RANK_8 };
        let kings = self.by_color[self.us] & self.kind(KING) & !self.setup.promoted & backrank & from_mask;
        if kings == 0 {
            return;
        }
        let king = kings.trailing_zeros() as usize;
        let kb = bit(king);
        let file = |f: usize| (FILE_A << f) & backrank;
        for rook in descending(self.castling & backrank & to_mask) {
            let rb = bit(rook);
            let (king_to, rook_to) = if rb < kb { (file(2), file(3)) } else { (file(6), file(5)) };
            let king_path = between(king, msb(king_to));
            let rook_path = between(rook, msb(rook_to));
            let blocked = (self.occupied ^ kb ^ rb) & (king_path | rook_path | king_to | rook_to) != 0;
            if !(blocked
                || self.attacked_for_king(king_path | kb, self.occupied ^ kb)
                || self.attacked_for_king(king_to, self.occupied ^ kb ^ rb ^ rook_to))
            {
                out.push(self.castling_move(king, rook));
            }
        }
    }

    /// En-passant captures, legal or not.
    pub fn pseudo_legal_ep(&self, from_mask: u64, to_mask: u64, out: &mut Vec<SetupMove>) {
        let Some(ep) = self.ep() else { return };
        if bit(ep) & to_mask == 0 || bit(ep) & self.occupied != 0 {
            return;
        }
        let fifth = if self.us == WHITE { 0xff << 32 } else { 0xff << 24 };
        let capturers = self.kind(PAWN) & self.by_color[self.us] & from_mask & PAWN_ATTACKS[self.us ^ 1][ep] & fifth;
        out.extend(descending(capturers).map(|c| SetupMove::new(c, ep, 0)));
    }

    fn push_pawn_move(out: &mut Vec<SetupMove>, from: usize, to: usize) {
        if to / 8 == 0 || to / 8 == 7 {
            for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
                out.push(SetupMove::new(from, to, kind));
            }
        } else {
            out.push(SetupMove::new(from, to, 0));
        }
    }

    /// The pseudo-legal moves of the pieces on `from_mask` to `to_mask`.
    pub fn pseudo_legal_moves(&self, from_mask: u64, to_mask: u64, out: &mut Vec<SetupMove>) {
        let ours = self.by_color[self.us];
        for from in descending(ours & !self.kind(PAWN) & from_mask) {
            out.extend(descending(self.attacks(from) & !ours & to_mask).map(|to| SetupMove::new(from, to, 0)));
        }
        if from_mask & self.kind(KING) != 0 {
            self.castling_moves(from_mask, to_mask, out);
        }
        let pawns = self.kind(PAWN) & ours & from_mask;
        if pawns == 0 {
            return;
        }
        for from in descending(pawns) {
            for to in descending(PAWN_ATTACKS[self.us][from] & self.by_color[self.us ^ 1] & to_mask) {
                Self::push_pawn_move(out, from, to);
            }
        }
        let empty = !self.occupied;
        let (single, double) = if self.us == WHITE {
            let single = pawns << 8 & empty;
            (single, single << 8 & empty & (0xff << 16 | 0xff << 24))
        } else {
            let single = pawns >> 8 & empty;
            (single, single >> 8 & empty & (0xff << 40 | 0xff << 32))
        };
        for to in descending(single & to_mask) {
            let from = if self.us == WHITE { to - 8 } else { to + 8 };
            Self::push_pawn_move(out, from, to);
        }
        for to in descending(double & to_mask) {
            let from = if self.us == WHITE { to - 16 } else { to + 16 };
            out.push(SetupMove::new(from, to, 0));
        }
        self.pseudo_legal_ep(from_mask, to_mask, out);
    }

    /// Whether `m` takes en passant (a pawn's diagonal step onto the empty en-passant square).
    pub fn is_en_passant(&self, m: SetupMove) -> bool {
        let (from, to) = (m.from as usize, m.to as usize);
        self.ep() == Some(to)
            && self.kind(PAWN) & bit(from) != 0
            && matches!(from.abs_diff(to), 7 | 9)
            && self.occupied & bit(to) == 0
    }

    /// Whether `m` (pseudo-legal) castles: a king moving two files or onto its own rook.
    pub fn is_castling(&self, m: SetupMove) -> bool {
        let (from, to) = (m.from as usize, m.to as usize);
        self.kind(KING) & bit(from) != 0
            && ((from % 8).abs_diff(to % 8) > 1 || self.kind(ROOK) & self.by_color[self.us] & bit(to) != 0)
    }

    /// python-chess's `pin_mask`: the line a piece of colour `c` on `s` is pinned along to
    /// its king, or every square when it is not pinned (or there is no king).
    pub fn pin_mask(&self, c: usize, s: usize) -> u64 {
        let Some(king) = self.king(c) else { return u64::MAX };
        let sb = bit(s);
        let rooks = self.kind(ROOK) | self.kind(QUEEN);
        let bishops = self.kind(BISHOP) | self.kind(QUEEN);
        let file = (FILE_A << (king % 8)) & !bit(king);
        let rank = (0xffu64 << (king / 8 * 8)) & !bit(king);
        for (rays, sliders) in [(file, rooks), (rank, rooks), (diag_attacks(king, 0), bishops)] {
            if rays & sb != 0 {
                for sniper in descending(rays & sliders & self.by_color[c ^ 1]) {
                    if between(sniper, king) & (self.occupied | sb) == sb {
                        return line(king, sniper);
                    }
                }
                break;
            }
        }
        u64::MAX
    }

    /// Whether taking en passant with the pawn on `capturer` uncovers an attack on `king`
    /// along the rank (or a diagonal) that the two pawns shielded.
    fn ep_skewered(&self, king: usize, capturer: usize, ep: usize) -> bool {
        let last_double = if self.us == WHITE { ep - 8 } else { ep + 8 };
        let occupied = (self.occupied & !bit(last_double) & !bit(capturer)) | bit(ep);
        let theirs = self.by_color[self.us ^ 1];
        let rank = 0xffu64 << (king / 8 * 8);
        let horizontal = ortho_attacks(king, occupied) & rank;
        horizontal & theirs & (self.kind(ROOK) | self.kind(QUEEN)) != 0
            || diag_attacks(king, occupied) & theirs & (self.kind(BISHOP) | self.kind(QUEEN)) != 0
    }

    /// The pieces of the side to move that alone stand between `king` and an enemy slider.
    fn slider_blockers(&self, king: usize) -> u64 {
        let rooks = self.kind(ROOK) | self.kind(QUEEN);
        let bishops = self.kind(BISHOP) | self.kind(QUEEN);
        let snipers = (ortho_attacks(king, 0) & rooks) | (diag_attacks(king, 0) & bishops);
        let mut blockers = 0;
        for sniper in descending(snipers & self.by_color[self.us ^ 1]) {
            let b = between(king, sniper) & self.occupied;
            if b != 0 && b == bit(msb(b)) {
                blockers |= b;
            }
        }
        blockers & self.by_color[self.us]
    }

    fn is_safe(&self, king: usize, blockers: u64, m: SetupMove) -> bool {
        let (from, to) = (m.from as usize, m.to as usize);
        if from == king {
            return self.is_castling(m) || self.attackers(self.us ^ 1, to, self.occupied) == 0;
        }
        if self.is_en_passant(m) {
            return self.pin_mask(self.us, from) & bit(to) != 0 && !self.ep_skewered(king, from, to);
        }
        blockers & bit(from) == 0 || line(from, to) & bit(king) != 0
    }

    /// The moves out of check by `checkers` of the king on `king`, before the safety test.
    fn evasions(&self, king: usize, checkers: u64, from_mask: u64, to_mask: u64, out: &mut Vec<SetupMove>) {
        let sliders = checkers & (self.kind(BISHOP) | self.kind(ROOK) | self.kind(QUEEN));
        let attacked = descending(sliders).fold(0, |m, c| m | (line(king, c) & !bit(c)));
        if bit(king) & from_mask != 0 {
            let targets = KING_ATTACKS[king] & !self.by_color[self.us] & !attacked & to_mask;
            out.extend(descending(targets).map(|to| SetupMove::new(king, to, 0)));
        }
        let checker = msb(checkers);
        if bit(checker) == checkers {
            let target = between(king, checker) | checkers;
            self.pseudo_legal_moves(!self.kind(KING) & from_mask, target & to_mask, out);
            if let Some(ep) = self.ep() {
                if bit(ep) & target == 0 {
                    let last_double = if self.us == WHITE { ep - 8 } else { ep + 8 };
                    if last_double == checker {
                        self.pseudo_legal_ep(from_mask, to_mask, out);
                    }
                }
            }
        }
    }

    /// The legal moves of the pieces on `from_mask` to `to_mask`, in python-chess's order.
    pub fn legal_moves(&self, from_mask: u64, to_mask: u64, out: &mut Vec<SetupMove>) {
        let kings = self.kind(KING) & self.by_color[self.us];
        if kings == 0 {
            self.pseudo_legal_moves(from_mask, to_mask, out);
            return;
        }
        let king = msb(kings);
        let blockers = self.slider_blockers(king);
        let checkers = self.attackers(self.us ^ 1, king, self.occupied);
        let start = out.len();
        if checkers != 0 {
            self.evasions(king, checkers, from_mask, to_mask, out);
        } else {
            self.pseudo_legal_moves(from_mask, to_mask, out);
        }
        let mut keep = start;
        for i in start..out.len() {
            if self.is_safe(king, blockers, out[i]) {
                out[keep] = out[i];
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    /// Whether `m` is pseudo-legal here (python-chess's `is_pseudo_legal`; castling may be
    /// written either way).
    pub fn is_pseudo_legal(&self, m: SetupMove) -> bool {
        let (from, to) = (m.from as usize, m.to as usize);
        if from == to && m.promotion == 0 {
            return false; // the null move (or a move that goes nowhere)
        }
        let piece = self.setup.placement[from];
        if piece == EMPTY || self.by_color[self.us] & bit(from) == 0 {
            return false;
        }
        let kind = kind_of(piece);
        if m.promotion != 0 {
            let last = if self.us == WHITE { 7 } else { 0 };
            if kind != PAWN || to / 8 != last {
                return false;
            }
        }
        if kind == KING {
            let as_listed = self.castling_move(from, to);
            let mut castles = Vec::new();
            self.castling_moves(u64::MAX, u64::MAX, &mut castles);
            if castles.contains(&as_listed) {
                return true;
            }
        }
        if self.by_color[self.us] & bit(to) != 0 {
            return false;
        }
        if kind == PAWN {
            let mut moves = Vec::new();
            self.pseudo_legal_moves(bit(from), bit(to), &mut moves);
            return moves.contains(&m);
        }
        self.attacks(from) & bit(to) != 0
    }

    /// Whether the pseudo-legal `m` leaves the side to move's king attacked
    /// (python-chess's `is_into_check`).
    pub fn is_into_check(&self, m: SetupMove) -> bool {
        let Some(king) = self.king(self.us) else { return false };
        let checkers = self.attackers(self.us ^ 1, king, self.occupied);
        if checkers != 0 {
            let mut evasions = Vec::new();
            self.evasions(king, checkers, bit(m.from as usize), bit(m.to as usize), &mut evasions);
            if !evasions.contains(&m) {
                return true;
            }
        }
        !self.is_safe(king, self.slider_blockers(king), m)
    }

    /// Whether `m` is legal here (pseudo-legal and not into check).
    pub fn is_legal(&self, m: SetupMove) -> bool {
        self.is_pseudo_legal(m) && !self.is_into_check(m)
    }

    /// The legal en-passant captures.
    pub fn legal_ep(&self, from_mask: u64, to_mask: u64, out: &mut Vec<SetupMove>) {
        let mut moves = Vec::new();
        self.pseudo_legal_ep(from_mask, to_mask, &mut moves);
        out.extend(moves.into_iter().filter(|&m| !self.is_into_check(m)));
    }

    /// The legal captures, en passant included (python-chess's `generate_legal_captures`).
    pub fn legal_captures(&self, from_mask: u64, to_mask: u64, out: &mut Vec<SetupMove>) {
        self.legal_moves(from_mask, to_mask & self.by_color[self.us ^ 1], out);
        self.legal_ep(from_mask, to_mask, out);
    }

    /// The pseudo-legal captures, en passant included (python-chess's
    /// `generate_pseudo_legal_captures`).
    pub fn pseudo_legal_captures(&self, from_mask: u64, to_mask: u64, out: &mut Vec<SetupMove>) {
        self.pseudo_legal_moves(from_mask, to_mask & self.by_color[self.us ^ 1], out);
        self.pseudo_legal_ep(from_mask, to_mask, out);
    }

    /// The en-passant square when a legal capture takes there (python-chess's
    /// `has_legal_en_passant()`, and the square its FEN and its transposition key keep).
    pub fn legal_ep_square(&self) -> Option<u8> {
        let ep = self.setup.ep?;
        let mut moves = Vec::new();
        self.legal_ep(u64::MAX, u64::MAX, &mut moves);
        (!moves.is_empty()).then_some(ep)
    }

    /// python-chess's `is_zeroing(move)`: the move touches a pawn or a piece of the other side.
    pub fn is_zeroing(&self, m: SetupMove) -> bool {
        let touched = bit(usize::from(m.from)) ^ bit(usize::from(m.to));
        touched & (self.kind(PAWN) | self.by_color[self.us ^ 1]) != 0
    }

    /// python-chess's `is_irreversible(move)`: zeroing, taking a castling right away (of the
    /// rights these moves were made with), or played where a legal en-passant capture exists.
    pub fn is_irreversible(&self, m: SetupMove) -> bool {
        use crate::chess::setup::{RANK_1, RANK_8};
        let touched = bit(usize::from(m.from)) ^ bit(usize::from(m.to));
        let king = |c: usize| self.kind(KING) & self.by_color[c] & !self.setup.promoted;
        self.is_zeroing(m)
            || touched & self.castling != 0
            || self.castling & RANK_1 != 0 && touched & king(WHITE) != 0
            || self.castling & RANK_8 != 0 && touched & king(BLACK) != 0
            || self.legal_ep_square().is_some()
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(u64::MAX, u64::MAX, &mut moves);
        !moves.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(fen: &str) -> Setup {
        Setup::from_fen(fen, false).expect("a FEN python-chess reads")
    }

    fn uci(m: SetupMove) -> String {
        let name = |s: u8| format!("{}{}", (b'a' + s % 8) as char, s / 8 + 1);
        let promo = ["", "", "n", "b", "r", "q"][m.promotion as usize];
        format!("{}{}{}", name(m.from), name(m.to), promo)
    }

    fn legal(fen: &str) -> Vec<String> {
        let s = setup(fen);
        let mut out = Vec::new();
        s.moves(s.clean_castling()).legal_moves(u64::MAX, u64::MAX, &mut out);
        out.into_iter().map(uci).collect()
    }

    #[test]
    fn a_lone_king_moves_as_python_chess_lists_it() {
        // python-chess 1.11: list(Board("8/8/8/8/8/8/8/K7 w - - 0 1").legal_moves)
        assert_eq!(legal("8/8/8/8/8/8/8/K7 w - - 0 1"), ["a1b2", "a1a2", "a1b1"]);
    }

    #[test]
    fn without_a_king_every_pseudo_legal_move_is_legal() {
        // A white rook alone on a1, a black rook on a8: the rook's moves up the file end
        // on the capture.
        let moves = legal("r7/8/8/8/8/8/8/R7 w - - 0 1");
        assert_eq!(moves.len(), 14);
        assert!(moves.contains(&"a1a8".to_string()));
    }

    #[test]
    fn a_pawn_on_the_first_rank_steps_and_double_steps() {
        // python-chess pushes a white pawn on a1 to a2 and a3.
        let moves = legal("4k3/8/8/8/8/8/8/P3K3 w - - 0 1");
        assert!(moves.contains(&"a1a2".to_string()) && moves.contains(&"a1a3".to_string()), "{moves:?}");
    }

    #[test]
    fn lines_and_betweens() {
        let diag: u64 = (0..8).fold(0, |m, i| m | 1 << (i * 9));
        assert_eq!(line(0, 18), diag);
        assert_eq!(line(18, 0), diag);
        assert_eq!(line(0, 1), 0xff);
        assert_eq!(line(0, 17), 0); // a1-b3: a knight's step
        assert_eq!(line(5, 5), 0);
        assert_eq!(between(0, 63), diag & !1 & !(1 << 63));
        assert_eq!(between(0, 1), 0);
    }
}
