//! The variant board: a padded mailbox sized to the variant, piece lists, FEN, make/unmake.
//!
//! Squares are indexes into a mailbox of `(ranks + 2*PAD + 1) * (files + PAD)` cells with
//! `PAD` off-board cells around the board: row r (0-based) and file f live at
//! `(r + PAD) * stride + f + PAD`, with `stride = files + PAD`. A leap of up to `PAD`
//! squares in any direction from a board square lands on a board or an off-board cell,
//! never outside the array, so the generator needs no bounds tests (the 10x12 idea from
//! <https://www.chessprogramming.org/10x12_Board>, widened for leaps of three squares).

use super::betza::Hop;
use super::def::Variant;
use std::sync::Arc;

/// Off-board cells on each side: the longest leap component among the Betza atoms (H, C,
/// Z, G leap three squares).
pub(crate) const PAD: usize = 3;
/// Cells in the mailbox: (10 ranks + 7) * (12 files + 3) = 255 at most, so 256 holds any board.
pub(crate) const CELLS: usize = 256;
pub(crate) const EMPTY: u8 = 0;
pub(crate) const OFF: u8 = 255;
/// Longest distance a rider can travel on a 12x10 board (11 squares), plus one.
pub(crate) const MAX_DIST: usize = 12;

/// A cell's code for a piece: type index `t` and colour `c` (0 White, 1 Black).
#[inline]
pub(crate) fn code(t: usize, c: usize) -> u8 {
    (((t + 1) << 1) | c) as u8
}
#[inline]
pub(crate) fn color(cell: u8) -> usize {
    (cell & 1) as usize
}
#[inline]
pub(crate) fn kind(cell: u8) -> usize {
    ((cell >> 1) - 1) as usize
}

/// How a move changes the board beyond moving one piece.
pub const NORMAL: u8 = 0;
pub const DOUBLE: u8 = 1;
pub const EN_PASSANT: u8 = 2;
pub const CASTLE: u8 = 3;

/// A move: from and to squares (mailbox indexes), the promotion type + 1 (0 for none),
/// the kind, and for castling the rook's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct VMove {
    pub from: u8,
    pub to: u8,
    pub promo: u8,
    pub kind: u8,
    pub rook: u8,
}

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
    pub(crate) rays: [Vec<Ray>; 2],
    /// Rays along which moving a piece can uncover an attack (riders, hoppers, lame legs).
    pub(crate) has_hoppers: [bool; 2],
    /// `immobile[c][t]` bit per square: type t of colour c could never move from there.
    pub(crate) immobile: [Vec<[bool; CELLS]>; 2],
    pub(crate) pawn: Option<usize>,
    pub(crate) royal: Option<usize>,
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
                    let range = if s.range == 0 || s.range as usize >= MAX_DIST { (MAX_DIST - 1) as u8 } else { s.range };
                    list.push(MStep { delta, range, can_move: s.can_move, can_capture: s.can_capture, hop: s.hop, block });
                    if s.can_capture {
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
                    imm[s as usize] = !list.iter().any(|m| m.can_move && template[(s as i16 + m.delta) as usize] != OFF);
                }
                immobile[c].push(imm);
                steps[c].push(list);
            }
        }
        for (c, list) in rays.iter_mut().enumerate() {
            for ray in list.iter_mut() {
                let codes = |mask: u32| (0..32).filter(|t| mask & (1 << t) != 0).fold(0u64, |acc, t| acc | 1 << code(t, c));
                ray.near_codes = codes(ray.dist_mask[1]);
                ray.far_codes = codes(ray.dist_mask[2]);
                ray.uniform = ray.max_dist <= 1
                    || (ray.max_dist == MAX_DIST - 1 && (2..=ray.max_dist).all(|d| ray.dist_mask[d] == ray.dist_mask[2]));
            }
        }
        // Leapers first, then riders: the attack test finds the common attackers sooner.
        for r in rays.iter_mut() {
            r.sort_by_key(|ray| ray.max_dist);
        }
        let pawn = variant.pieces.iter().position(|p| p.pawn);
        let royal = variant.pieces.iter().position(|p| p.royal);
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
        }
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

