//! A variant turned into tables for its board size: each piece's steps as mailbox offsets
//! per colour, the attack rays per attacking colour, square names and move text.

use super::betza::Hop;
use super::def::Variant;
use super::geometry::{code, VMove, CELLS, EMPTY, MAX_DIST, OFF, PAD};

/// One step of a piece in mailbox terms, for one colour.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MStep {
    pub delta: i16,
    /// Squares along the direction: 1 for a leaper, up to `MAX_DIST - 1` for a rider.
    pub range: u8,
    pub can_move: bool,
    pub can_capture: bool,
    pub hop: Hop,
    /// For a lame leap, the offset of the square that must be empty (0 if none).
    pub block: i16,
}

/// Board squares as bits in a u128: square i (rank * files + file, a 12x10 board has 120)
/// is bit i, so a board of 64 squares or fewer fits in the low u64. Tables indexed by bit
/// have `BITS` entries per row.
pub(crate) const BITS: usize = 128;
/// Ride directions a variant can have (distinct mailbox offsets of up to 3 files and 3
/// ranks: 48), as a power of two so that a masked index needs no bounds test.
pub(crate) const MAX_DIRS: usize = 64;
/// Rides per piece type that the count's `Plan::dirs` holds.
pub(crate) const MAX_RIDES: usize = 16;

/// One unlimited ride of a piece's counting plan (see `Plan`): which ray table
/// (`Compiled::raybb`), whether the ray runs towards higher bits (then the first piece on
/// it is the lowest set bit), and what the ride may do where it stops: bit 0 move to an
/// empty square, bit 1 capture.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RStep {
    pub dir: u16,
    pub up: bool,
    pub mode: u8,
}

/// A bitboard word: u64 for boards of 64 squares or fewer (`Compiled::narrow`), u128
/// otherwise. Tables and boards hold u128s; `of` reads their low word, so the counting,
/// attack and pin code is written once and runs on the narrower word where it can.
pub(crate) trait Bits:
    Copy
    + PartialEq
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + std::ops::Not<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    /// The lowest and the highest bit of the word: no ray goes further down from the one
    /// or up from the other (the lowest bit is the first square; the highest is the last
    /// square of a 64-square board or no square at all), so they stop a scan along a ray
    /// that found no piece (`first_bit`), and being constants they tell the compiler the
    /// scanned word is not zero.
    const ONE: Self;
    const TOP: Self;
    /// The low bits of a u128 bitboard (all of them for u128).
    fn of(x: u128) -> Self;
    fn wide(self) -> u128;
    /// Index of the lowest and of the highest set bit (the word is not empty).
    fn lowest(self) -> usize;
    fn highest(self) -> usize;
    fn ones(self) -> u32;
    /// The word without its lowest set bit.
    fn less_lowest(self) -> Self;
    /// All ones if `on`, else zero.
    fn mask(on: bool) -> Self;
}

