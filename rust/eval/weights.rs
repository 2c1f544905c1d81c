//! The evaluation's tunable numbers, all in one table (`WEIGHTS`), and the machinery the
//! Texel tuner (examples/texel.rs) needs around it: a flat view of the table in a fixed
//! order (`WEIGHT_FIELDS`) and a printer that writes a table back as Rust source.
//!
//! Every weight is a packed (middlegame, endgame) `Score`; `evaluate` adds whole weights
//! (times a count), so a board's evaluation is a linear function of the table apart from
//! the final endgame scaling, which `EvalTrace` (rust/eval/classic.rs) records.

/// A packed (middlegame, endgame) score: `mg + (eg << 16)` in one i32, so adding two
/// scores or multiplying one by a count is one integer operation.
pub(crate) type Score = i32;

#[inline(always)]
pub(crate) const fn s(mg: i32, eg: i32) -> Score {
    (eg << 16) + mg
}
#[inline(always)]
pub(crate) const fn mg_of(x: Score) -> i32 {
    x as i16 as i32
}
#[inline(always)]
pub(crate) const fn eg_of(x: Score) -> i32 {
    ((x + 0x8000) >> 16) as i16 as i32
}

/// Read and write access to the packed scores of one field, whatever its array shape, and
/// how to print it.
trait Scores {
    fn scores(&self) -> &[Score];
    fn scores_mut(&mut self) -> &mut [Score];
    fn write_rust(&self, out: &mut String, indent: usize);
}

fn write_score(out: &mut String, x: Score) {
    out.push_str(&format!("s({}, {})", mg_of(x), eg_of(x)));
}

/// Eight scores a line (a board rank for the square tables).
fn write_row(out: &mut String, xs: &[Score], indent: usize) {
    out.push_str("[\n");
    for chunk in xs.chunks(8) {
        out.push_str(&" ".repeat(indent + 4));
        for (i, &x) in chunk.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            write_score(out, x);
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(indent));
    out.push(']');
}

impl Scores for Score {
    fn scores(&self) -> &[Score] {
        std::slice::from_ref(self)
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        std::slice::from_mut(self)
    }
    fn write_rust(&self, out: &mut String, _indent: usize) {
        write_score(out, *self);
    }
}

impl<const N: usize> Scores for [Score; N] {
    fn scores(&self) -> &[Score] {
        self
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        self
    }
    fn write_rust(&self, out: &mut String, indent: usize) {
        write_row(out, self, indent);
    }
}

impl<const N: usize, const M: usize> Scores for [[Score; N]; M] {
    fn scores(&self) -> &[Score] {
        self.as_flattened()
    }
    fn scores_mut(&mut self) -> &mut [Score] {
        self.as_flattened_mut()
    }
    fn write_rust(&self, out: &mut String, indent: usize) {
        out.push_str("[\n");
        for row in self {
            out.push_str(&" ".repeat(indent + 4));
            write_row(out, row, indent + 4);
            out.push_str(",\n");
        }
        out.push_str(&" ".repeat(indent));
        out.push(']');
    }
}