/// What `unmake` needs to restore.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: VMove,
    captured: u8,
    castling: u8,
    ep: u8,
    halfmove: u32,
}

/// Castling right bits: White king side, White queen side, Black king side, Black queen side.
pub(crate) const CASTLE_BITS: [[u8; 2]; 2] = [[1, 2], [4, 8]];

/// A position of a variant, with its move history for `unmake`.
#[derive(Clone, Debug)]
pub struct VBoard {
    pub(crate) c: Arc<Compiled>,
    pub(crate) cells: [u8; CELLS],
    pub(crate) side: usize,
    pub(crate) castling: u8,
    /// En passant target square, 0 if none.
    pub(crate) ep: u8,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    /// Royal piece square per colour, 0 if the side has none.
    pub(crate) royal_sq: [u8; 2],
    /// Squares of each side's pieces: at most 120 (a 12x10 board), so 128 entries.
    pub(crate) plist: [[u8; 128]; 2],
    pub(crate) pcount: [usize; 2],
    pub(crate) pindex: [u8; CELLS],
    /// Pieces per type and side (at most 30 types, see `def`).
    pub(crate) tcount: [[u8; 32]; 2],
    pub(crate) present: [u32; 2],
    pub(crate) castle_rook: [[u8; 2]; 2],
    pub(crate) castle_mask: [u8; CELLS],
    history: Vec<Undo>,
    /// Squares from which a move may uncover an attack on the royal piece (see movegen).
    pub(crate) mark: [u32; CELLS],
    pub(crate) stamp: u32,
}

impl VBoard {
    fn empty(c: Arc<Compiled>) -> VBoard {
        let cells = c.template;
        VBoard {
            c,
            cells,
            side: 0,
            castling: 0,
            ep: 0,
            halfmove: 0,
            fullmove: 1,
            royal_sq: [0; 2],
            plist: [[0; 128]; 2],
            pcount: [0; 2],
            pindex: [0; CELLS],
            tcount: [[0; 32]; 2],
            present: [0; 2],
            castle_rook: [[0; 2]; 2],
            castle_mask: [0; CELLS],
            history: Vec::new(),
            mark: [0; CELLS],
            stamp: 0,
        }
    }

    pub fn compiled(&self) -> &Arc<Compiled> {
        &self.c
    }
    pub fn side_to_move(&self) -> usize {
        self.side
    }
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    #[inline]
    fn put(&mut self, s: u8, cell: u8) {
        let (col, t) = (color(cell), kind(cell));
        self.cells[s as usize] = cell;
        let n = self.pcount[col];
        self.plist[col][n] = s;
        self.pindex[s as usize] = n as u8;
        self.pcount[col] = n + 1;
        self.tcount[col][t] += 1;
        self.present[col] |= 1 << t;
        if Some(t) == self.c.royal {
            self.royal_sq[col] = s;
        }
    }

    #[inline]
    fn remove(&mut self, s: u8) -> u8 {
        let cell = self.cells[s as usize];
        let (col, t) = (color(cell), kind(cell));
        self.cells[s as usize] = EMPTY;
        let i = self.pindex[s as usize] as usize;
        let last = self.pcount[col] - 1;
        let moved = self.plist[col][last];
        self.plist[col][i] = moved;
        self.pindex[moved as usize] = i as u8;
        self.pcount[col] = last;
        self.tcount[col][t] -= 1;
        if self.tcount[col][t] == 0 {
            self.present[col] &= !(1 << t);
        }
        if Some(t) == self.c.royal {
            self.royal_sq[col] = 0;
        }
        cell
    }