impl Bits for u64 {
    const ZERO: u64 = 0;
    const ONE: u64 = 1;
    const TOP: u64 = 1 << 63;
    #[inline(always)]
    fn of(x: u128) -> u64 {
        x as u64
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        u128::from(self)
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn highest(self) -> usize {
        63 - self.leading_zeros() as usize
    }
    #[inline(always)]
    fn ones(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn less_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn mask(on: bool) -> u64 {
        0u64.wrapping_sub(u64::from(on))
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    const ONE: u128 = 1;
    const TOP: u128 = 1 << 127;
    #[inline(always)]
    fn of(x: u128) -> u128 {
        x
    }
    #[inline(always)]
    fn wide(self) -> u128 {
        self
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn highest(self) -> usize {
        127 - self.leading_zeros() as usize
    }
    #[inline(always)]
    fn ones(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn less_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
    #[inline(always)]
    fn mask(on: bool) -> u128 {
        0u128.wrapping_sub(u128::from(on))
    }
}

/// The first piece on a ray (`blockers` is the ray's occupied squares, not empty: or'ed
/// with `Bits::ONE` or `Bits::TOP` where the ray may be empty), masked to 0..=127 (it is already)
/// so that indexing a `BITS` row needs no test.
#[inline(always)]
pub(crate) fn first_bit<B: Bits>(blockers: B, up: bool) -> usize {
    (if up { blockers.lowest() } else { blockers.highest() }) & (BITS - 1)
}

/// The capture rides of one colour's pieces along one direction, for the attack test:
/// the ray table of the direction looking back from the attacked square, whether it runs
/// towards higher bits, and the cell codes (bit per code, see `code`) and types of the
/// pieces that capture along it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RideAttack {
    pub dir: u16,
    pub up: bool,
    pub codes: u64,
    pub types: u32,
}

/// How perft's leaf count counts a piece type's moves without generating them: its
/// leaps as bitboards per square (`Compiled::leapbb`), its unlimited rides
/// (`rsteps[start..end]`) as rays cut at the first piece. `simple` is false when a step is
/// something else (a hopper, a lame leap, a rider with a limited range): then the moves are
/// generated one by one.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Plan {
    pub start: u16,
    pub end: u16,
    /// The rides' ray tables again (`Compiled::rays`), those towards higher bits first
    /// (`nup` of them, so the scans need no test of the direction), for the count of
    /// `both` plans: at most `MAX_RIDES`, else `both` is false and the rides go through
    /// `rsteps`.
    pub dirs: [u8; MAX_RIDES],
    pub nup: u8,
    pub nrides: u8,
    pub simple: bool,
    /// Every step may both move and capture: the destinations are one bitboard.
    pub both: bool,
    /// Some square is one this type could never move from (`immobile`): with
    /// `immobilityIllegal` its moves need that test.
    pub may_immobile: bool,
}

/// One leap of the pawn type, for counting all of a side's pawns at once: the shift in
/// bits, the squares from which the leap stays on the board, its mailbox offset (for en
/// passant) and mode (bit 0 move, bit 1 capture).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PawnLeap {
    pub shift: i16,
    pub from: u128,
    pub delta: i16,
    pub mode: u8,
}

/// How an attack travels along a ray towards the attacked square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RayKind {
    Slide,
    Lame(i16),
    Cannon,
    Grasshopper,
}

/// All the ways pieces of one colour capture along one direction, merged: `dist_mask[d]`
/// holds the piece types (bit per type) that capture from `d` squares away.
#[derive(Clone, Debug)]
pub(crate) struct Ray {
    pub delta: i16,
    pub kind: RayKind,
    pub dist_mask: [u32; MAX_DIST + 1],
    pub max_dist: usize,
    pub any: u32,
    /// Cell codes (bit per code, see `code`) of the pieces that capture along this ray
    /// from one square away, and from every distance 2..=max_dist; `uniform` says the ray
    /// is a leaper's or an unlimited rider's with the same set at every distance from 2 on
    /// (no limited-range rider), so the attack test need not count squares.
    pub near_codes: u64,
    pub far_codes: u64,
    pub uniform: bool,
}

/// A variant turned into tables for its board size: steps per colour and type, attack
/// rays per attacking colour, square names. Built once and shared by boards.
#[derive(Debug)]
pub struct Compiled {
    pub variant: Variant,
    pub(crate) stride: i16,
    pub(crate) files: usize,
    pub(crate) ranks: usize,
    /// Board squares, rank 1 first.
    pub(crate) squares: Vec<u8>,
    pub(crate) template: [u8; CELLS],
    pub(crate) file_of: [u8; CELLS],
    pub(crate) rank_of: [u8; CELLS],
    pub(crate) steps: [Vec<Vec<MStep>>; 2],
    /// Attack rays per attacking colour for the capture steps the bitboards below do not
    /// cover (limited-range riders, lame leaps, hoppers), walked on the mailbox.
    pub(crate) rays: [Vec<Ray>; 2],
    /// Plain capture leaps per attacking colour, types and squares: `leap_att[c][t][bit]`
    /// is where type t of colour c leaps from to capture on that square (32 rows per
    /// colour, so a masked index needs no bounds test); `leap_types[c]` the types that
    /// have such leaps.
    pub(crate) leap_att: Box<[[[u128; BITS]; 32]; 2]>,
    pub(crate) leap_types: [u32; 2],
    /// `leap_any[c][bit]`: the union of `leap_att` over colour c's types, so that the
    /// attack and check tests skip the per-type look when no piece of that colour stands
    /// on any of those squares.
    pub(crate) leap_any: [[u128; BITS]; 2],
    /// Unlimited capture rides per attacking colour, one per direction; `ride_types[c]` the
    /// types that have them, and `ride_reach[c][t][bit]` the squares from which
    /// type t could capture on that square along its rides on an empty board: when no such
    /// piece stands on them, the rides need no look.
    pub(crate) ride_att: [Vec<RideAttack>; 2],
    pub(crate) ride_types: [u32; 2],
    pub(crate) ride_reach: Box<[[[u128; BITS]; 32]; 2]>,
    /// `ride_line[c][bit][p]`: the index in `ride_att[c]` of the one ride whose ray from
    /// `bit` passes `p` (64 or more if none or several do), so that the attack and check
    /// tests look along the lines that hold a rider only; `ride_all[c]` all the indexes as
    /// bits.
    pub(crate) ride_line: Box<[[[u8; BITS]; BITS]; 2]>,
    pub(crate) ride_all: [u64; 2],
    pub(crate) ntypes: usize,
    /// The mailbox square of each bit (0, an off-board cell, for bits of no square).
    pub(crate) sq_of_bit: [u8; BITS],
    /// The board has 64 squares or fewer: the leaf count works on u64s.
    pub(crate) narrow: bool,
    /// Rays along which moving a piece can uncover an attack (riders, hoppers, lame legs).
    pub(crate) has_hoppers: [bool; 2],
    /// `immobile[c][t]` bit per square: type t of colour c could never move from there.
    pub(crate) immobile: [Vec<[bool; CELLS]>; 2],
    pub(crate) pawn: Option<usize>,
    pub(crate) royal: Option<usize>,
    /// Counting plans per colour and type, and the rides they index.
    pub(crate) plans: [Vec<Plan>; 2],
    /// Per colour, the types (bit per type) perft's leaf count takes in its tight loop:
    /// simple `both` plans, neither the pawn nor the royal type, never immobile.
    pub(crate) count_fast: [u32; 2],
    pub(crate) rsteps: Vec<RStep>,
    /// The bit of each mailbox square (`BITS` for off-board cells), that bit alone as a
    /// bitboard (0 off the board), and all the board's squares.
    pub(crate) bit: [u8; CELLS],
    pub(crate) sqbb: [u128; CELLS],
    pub(crate) board_bb: u128,
    /// `leapbb[c * types + t][bit]`: the squares type t of colour c leaps to from
    /// that square, [those it may move to, those it may capture on].
    pub(crate) leapbb: Vec<[[u128; 2]; BITS]>,
    /// `raybb[dir][bit]`: the squares along ride direction `dir` from that square,
    /// the square itself excluded.
    pub(crate) raybb: Box<[[u128; BITS]; MAX_DIRS]>,
    /// Squares from which the pawn type of colour c might reach the promotion zone with one
    /// of its steps or its double step (its moves there are generated one by one).
    pub(crate) promo_near: [[bool; CELLS]; 2],
    /// The same squares as bitboards, and those with the double step (`double_from`).
    pub(crate) promo_near_bb: [u128; 2],
    pub(crate) double_bb: [u128; 2],
    /// The pawn type's leaps per colour; `pawn_bulk` says they are all its moves (no rides,
    /// no hoppers or lame leaps, no immobility test), so pawns are counted all at once.
    pub(crate) pawn_leaps: [Vec<PawnLeap>; 2],
    pub(crate) pawn_bulk: bool,
    /// Squares from which the pawn of colour c has its double step.
    pub(crate) double_from: [[bool; CELLS]; 2],
}

impl Compiled {
    pub fn new(variant: Variant) -> Compiled {
        let files = variant.files as usize;
        let ranks = variant.ranks as usize;
        let stride = (files + PAD) as i16;
        let mut template = [OFF; CELLS];
        let mut file_of = [0u8; CELLS];
        let mut rank_of = [0u8; CELLS];
        let mut squares = Vec::new();
        for r in 0..ranks {
            for f in 0..files {
                let s = (r + PAD) * (files + PAD) + f + PAD;
                template[s] = EMPTY;
                file_of[s] = f as u8;
                rank_of[s] = r as u8;
                squares.push(s as u8);
            }
        }
        let mut steps: [Vec<Vec<MStep>>; 2] = [Vec::new(), Vec::new()];
        let mut rays: [Vec<Ray>; 2] = [Vec::new(), Vec::new()];
        let mut has_hoppers = [false; 2];
        let mut immobile: [Vec<[bool; CELLS]>; 2] = [Vec::new(), Vec::new()];
        for c in 0..2 {
            let sign: i16 = if c == 0 { 1 } else { -1 };
            for (t, p) in variant.pieces.iter().enumerate() {
                let mut list = Vec::new();
                for s in &p.steps {
                    let dy = i16::from(s.dy) * sign;
                    let dx = i16::from(s.dx);
                    let delta = dx + dy * stride;
                    let block = if s.lame { dx / 2 + (dy / 2) * stride } else { 0 };
                    let range =
                        if s.range == 0 || s.range as usize >= MAX_DIST { (MAX_DIST - 1) as u8 } else { s.range };
                    list.push(MStep {
                        delta,
                        range,
                        can_move: s.can_move,
                        can_capture: s.can_capture,
                        hop: s.hop,
                        block,
                    });
                    // Plain leaps and unlimited rides are covered by bitboards (below).
                    let plain = s.hop == Hop::None && !s.lame && (range == 1 || range as usize == MAX_DIST - 1);
                    if s.can_capture && !plain {
                        let kind = match (s.hop, s.lame) {
                            (Hop::Cannon, _) => RayKind::Cannon,
                            (Hop::Grasshopper, _) => RayKind::Grasshopper,
                            (Hop::None, true) => RayKind::Lame(block),
                            (Hop::None, false) => RayKind::Slide,
                        };
                        if s.hop != Hop::None {
                            has_hoppers[c] = true;
                        }
                        let i = match rays[c].iter().position(|r| r.delta == delta && r.kind == kind) {
                            Some(i) => i,
                            None => {
                                rays[c].push(Ray {
                                    delta,
                                    kind,
                                    dist_mask: [0; MAX_DIST + 1],
                                    max_dist: 0,
                                    any: 0,
                                    near_codes: 0,
                                    far_codes: 0,
                                    uniform: true,
                                });
                                rays[c].len() - 1
                            }
                        };
                        let ray = &mut rays[c][i];
                        let reach = if s.hop == Hop::None { range as usize } else { MAX_DIST - 1 };
                        for d in 1..=reach {
                            ray.dist_mask[d] |= 1 << t;
                        }
                        ray.max_dist = ray.max_dist.max(reach);
                        ray.any |= 1 << t;
                    }
                }
                // Immobility: no step that may move (or a pawn's forward step) reaches the board.
                let mut imm = [false; CELLS];
                for &s in &squares {
                    imm[s as usize] =
                        !list.iter().any(|m| m.can_move && template[(s as i16 + m.delta) as usize] != OFF);
                }
                immobile[c].push(imm);
                steps[c].push(list);
            }
        }
        for (c, list) in rays.iter_mut().enumerate() {
            for ray in list.iter_mut() {
                let codes =
                    |mask: u32| (0..32).filter(|t| mask & (1 << t) != 0).fold(0u64, |acc, t| acc | 1 << code(t, c));
                ray.near_codes = codes(ray.dist_mask[1]);
                ray.far_codes = codes(ray.dist_mask[2]);
                ray.uniform = ray.max_dist <= 1
                    || (ray.max_dist == MAX_DIST - 1
                        && (2..=ray.max_dist).all(|d| ray.dist_mask[d] == ray.dist_mask[2]));
            }
        }
        // Leapers first, then riders: the attack test finds the common attackers sooner.
        for r in rays.iter_mut() {
            r.sort_by_key(|ray| ray.max_dist);
        }
        let pawn = variant.pieces.iter().position(|p| p.pawn);
        let royal = variant.pieces.iter().position(|p| p.royal);
        let mut bit = [0u8; CELLS];
        let mut sqbb = [0u128; CELLS];
        let mut sq_of_bit = [0u8; BITS];
        for (i, &sq) in squares.iter().enumerate() {
            bit[sq as usize] = i as u8;
            sqbb[sq as usize] = 1 << i;
            sq_of_bit[i] = sq;
        }
        let board_bb = sqbb.iter().fold(0, |a, b| a | b);
        let ntypes = variant.pieces.len();
        let mut plans: [Vec<Plan>; 2] = [Vec::new(), Vec::new()];
        let mut rsteps = Vec::new();
        let mut leapbb = vec![[[0u128; 2]; BITS]; 2 * ntypes];
        let mut ray_deltas: Vec<i16> = Vec::new();
        let mut raybb: Vec<[u128; BITS]> = Vec::new();
        // The ray table of direction `delta`, made on first use.
        let mut ray_dir = |delta: i16, raybb: &mut Vec<[u128; BITS]>| -> u16 {
            if let Some(i) = ray_deltas.iter().position(|&d| d == delta) {
                return i as u16;
            }
            ray_deltas.push(delta);
            let mut row = [0u128; BITS];
            for &sq in &squares {
                let mut p = sq as i16 + delta;
                while template[p as usize] != OFF {
                    row[bit[sq as usize] as usize] |= sqbb[p as usize];
                    p += delta;
                }
            }
            raybb.push(row);
            (ray_deltas.len() - 1) as u16
        };
        let mut leap_att = vec![[0u128; BITS]; 2 * ntypes];
        let mut leap_types = [0u32; 2];
        let mut ride_att: [Vec<RideAttack>; 2] = [Vec::new(), Vec::new()];
        for c in 0..2 {
            for (t, list) in steps[c].iter().enumerate() {
                let plain = |m: &MStep| m.hop == Hop::None && m.block == 0;
                let leap = |m: &MStep| plain(m) && m.range == 1;
                let ride = |m: &MStep| plain(m) && m.range as usize == MAX_DIST - 1;
                let mode = |m: &MStep| u8::from(m.can_move) | u8::from(m.can_capture) << 1;
                let start = rsteps.len() as u16;
                for m in list.iter().filter(|m| ride(m)) {
                    let dir = ray_dir(m.delta, &mut raybb);
                    rsteps.push(RStep { dir, up: m.delta > 0, mode: mode(m) });
                    if m.can_capture {
                        // Looking back from the attacked square: the direction -delta.
                        let back = ray_dir(-m.delta, &mut raybb);
                        let i = match ride_att[c].iter().position(|r| r.dir == back) {
                            Some(i) => i,
                            None => {
                                ride_att[c].push(RideAttack { dir: back, up: m.delta < 0, codes: 0, types: 0 });
                                ride_att[c].len() - 1
                            }
                        };
                        ride_att[c][i].codes |= 1 << code(t, c);
                        ride_att[c][i].types |= 1 << t;
                    }
                }
                for m in list.iter().filter(|m| leap(m)) {
                    for &sq in &squares {
                        let to = (sq as i16 + m.delta) as usize;
                        let e = &mut leapbb[c * ntypes + t][bit[sq as usize] as usize];
                        if m.can_move {
                            e[0] |= sqbb[to];
                        }
                        if m.can_capture {
                            e[1] |= sqbb[to];
                            if template[to] != OFF {
                                leap_att[c * ntypes + t][bit[to] as usize] |= sqbb[sq as usize];
                                leap_types[c] |= 1 << t;
                            }
                        }
                    }
                }
                // Rides towards higher bits first (a stable sort keeps their order).
                rsteps[start as usize..].sort_by_key(|r: &RStep| !r.up);
                let mid = start + rsteps[start as usize..].iter().filter(|r| r.up).count() as u16;
                let end = rsteps.len() as u16;
                let simple = list.iter().all(|m| leap(m) || ride(m));
                let may_immobile = squares.iter().any(|&s| immobile[c][t][s as usize]);
                let nrides = usize::from(end - start);
                let both = list.iter().all(|m| m.can_move && m.can_capture) && nrides <= MAX_RIDES;
                let mut dirs = [0u8; MAX_RIDES];
                for (d, r) in dirs.iter_mut().zip(&rsteps[start as usize..end as usize]) {
                    *d = r.dir as u8;
                }
                let nrides = nrides.min(MAX_RIDES);
                let (nup, nrides) = (usize::from(mid - start).min(nrides) as u8, nrides as u8);
                plans[c].push(Plan { start, end, dirs, nup, nrides, simple, both, may_immobile });
            }
        }
        let mut leap_any = [[0u128; BITS]; 2];
        for (c, any) in leap_any.iter_mut().enumerate() {
            for t in 0..ntypes {
                for (a, l) in any.iter_mut().zip(leap_att[c * ntypes + t].iter()) {
                    *a |= l;
                }
            }
        }
        let mut count_fast = [0u32; 2];
        for (c, list) in plans.iter().enumerate() {
            for (t, plan) in list.iter().enumerate() {
                let immobile = variant.immobility_illegal && plan.may_immobile;
                if plan.simple && plan.both && !immobile && Some(t) != pawn && Some(t) != royal {
                    count_fast[c] |= 1 << t;
                }
            }
        }
        let mut ride_types = [0u32; 2];
        let mut ride_reach = vec![[0u128; BITS]; 2 * ntypes];
        for (c, list) in ride_att.iter().enumerate() {
            for r in list {
                ride_types[c] |= r.types;
                for t in (0..ntypes).filter(|&t| r.types & (1 << t) != 0) {
                    for (reach, ray) in ride_reach[c * ntypes + t].iter_mut().zip(raybb[r.dir as usize].iter()) {
                        *reach |= ray;
                    }
                }
            }
        }
        // Which capture ride each square lies on, seen from each square.
        let mut lines = vec![[[255u8; BITS]; BITS]; 2];
        let mut ride_all = [0u64; 2];
        for (c, list) in ride_att.iter().enumerate() {
            assert!(list.len() < 64, "more capture rides than a u64 has bits");
            ride_all[c] = (1u64 << list.len()) - 1;
            for (i, r) in list.iter().enumerate() {
                for (b, &row) in raybb[r.dir as usize].iter().enumerate() {
                    let mut ray = row;
                    while ray != 0 {
                        let e = &mut lines[c][b][ray.trailing_zeros() as usize];
                        *e = if *e == 255 { i as u8 } else { 254 };
                        ray &= ray - 1;
                    }
                }
            }
        }
        let ride_line: Box<[[[u8; BITS]; BITS]; 2]> = lines.into_boxed_slice().try_into().expect("two colours");
        // Per colour and type (at most 32 types), for masked indexes.
        let per_type = |rows: &[[u128; BITS]]| -> Box<[[[u128; BITS]; 32]; 2]> {
            let mut out = vec![[[0u128; BITS]; 32]; 2];
            for (c, o) in out.iter_mut().enumerate() {
                o[..ntypes].copy_from_slice(&rows[c * ntypes..(c + 1) * ntypes]);
            }
            out.into_boxed_slice().try_into().expect("two colours")
        };
        let (leap_att, ride_reach) = (per_type(&leap_att), per_type(&ride_reach));
        let mut promo_near = [[false; CELLS]; 2];
        let mut double_from = [[false; CELLS]; 2];
        if let Some(pt) = pawn {
            for c in 0..2 {
                let rel = |s: usize| if c == 0 { rank_of[s] as usize } else { ranks - 1 - rank_of[s] as usize };
                let zone =
                    |s: i16| template[s as usize] != OFF && rel(s as usize) + 1 >= variant.promotion_rank as usize;
                let fwd = if c == 0 { stride } else { -stride };
                for &s in &squares {
                    let s16 = i16::from(s);
                    let double = variant.double_step && rel(s as usize) + 1 == variant.double_step_rank as usize;
                    double_from[c][s as usize] = double;
                    // Every square a step could reach, ignoring what stands in the way.
                    let reach = steps[c][pt].iter().any(|m| {
                        let mut p = s16 + m.delta;
                        let mut n = 1;
                        while template[p as usize] != OFF {
                            if zone(p) {
                                return true;
                            }
                            if n >= m.range {
                                break;
                            }
                            n += 1;
                            p += m.delta;
                        }
                        false
                    });
                    promo_near[c][s as usize] = reach || (double && zone(s16 + 2 * fwd));
                }
            }
        }
        let bb_of = |marks: &[bool; CELLS]| {
            squares.iter().filter(|&&s| marks[s as usize]).fold(0u128, |a, &s| a | sqbb[s as usize])
        };
        let promo_near_bb = [bb_of(&promo_near[0]), bb_of(&promo_near[1])];
        let double_bb = [bb_of(&double_from[0]), bb_of(&double_from[1])];
        let mut pawn_leaps: [Vec<PawnLeap>; 2] = [Vec::new(), Vec::new()];
        let mut pawn_bulk = false;
        if let Some(pt) = pawn {
            let plan = plans[0][pt];
            pawn_bulk = pawn != royal
                && plan.simple
                && plan.start == plan.end
                && !(variant.immobility_illegal && (plan.may_immobile || plans[1][pt].may_immobile));
            for (c, out) in pawn_leaps.iter_mut().enumerate() {
                for m in &steps[c][pt] {
                    let from = squares
                        .iter()
                        .filter(|&&s| template[(s as i16 + m.delta) as usize] != OFF)
                        .fold(0u128, |a, &s| a | sqbb[s as usize]);
                    let shift = squares
                        .iter()
                        .find(|&&s| template[(s as i16 + m.delta) as usize] != OFF)
                        .map_or(0, |&s| i16::from(bit[(s as i16 + m.delta) as usize]) - i16::from(bit[s as usize]));
                    let mode = u8::from(m.can_move) | u8::from(m.can_capture) << 1;
                    out.push(PawnLeap { shift, from, delta: m.delta, mode });
                }
            }
        }
        assert!(raybb.len() <= MAX_DIRS, "more ride directions than MAX_DIRS");
        let mut rows = vec![[0u128; BITS]; MAX_DIRS];
        rows[..raybb.len()].copy_from_slice(&raybb);
        let raybb: Box<[[u128; BITS]; MAX_DIRS]> = rows.into_boxed_slice().try_into().expect("MAX_DIRS rows");
        let narrow = squares.len() <= 64;
        Compiled {
            variant,
            stride,
            files,
            ranks,
            squares,
            template,
            file_of,
            rank_of,
            steps,
            rays,
            has_hoppers,
            immobile,
            pawn,
            royal,
            plans,
            count_fast,
            rsteps,
            bit,
            sqbb,
            board_bb,
            leapbb,
            raybb,
            leap_att,
            leap_types,
            leap_any,
            ride_att,
            ride_types,
            ride_reach,
            ride_line,
            ride_all,
            ntypes,
            sq_of_bit,
            narrow,
            promo_near,
            double_from,
            promo_near_bb,
            double_bb,
            pawn_leaps,
            pawn_bulk,
        }
    }

