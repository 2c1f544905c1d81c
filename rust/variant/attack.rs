//! The attack test of the table-driven generator: whether a side attacks a square (steps,
//! leaps, rides and hoppers, read from the piece tables), the riders' directions for the
//! pin analysis, and check.

use super::board::VBoard;
use super::geometry::{color, kind, EMPTY, OFF};
use super::tables::{first_bit, Bits, Ray, RayKind, BITS};

/// Does a hopper of colour `by` moving along `ray` attack cell `s`? Walking back from `s`:
/// a cannon first passes empty cells, a grasshopper does not; then a screen (a piece), then
/// the nearest piece beyond it must be one of the ray's hoppers.
#[inline]
pub(super) fn hopper_attacks(cells: &[u8], s: i16, ray: &Ray, by: usize) -> bool {
    let mut p = s - ray.delta;
    if ray.kind == RayKind::Cannon {
        while cells[p as usize] == EMPTY {
            p -= ray.delta;
        }
    }
    if cells[p as usize] == OFF || cells[p as usize] == EMPTY {
        return false;
    }
    p -= ray.delta;
    while cells[p as usize] == EMPTY {
        p -= ray.delta;
    }
    let cell = cells[p as usize];
    cell != OFF && color(cell) == by && ray.any & (1 << kind(cell)) != 0
}

impl VBoard {
    /// The squares the piece on bit `b` (pinned, not in `pin_hard`) may move to without
    /// uncovering its pin.
    #[inline(always)]
    pub(crate) fn pin_allowed(&self, b: usize) -> u128 {
        let mut allowed = 0;
        for (&p, &ray) in self.pin_bit.iter().zip(&self.pin_ray).take(self.npins) {
            if usize::from(p) == b {
                allowed = ray;
            }
        }
        allowed
    }

    /// Whether square `s` is attacked by a piece of colour `by`.
    pub(crate) fn attacked(&self, s: u8, by: usize) -> bool {
        self.attacked_occ(s, by, self.occ[0] | self.occ[1])
    }

    /// `attacked` with the occupied squares given (for the royal piece's moves tested in
    /// place, which move it in the mailbox only): plain leaps and unlimited rides through
    /// the bitboards, the other capture steps along the mailbox rays.
    #[inline]
    pub(crate) fn attacked_occ(&self, s: u8, by: usize, occ: u128) -> bool {
        if self.c.narrow {
            self.attacked_w::<u64>(s, by, u64::of(occ))
        } else {
            self.attacked_w::<u128>(s, by, occ)
        }
    }

    /// `attacked_occ` on a bitboard word (see `Bits`).
    #[inline(always)]
    pub(super) fn attacked_w<B: Bits>(&self, s: u8, by: usize, occ: B) -> bool {
        let c = &*self.c;
        let b = c.bit[s as usize] as usize & (BITS - 1);
        let present = self.present[by];
        let near = B::of(c.leap_any[by & 1][b]) & B::of(self.occ[by]) != B::ZERO;
        let mut types = if near { c.leap_types[by] & present } else { 0 };
        while types != 0 {
            let t = types.trailing_zeros() as usize;
            types &= types - 1;
            if B::of(c.leap_att[by & 1][t & 31][b]) & B::of(self.tbb[by & 1][t & 31]) != B::ZERO {
                return true;
            }
        }
        let riders = self.riders::<B>(b, by);
        if riders != B::ZERO {
            let mut dirs = self.ride_dirs(b, by, riders);
            while dirs != 0 {
                let r = &c.ride_att[by][dirs.trailing_zeros() as usize];
                dirs &= dirs - 1;
                let ray = B::of(c.rays(r.dir as usize)[b]);
                // (`ride_all`: lines without a rider.)
                if ray & riders == B::ZERO {
                    continue;
                }
                // A rider stands on the ray, so some piece does.
                let first = first_bit(ray & occ, r.up);
                let cell = self.cells[c.sq_of_bit[first] as usize];
                // Codes are below 64; OFF (255) and EMPTY (0) are in no code set.
                if cell < 64 && r.codes & (1 << cell) != 0 {
                    return true;
                }
            }
        }
        !c.rays[by].is_empty() && self.attacked_rays(s, by)
    }

    /// The pieces of colour `by` that could capture on bit `b` along their rides on an
    /// empty board (`Compiled::ride_reach`): only the lines through them need a look.
    #[inline(always)]
    pub(super) fn riders<B: Bits>(&self, b: usize, by: usize) -> B {
        let c = &*self.c;
        let b = b & (BITS - 1);
        let mut out = B::ZERO;
        let mut ts = c.ride_types[by] & self.present[by];
        while ts != 0 {
            let t = ts.trailing_zeros() as usize;
            ts &= ts - 1;
            out |= B::of(c.ride_reach[by & 1][t & 31][b]) & B::of(self.tbb[by & 1][t & 31]);
        }
        out
    }

    /// The capture rides of colour `by` (indexes in `Compiled::ride_att`, as bits) along
    /// which `riders` (from `riders`) stand, seen from bit `b`.
    #[inline(always)]
    pub(super) fn ride_dirs<B: Bits>(&self, b: usize, by: usize, riders: B) -> u64 {
        let c = &*self.c;
        let line = &c.ride_line[by & 1][b & (BITS - 1)];
        let mut dirs = 0u64;
        let mut rs = riders;
        while rs != B::ZERO {
            let i = line[rs.lowest() & (BITS - 1)];
            rs = rs.less_lowest();
            if i >= 64 {
                // A square on several rides' rays (or none): look along all of them.
                return c.ride_all[by & 1];
            }
            dirs |= 1 << i;
        }
        dirs
    }

    /// The attack test along the mailbox rays (`Compiled::rays`).
    pub(super) fn attacked_rays(&self, s: u8, by: usize) -> bool {
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
                    if cell != OFF
                        && cell != EMPTY
                        && color(cell) == by
                        && ray.any & (1 << kind(cell)) != 0
                        && cells[(a + block) as usize] == EMPTY
                    {
                        return true;
                    }
                }
                RayKind::Cannon | RayKind::Grasshopper => {
                    if hopper_attacks(cells, s as i16, ray, by) {
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
}