    #[inline]
    fn shift(&mut self, from: u8, to: u8) {
        let cell = self.cells[from as usize];
        self.cells[from as usize] = EMPTY;
        self.cells[to as usize] = cell;
        let col = color(cell);
        let i = self.pindex[from as usize];
        self.plist[col][i as usize] = to;
        self.pindex[to as usize] = i;
        if Some(kind(cell)) == self.c.royal {
            self.royal_sq[col] = to;
        }
    }

    /// Pawn push direction for colour c.
    #[inline]
    pub(crate) fn forward(&self, col: usize) -> i16 {
        if col == 0 {
            self.c.stride
        } else {
            -self.c.stride
        }
    }

    /// Plays a move generated for this position (trusted: no legality test).
    pub fn make(&mut self, m: VMove) {
        let us = self.side;
        let fwd = self.forward(us);
        let mut captured = EMPTY;
        let undo_castling = self.castling;
        let undo_ep = self.ep;
        let undo_half = self.halfmove;
        let moving = self.cells[m.from as usize];
        self.ep = 0;
        self.halfmove += 1;
        match m.kind {
            CASTLE => {
                let king = self.remove(m.from);
                let rook = self.remove(m.rook);
                let kingside = m.rook > m.from;
                let rto = if kingside { m.to - 1 } else { m.to + 1 };
                self.put(m.to, king);
                self.put(rto, rook);
            }
            EN_PASSANT => {
                captured = self.remove((m.to as i16 - fwd) as u8);
                self.shift(m.from, m.to);
                self.halfmove = 0;
            }
            _ => {
                if self.cells[m.to as usize] != EMPTY {
                    captured = self.remove(m.to);
                    self.halfmove = 0;
                }
                if m.promo != 0 {
                    self.remove(m.from);
                    self.put(m.to, code((m.promo - 1) as usize, us));
                } else {
                    self.shift(m.from, m.to);
                }
                if Some(kind(moving)) == self.c.pawn {
                    self.halfmove = 0;
                    if m.kind == DOUBLE {
                        // The en passant square is kept only if an enemy pawn could take
                        // (Fairy-Stockfish's rule, so FENs compare equal).
                        let them_pawn = code(self.c.pawn.unwrap_or(0), 1 - us);
                        if self.cells[(m.to - 1) as usize] == them_pawn || self.cells[(m.to + 1) as usize] == them_pawn {
                            self.ep = (m.from as i16 + fwd) as u8;
                        }
                    }
                }
            }
        }
        self.castling &= !(self.castle_mask[m.from as usize] | self.castle_mask[m.to as usize]);
        if us == 1 {
            self.fullmove += 1;
        }
        self.side = 1 - us;
        self.history.push(Undo { mv: m, captured, castling: undo_castling, ep: undo_ep, halfmove: undo_half });
    }