    /// The ray table of ride direction `dir` (`raybb`), without a bounds test.
    #[inline(always)]
    pub(crate) fn rays(&self, dir: usize) -> &[u128; BITS] {
        &self.raybb[dir & (MAX_DIRS - 1)]
    }

    /// The square at file f, rank r (0-based).
    pub(crate) fn square(&self, f: usize, r: usize) -> u8 {
        ((r + PAD) * (self.files + PAD) + f + PAD) as u8
    }

    /// Rank of a square counted from colour c's side (0-based).
    pub(crate) fn relative_rank(&self, s: u8, c: usize) -> usize {
        let r = self.rank_of[s as usize] as usize;
        if c == 0 {
            r
        } else {
            self.ranks - 1 - r
        }
    }

    /// `e4`, `a10`, `l8`.
    pub fn square_name(&self, s: u8) -> String {
        format!("{}{}", (b'a' + self.file_of[s as usize]) as char, self.rank_of[s as usize] + 1)
    }

    /// Parses `e4` / `a10` at the start of `text`; returns the square and the bytes read.
    pub(crate) fn parse_square(&self, text: &[u8]) -> Option<(u8, usize)> {
        let f = text.first()?.checked_sub(b'a')? as usize;
        let mut i = 1;
        let mut r = 0usize;
        while i < text.len() && text[i].is_ascii_digit() && i < 3 {
            r = r * 10 + (text[i] - b'0') as usize;
            i += 1;
        }
        if i == 1 || r == 0 || f >= self.files || r > self.ranks {
            return None;
        }
        Some((self.square(f, r - 1), i))
    }

    /// UCI text of a move as Fairy-Stockfish writes it: squares, then the promotion letter.
    pub fn move_text(&self, m: VMove) -> String {
        let mut s = format!("{}{}", self.square_name(m.from), self.square_name(m.to));
        if m.promo != 0 {
            s.push(self.variant.pieces[(m.promo - 1) as usize].letter);
        }
        s
    }
}