/// Declares `Weights` from one list of fields, and with it `WEIGHT_FIELDS` (the flat layout:
/// each field's name and number of scores, in order) and `Field` (a field's position in
/// that list, used by the evaluation trace), so the three can never disagree.
macro_rules! weights {
    ($( $(#[doc = $doc:literal])* $name:ident : $ty:ty, )*) => {
        /// The evaluation's weights. See `WEIGHTS` for the values in use.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Weights {
            $( $(#[doc = $doc])* pub $name: $ty, )*
        }

        /// The flat layout of `Weights`: (field name, number of packed scores), in order.
        pub const WEIGHT_FIELDS: &[(&str, usize)] =
            &[$( (stringify!($name), std::mem::size_of::<$ty>() / std::mem::size_of::<Score>()), )*];

        /// A field of `Weights` (its index in `WEIGHT_FIELDS`).
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy, Debug)]
        pub(crate) enum Field {
            $( $name, )*
        }

        impl Weights {
            fn fields(&self) -> Vec<&[Score]> {
                vec![$( Scores::scores(&self.$name), )*]
            }
            fn fields_mut(&mut self) -> Vec<&mut [Score]> {
                vec![$( Scores::scores_mut(&mut self.$name), )*]
            }
            fn write_fields(&self, out: &mut String) {
                $(
                    out.push_str(concat!("    ", stringify!($name), ": "));
                    Scores::write_rust(&self.$name, out, 4);
                    out.push_str(",\n");
                )*
            }
        }
    };
}

weights! {
    /// Piece values PAWN..QUEEN (the king has none).
    material: [Score; 5],
    /// Piece-square tables PAWN..KING, indexed from the owner's side: a1 = 0, b1 = 1, ...,
    /// h8 = 63 for White, and the rank mirrored for Black.
    pst: [[Score; 64]; 6],
    /// Mobility by the number of squares reached that hold no piece of ours and are not
    /// attacked by an enemy pawn.
    mobility_knight: [Score; 9],
    mobility_bishop: [Score; 14],
    mobility_rook: [Score; 15],
    mobility_queen: [Score; 28],
    bishop_pair: Score,
    /// A rook on a file without pawns / without our pawns.
    rook_open: Score,
    rook_semi_open: Score,
    /// For each pawn behind another of ours on its file.
    doubled: Score,
    /// No pawn of ours on the adjacent files.
    isolated: Score,
    /// Defended by a pawn of ours.
    protected_pawn: Score,
    /// Passed pawn (the front one of its file) by relative rank, with its stop square free
    /// or occupied.
    passed: [Score; 8],
    passed_blocked: [Score; 8],
    /// Passed pawn on relative rank r >= 2, per (r - 1) times the king distance to its stop
    /// square: the enemy king's and our own.
    passed_king_them: Score,
    passed_king_us: Score,
    /// King on its first two ranks: per file beside or in front of it, the nearest pawn of
    /// ours one or two ranks ahead, or none of them, and a file with no pawn of ours at all.
    shield_near: Score,
    shield_far: Score,
    shield_missing: Score,
    king_open_file: Score,
    /// Bonus for the attacking side by attack units on the king zone (two attackers or
    /// more), with a queen's worth of pieces (at least 900) and with less.
    king_attack: [Score; KING_UNITS_CAP + 1],
    king_attack_weak: [Score; KING_UNITS_CAP + 1],
}

/// King-attack units beyond this share its entry (two queens and more are rare enough).
pub(crate) const KING_UNITS_CAP: usize = 19;

/// Number of packed scores in `Weights`.
pub const NUM_WEIGHTS: usize = FIELD_OFFSET[WEIGHT_FIELDS.len()];

/// Where each field starts in the flat layout.
pub(crate) const FIELD_OFFSET: [usize; WEIGHT_FIELDS.len() + 1] = {
    let mut o = [0; WEIGHT_FIELDS.len() + 1];
    let mut i = 0;
    while i < WEIGHT_FIELDS.len() {
        o[i + 1] = o[i] + WEIGHT_FIELDS[i].1;
        i += 1;
    }
    o
};

impl Weights {
    /// A packed score, as the fields hold them (for building a table outside this module).
    pub const fn score(mg: i32, eg: i32) -> i32 {
        s(mg, eg)
    }

    /// The weights in the flat layout as (middlegame, endgame) pairs.
    pub fn to_pairs(&self) -> Vec<(i32, i32)> {
        self.fields().into_iter().flatten().map(|&x| (mg_of(x), eg_of(x))).collect()
    }

    /// Weights from (middlegame, endgame) pairs in the flat layout; None unless there are
    /// exactly `NUM_WEIGHTS` pairs, each half within an i16.
    pub fn from_pairs(pairs: &[(i32, i32)]) -> Option<Weights> {
        let fits = |v: i32| i16::try_from(v).is_ok();
        if pairs.len() != NUM_WEIGHTS || !pairs.iter().all(|&(m, e)| fits(m) && fits(e)) {
            return None;
        }
        let mut w = WEIGHTS;
        let mut it = pairs.iter();
        for field in w.fields_mut() {
            for x in field.iter_mut() {
                let &(m, e) = it.next()?;
                *x = s(m, e);
            }
        }
        Some(w)
    }

    /// The name of flat index `i`, e.g. "pst[3][12]" or "bishop_pair".
    pub fn name_of(i: usize) -> String {
        let f = FIELD_OFFSET.partition_point(|&o| o <= i) - 1;
        let (name, len) = WEIGHT_FIELDS[f];
        let j = i - FIELD_OFFSET[f];
        match (name, len) {
            ("pst", _) => format!("pst[{}][{}]", j / 64, j % 64),
            (_, 1) => name.to_string(),
            _ => format!("{name}[{j}]"),
        }
    }

    /// This table as the Rust source of `WEIGHTS`, ready to paste into rust/eval/weights.rs.
    pub fn rust_source(&self) -> String {
        let mut out = String::from("#[rustfmt::skip]\npub const WEIGHTS: Weights = Weights {\n");
        self.write_fields(&mut out);
        out.push_str("};\n");
        out
    }
}

// ---- the values ----

/// The weights in use. Fitted by Texel's method (examples/texel.rs) to 883,875 quiet
/// positions: 791,957 from 8,167 self-play games (examples/selfplay.rs, 5,000 nodes a move
/// +-25%, from the match openings plus 2 random plies) and 100,830 from 731 finished
/// games of the project's matches (kibitz against itself and Phalanx),
/// less 8,912 in check; 204,153 of them were replaced by their quiescence leaf. One game in ten
/// was held out for validation (87,410 positions, 796,465 left to train on). Command:
/// `cargo run --release --example texel -- --start hand SELFPLAY.txt MATCHES.pgn...`
/// (defaults: 400 epochs, L2 1e-8, 2 threads; best validation at epoch 75).
/// K = 1.1341; mean squared error train 0.089338 -> 0.086742, validation 0.089791 -> 0.088304
/// (square tables tied left-right; untied tables and other L2 strengths validated worse).
/// The hand-set values they started from (a formula for the square tables, linear
/// mobility) are `hand_set` in examples/texel.rs (and in git history).
#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    material: [
        s(64, 93), s(325, 318), s(335, 333), s(483, 564), s(1008, 999),
    ],
    pst: [
        [
            s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0), s(0, 0),
            s(-9, 4), s(8, 5), s(3, 6), s(-1, 18), s(-1, 18), s(3, 6), s(8, 5), s(-9, 4),
            s(0, 1), s(6, 1), s(6, 11), s(2, 5), s(2, 5), s(6, 11), s(6, 1), s(0, 1),
            s(-4, 10), s(-3, 12), s(11, 3), s(7, 3), s(7, 3), s(11, 3), s(-3, 12), s(-4, 10),
            s(18, 17), s(9, 14), s(5, 13), s(15, -3), s(15, -3), s(5, 13), s(9, 14), s(18, 17),
            s(27, 11), s(25, 30), s(13, 29), s(27, 24), s(27, 24), s(13, 29), s(25, 30), s(27, 11),
            s(30, 40), s(33, 61), s(35, 54), s(35, 51), s(35, 51), s(35, 54), s(33, 61), s(30, 40),
            s(0, 0), s(0, 0), s(4, 0), s(4, 0), s(4, 0), s(4, 0), s(0, 0), s(0, 0),
        ],
        [
            s(-39, -29), s(-13, -26), s(-15, -9), s(-10, -7), s(-10, -7), s(-15, -9), s(-13, -26), s(-39, -29),
            s(-17, -21), s(-19, -8), s(-10, -7), s(7, -1), s(7, -1), s(-10, -7), s(-19, -8), s(-17, -21),
            s(-14, -13), s(-11, -8), s(2, -5), s(17, 11), s(17, 11), s(2, -5), s(-11, -8), s(-14, -13),
            s(-7, 1), s(12, 2), s(24, 19), s(11, 21), s(11, 21), s(24, 19), s(12, 2), s(-7, 1),
            s(8, -2), s(-2, 7), s(22, 14), s(23, 32), s(23, 32), s(22, 14), s(-2, 7), s(8, -2),
            s(-8, -7), s(8, 2), s(10, 2), s(33, 15), s(33, 15), s(10, 2), s(8, 2), s(-8, -7),
            s(-27, -16), s(-18, -17), s(-1, -1), s(6, 6), s(6, 6), s(-1, -1), s(-18, -17), s(-27, -16),
            s(-44, -36), s(-27, -21), s(-16, -11), s(-6, -4), s(-6, -4), s(-16, -11), s(-27, -21), s(-44, -36),
        ],
        [
            s(-1, -12), s(-7, -8), s(3, 2), s(-14, -4), s(-14, -4), s(3, 2), s(-7, -8), s(-1, -12),
            s(-1, -6), s(20, -11), s(3, -4), s(9, 5), s(9, 5), s(3, -4), s(20, -11), s(-1, -6),
            s(-1, -5), s(10, 1), s(9, 6), s(6, 10), s(6, 10), s(9, 6), s(10, 1), s(-1, -5),
            s(4, -4), s(4, 5), s(3, 10), s(7, 15), s(7, 15), s(3, 10), s(4, 5), s(4, -4),
            s(1, 2), s(-7, 3), s(15, 5), s(20, 16), s(20, 16), s(15, 5), s(-7, 3), s(1, 2),
            s(5, 2), s(2, 2), s(11, 6), s(10, 4), s(10, 4), s(11, 6), s(2, 2), s(5, 2),
            s(-8, -7), s(4, -6), s(4, 6), s(4, 0), s(4, 0), s(4, 6), s(4, -6), s(-8, -7),
            s(-3, -10), s(-5, -6), s(-3, -7), s(2, -1), s(2, -1), s(-3, -7), s(-5, -6), s(-3, -10),
        ],
        [
            s(-3, -2), s(1, -11), s(4, -5), s(10, -8), s(10, -8), s(4, -5), s(1, -11), s(-3, -2),
            s(-22, -11), s(-5, -4), s(1, -8), s(3, -8), s(3, -8), s(1, -8), s(-5, -4), s(-22, -11),
            s(-16, -9), s(-3, -3), s(-13, -6), s(2, -9), s(2, -9), s(-13, -6), s(-3, -3), s(-16, -9),
            s(4, 0), s(-6, -1), s(-2, -1), s(3, 1), s(3, 1), s(-2, -1), s(-6, -1), s(4, 0),
            s(-2, 4), s(3, 5), s(0, 7), s(5, 4), s(5, 4), s(0, 7), s(3, 5), s(-2, 4),
            s(0, 3), s(0, 6), s(10, 12), s(9, 5), s(9, 5), s(10, 12), s(0, 6), s(0, 3),
            s(18, 16), s(13, 16), s(19, 17), s(25, 25), s(25, 25), s(19, 17), s(13, 16), s(18, 16),
            s(2, 10), s(1, 5), s(6, 6), s(3, 2), s(3, 2), s(6, 6), s(1, 5), s(2, 10),
        ],
        [
            s(-5, -15), s(-4, -11), s(3, -4), s(6, -1), s(6, -1), s(3, -4), s(-4, -11), s(-5, -15),
            s(-4, -10), s(2, -6), s(2, -4), s(7, 4), s(7, 4), s(2, -4), s(2, -6), s(-4, -10),
            s(-12, -8), s(-7, 0), s(-4, 5), s(2, 3), s(2, 3), s(-4, 5), s(-7, 0), s(-12, -8),
            s(-11, -4), s(-2, 4), s(5, 12), s(5, 16), s(5, 16), s(5, 12), s(-2, 4), s(-11, -4),
            s(10, 2), s(0, 8), s(8, 14), s(-1, 18), s(-1, 18), s(8, 14), s(0, 8), s(10, 2),
            s(5, -1), s(2, 2), s(6, 8), s(8, 12), s(8, 12), s(6, 8), s(2, 2), s(5, -1),
            s(-2, -7), s(-3, -4), s(2, 4), s(1, 7), s(1, 7), s(2, 4), s(-3, -4), s(-2, -7),
            s(-4, -12), s(-3, -9), s(-1, -4), s(2, 2), s(2, 2), s(-1, -4), s(-3, -9), s(-4, -12),
        ],
        [
            s(22, -43), s(36, -20), s(-8, -10), s(-11, -8), s(-11, -8), s(-8, -10), s(36, -20), s(22, -43),
            s(21, -13), s(17, -9), s(-4, 0), s(-13, 6), s(-13, 6), s(-4, 0), s(17, -9), s(21, -13),
            s(-14, -14), s(-4, -1), s(-27, 5), s(-36, 21), s(-36, 21), s(-27, 5), s(-4, -1), s(-14, -14),
            s(-29, -1), s(-19, 5), s(-45, 16), s(-59, 28), s(-59, 28), s(-45, 16), s(-19, 5), s(-29, -1),
            s(-38, 3), s(-28, 17), s(-53, 24), s(-68, 31), s(-68, 31), s(-53, 24), s(-28, 17), s(-38, 3),
            s(-47, -7), s(-38, 10), s(-61, 19), s(-76, 26), s(-76, 26), s(-61, 19), s(-38, 10), s(-47, -7),
            s(-48, -26), s(-38, -5), s(-61, 4), s(-76, 14), s(-76, 14), s(-61, 4), s(-38, -5), s(-48, -26),
            s(-48, -39), s(-39, -24), s(-62, -11), s(-75, 2), s(-75, 2), s(-62, -11), s(-39, -24), s(-48, -39),
        ],
    ],
    mobility_knight: [
        s(-26, -18), s(-23, -27), s(-8, -15), s(-5, 1), s(5, 12), s(12, 18), s(11, 20), s(19, 20),
        s(15, 8),
    ],
    mobility_bishop: [
        s(-44, -52), s(-25, -26), s(-16, -24), s(-12, -15), s(-3, 2), s(-4, 10), s(-7, 13), s(2, 17),
        s(18, 17), s(21, 21), s(19, 8), s(25, 23), s(29, 29), s(31, 25),
    ],
    mobility_rook: [
        s(-23, -39), s(-16, -30), s(-7, -28), s(-2, -19), s(-2, -8), s(0, -6), s(-3, 3), s(4, 3),
        s(7, 15), s(7, 19), s(9, 22), s(6, 25), s(10, 33), s(20, 23), s(10, 23),
    ],
    mobility_queen: [
        s(-13, -26), s(-19, -24), s(-9, -20), s(-14, -18), s(-11, -19), s(-10, -18), s(-9, -16), s(-3, -10),
        s(-2, -14), s(1, -14), s(-5, -1), s(1, -5), s(3, 3), s(2, 5), s(2, 9), s(10, 11),
        s(7, 10), s(5, 16), s(8, 15), s(11, 16), s(8, 17), s(9, 15), s(9, 18), s(10, 20),
        s(11, 21), s(12, 23), s(13, 26), s(14, 28),
    ],
    bishop_pair: s(38, 55),
    rook_open: s(31, 12),
    rook_semi_open: s(13, 12),
    doubled: s(-3, -13),
    isolated: s(-5, -15),
    protected_pawn: s(5, 9),
    passed: [
        s(0, 0), s(5, 20), s(10, 6), s(10, 25), s(16, 52), s(52, 88), s(82, 121), s(0, 0),
    ],
    passed_blocked: [
        s(0, 0), s(-10, 9), s(-3, 11), s(7, 18), s(1, 25), s(33, 54), s(40, 78), s(0, 0),
    ],
    passed_king_them: s(-2, 10),
    passed_king_us: s(1, -5),
    shield_near: s(12, -4),
    shield_far: s(7, -4),
    shield_missing: s(-7, -6),
    king_open_file: s(-16, 7),
    king_attack: [
        s(0, 0), s(2, 0), s(8, 0), s(18, 0), s(15, 1), s(42, -13), s(61, -3), s(40, 24),
        s(97, -6), s(109, -1), s(179, -7), s(239, 0), s(284, 0), s(338, 0), s(392, 0), s(450, 0),
        s(512, 0), s(578, 0), s(600, 0), s(600, 0),
    ],
    king_attack_weak: [
        s(0, 0), s(1, 0), s(4, 0), s(9, 0), s(12, -18), s(9, -1), s(36, 0), s(49, 0),
        s(64, 0), s(81, 0), s(100, 0), s(121, 0), s(144, 0), s(169, 0), s(196, 0), s(225, 0),
        s(256, 0), s(289, 0), s(300, 0), s(300, 0),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for mg in [-700, -1, 0, 1, 650] {
            for eg in [-900, -1, 0, 1, 777] {
                let x = s(mg, eg);
                assert_eq!((mg_of(x), eg_of(x)), (mg, eg));
                assert_eq!((mg_of(x * 3), eg_of(x * 3)), (3 * mg, 3 * eg));
            }
        }
    }

    #[test]
    fn flat_layout_round_trips() {
        let pairs = WEIGHTS.to_pairs();
        assert_eq!(pairs.len(), NUM_WEIGHTS);
        assert_eq!(Weights::from_pairs(&pairs), Some(WEIGHTS));
        let mut changed = pairs.clone();
        changed[FIELD_OFFSET[Field::bishop_pair as usize]] = (1, 2);
        assert_eq!(Weights::from_pairs(&changed).map(|w| w.bishop_pair), Some(s(1, 2)));
        assert_eq!(Weights::name_of(FIELD_OFFSET[Field::bishop_pair as usize]), "bishop_pair");
        assert_eq!(Weights::name_of(FIELD_OFFSET[Field::pst as usize] + 64 + 3), "pst[1][3]");
        assert_eq!(Weights::from_pairs(&pairs[1..]), None);
    }
}