    /// Takes back the last move; false if there is none.
    pub fn unmake(&mut self) -> bool {
        let Some(u) = self.history.pop() else {
            return false;
        };
        let m = u.mv;
        self.side = 1 - self.side;
        let us = self.side;
        if us == 1 {
            self.fullmove -= 1;
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        match m.kind {
            CASTLE => {
                let kingside = m.rook > m.from;
                let rto = if kingside { m.to - 1 } else { m.to + 1 };
                let king = self.remove(m.to);
                let rook = self.remove(rto);
                self.put(m.from, king);
                self.put(m.rook, rook);
            }
            EN_PASSANT => {
                self.shift(m.to, m.from);
                let capsq = (m.to as i16 - self.forward(us)) as u8;
                self.put(capsq, u.captured);
            }
            _ => {
                if m.promo != 0 {
                    self.remove(m.to);
                    self.put(m.from, code(self.c.pawn.unwrap_or(0), us));
                } else {
                    self.shift(m.to, m.from);
                }
                if u.captured != EMPTY {
                    self.put(m.to, u.captured);
                }
            }
        }
        true
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<VMove> {
        self.history.last().map(|u| u.mv)
    }

    /// Reads a FEN in Fairy-Stockfish's form: ranks from the top with counts of empty
    /// squares (10, 12 allowed), side, castling (KQkq or rook files), en passant square,
    /// halfmove clock, fullmove number (the last four optional).
    pub fn from_fen(variant: &Variant, fen: &str) -> Result<VBoard, String> {
        VBoard::from_fen_compiled(Arc::new(Compiled::new(variant.clone())), fen)
    }

    pub fn from_fen_compiled(c: Arc<Compiled>, fen: &str) -> Result<VBoard, String> {
        let mut b = VBoard::empty(c.clone());
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() || fields.len() > 6 {
            return Err(format!("expected 1 to 6 space-separated fields, found {}", fields.len()));
        }
        if fields[0].contains('[') {
            return Err("pieces in hand ('[...]') are not supported".into());
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != c.ranks {
            return Err(format!("board field has {} ranks, this variant has {}", rows.len(), c.ranks));
        }
        for (i, row) in rows.iter().enumerate() {
            let r = c.ranks - 1 - i;
            let mut f = 0usize;
            let bytes = row.as_bytes();
            let mut j = 0;
            while j < bytes.len() {
                let ch = bytes[j];
                if ch.is_ascii_digit() {
                    let mut n = 0usize;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        n = n.saturating_mul(10).saturating_add((bytes[j] - b'0') as usize);
                        j += 1;
                    }
                    if n == 0 {
                        return Err(format!("rank {} has an empty-square count of 0", r + 1));
                    }
                    f += n;
                    continue;
                }
                let Some(t) = c.variant.type_of_letter(ch as char) else {
                    return Err(format!("'{}' is not a piece of {}", ch as char, c.variant.name));
                };
                if f >= c.files {
                    return Err(format!("rank {} describes more than {} squares", r + 1, c.files));
                }
                let col = if ch.is_ascii_uppercase() { 0 } else { 1 };
                if b.pcount[col] >= 120 {
                    return Err("too many pieces".into()); // cannot happen: 120 squares at most
                }
                b.put(c.square(f, r), code(t, col));
                f += 1;
                j += 1;
            }
            if f != c.files {
                return Err(format!("rank {} describes {} squares, expected {}", r + 1, f, c.files));
            }
        }
        if let Some(k) = c.royal {
            for (col, name) in [(0, "White"), (1, "Black")] {
                let n = b.tcount[col][k];
                if n != 1 {
                    let letter = c.variant.pieces[k].letter;
                    return Err(format!("{name} has {n} royal pieces ('{letter}'), expected exactly one"));
                }
            }
        }
        b.side = match fields.get(1).copied().unwrap_or("w") {
            "w" => 0,
            "b" => 1,
            s => return Err(format!("side to move must be 'w' or 'b', found {s:?}")),
        };
        // Castling: K/Q take the outermost rook of the castling type, letters name its file.
        let cast = fields.get(2).copied().unwrap_or("-");
        if cast != "-" {
            for ch in cast.chars() {
                let col = if ch.is_ascii_uppercase() { 0 } else { 1 };
                let rank = if col == 0 { c.variant.castling_rank as usize - 1 } else { c.ranks - c.variant.castling_rank as usize };
                let Some(rt) = c.variant.castling_rook else {
                    return Err(format!("castling right '{ch}' but the variant has no castling rook"));
                };
                let rook = code(rt, col);
                let up = ch.to_ascii_uppercase();
                let rsq = match up {
                    'K' => (0..c.files).rev().map(|f| c.square(f, rank)).find(|&s| b.cells[s as usize] == rook),
                    'Q' => (0..c.files).map(|f| c.square(f, rank)).find(|&s| b.cells[s as usize] == rook),
                    'A'..='L' if ((up as u8 - b'A') as usize) < c.files => {
                        let s = c.square((up as u8 - b'A') as usize, rank);
                        (b.cells[s as usize] == rook).then_some(s)
                    }
                    _ => return Err(format!("bad castling field {cast:?}: unexpected {ch:?}")),
                };
                let Some(rsq) = rsq else {
                    return Err(format!("bad castling field {cast:?}: no rook for '{ch}'"));
                };
                if !c.variant.castling {
                    continue;
                }
                let ksq = b.royal_sq[col];
                if ksq == 0 || c.rank_of[ksq as usize] as usize != rank {
                    return Err(format!("bad castling field {cast:?}: the king is not on the castling rank"));
                }
                let side = if rsq > ksq { 0 } else { 1 };
                let bit = CASTLE_BITS[col][side];
                b.castling |= bit;
                b.castle_rook[col][side] = rsq;
                b.castle_mask[ksq as usize] |= bit;
                b.castle_mask[rsq as usize] |= bit;
            }
        }
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let Some((s, n)) = c.parse_square(ep.as_bytes()) else {
                return Err(format!("bad en passant square {ep:?}"));
            };
            if n != ep.len() {
                return Err(format!("bad en passant square {ep:?}"));
            }
            // Kept only if a pawn of the side to move attacks it and the enemy pawn stands
            // in front of it (Fairy-Stockfish ignores it otherwise).
            if let Some(p) = c.pawn {
                let us = b.side;
                let fwd = b.forward(us);
                let ours = code(p, us);
                let theirs = code(p, 1 - us);
                let behind = (s as i16 - fwd) as usize;
                let attackers = [(s as i16 - fwd - 1) as usize, (s as i16 - fwd + 1) as usize];
                if b.cells[behind] == theirs && attackers.iter().any(|&a| b.cells[a] == ours) && b.cells[s as usize] == EMPTY {
                    b.ep = s;
                }
            }
        }
        if let Some(h) = fields.get(4) {
            b.halfmove = h.parse().map_err(|_| format!("halfmove clock must be a non-negative integer, found {h:?}"))?;
        }
        if let Some(fm) = fields.get(5) {
            b.fullmove = fm.parse().ok().filter(|&n: &u32| n > 0).ok_or_else(|| format!("fullmove number must be a positive integer, found {fm:?}"))?;
        }
        let them = 1 - b.side;
        if b.royal_sq[them] != 0 && b.attacked(b.royal_sq[them], b.side) {
            return Err(format!("the side not to move ({}) is in check", if them == 0 { "White" } else { "Black" }));
        }
        Ok(b)
    }

    /// The position as FEN, as Fairy-Stockfish writes it.
    pub fn fen(&self) -> String {
        let c = &self.c;
        let mut s = String::new();
        for r in (0..c.ranks).rev() {
            let mut empty = 0;
            for f in 0..c.files {
                let cell = self.cells[c.square(f, r) as usize];
                if cell == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s += &empty.to_string();
                    empty = 0;
                }
                let l = c.variant.pieces[kind(cell)].letter;
                s.push(if color(cell) == 0 { l.to_ascii_uppercase() } else { l });
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s += if self.side == 0 { " w " } else { " b " };
        let mut cast = String::new();
        for (bit, ch) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.castling & bit != 0 {
                cast.push(ch);
            }
        }
        s += if cast.is_empty() { "-" } else { &cast };
        s += " ";
        s += &if self.ep == 0 { "-".to_string() } else { c.square_name(self.ep) };
        s += &format!(" {} {}", self.halfmove, self.fullmove);
        s
    }

    /// Consistency of the piece lists with the mailbox (debug builds check it after each
    /// make and unmake in tests).
    pub fn is_ok(&self) -> bool {
        let mut n = [0usize; 2];
        for &s in &self.c.squares {
            let cell = self.cells[s as usize];
            if cell == EMPTY {
                continue;
            }
            let col = color(cell);
            n[col] += 1;
            if self.plist[col][self.pindex[s as usize] as usize] != s {
                return false;
            }
        }
        n == self.pcount
    }
}
