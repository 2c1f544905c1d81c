//! Betza notation for piece moves, parsed into steps the generator can run.
//!
//! A piece is a sequence of atoms, each preceded by modifiers and followed by an optional
//! range: `N` (knight), `fmWfcF` (the pawn's single step and capture), `mRcpR` (the
//! Xiangqi cannon), `nN` (the lame Xiangqi horse), `R4` (a rook that moves at most four
//! squares), `NN` (the nightrider). The notation is Ralph Betza's, as summarised at
//! <https://www.chessvariants.com/piececlopedia.dir/betza-notation.html>.
//!
//! Supported here: the leaper atoms W F D N A H C Z G (one or two squares orthogonally,
//! diagonally, and the oblique leaps up to three squares), the compounds K Q R B, a doubled
//! atom or a number for range, the direction modifiers f b l r v s (a pair such as `fr`
//! means both at once on diagonal and oblique atoms; `ff`, `bb`, `ll`, `rr` select the
//! oblique leaps longer in that direction), the modes m (move only) and c (capture only),
//! the hoppers p (cannon: over one piece, then any distance) and g (grasshopper: lands just
//! past the hurdle), and n (a lame leap of two squares, blocked by the square on its path).
//! Anything else is refused with a message naming the letter: a silent misreading would
//! make a wrong reference.

use std::fmt;

/// How a step passes other pieces on its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hop {
    /// Ordinary: a rider stops at the first piece.
    None,
    /// Cannon (`p`): passes exactly one piece (the screen), then rides on.
    Cannon,
    /// Grasshopper (`g`): rides to a hurdle and lands on the square just beyond it.
    Grasshopper,
}

/// One direction of movement of a piece, from White's side (forward is +y).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub dx: i8,
    pub dy: i8,
    /// Squares the piece may travel along this direction: 1 for a leaper, 0 for unlimited.
    pub range: u8,
    pub can_move: bool,
    pub can_capture: bool,
    pub hop: Hop,
    /// A lame leap: the square half-way along (rounded towards the origin) must be empty.
    pub lame: bool,
}

/// A malformed Betza string: what is wrong, with the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BetzaError(pub String);

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The basic leaps (dx, dy with 0 <= dy <= dx) of each atom letter, and whether the atom
/// is a compound that rides by itself (R, B, Q).
fn atom(letter: char) -> Option<(&'static [(i8, i8)], bool)> {
    Some(match letter {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'C' => (&[(3, 1)], false),
        'Z' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
}

/// All the symmetric images of a leap (dx >= dy >= 0): 4 for orthogonal and diagonal
/// leaps, 8 for oblique ones.
fn images(dx: i8, dy: i8) -> Vec<(i8, i8)> {
    let mut out: Vec<(i8, i8)> = Vec::with_capacity(8);
    for (a, b) in [(dx, dy), (dy, dx)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (a * sx, b * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// One direction condition from the modifiers: a conjunction of simple tests.
#[derive(Clone, Copy, Default)]
struct Dir {
    fwd: Option<bool>,   // Some(true): dy > 0, Some(false): dy < 0
    right: Option<bool>, // Some(true): dx > 0, Some(false): dx < 0
    long_y: bool,        // |dy| > |dx| (doubled f or b)
    long_x: bool,        // |dx| > |dy| (doubled l or r)
}

impl Dir {
    fn matches(&self, dx: i8, dy: i8) -> bool {
        self.fwd.is_none_or(|f| if f { dy > 0 } else { dy < 0 })
            && self.right.is_none_or(|r| if r { dx > 0 } else { dx < 0 })
            && (!self.long_y || dy.abs() > dx.abs())
            && (!self.long_x || dx.abs() > dy.abs())
    }
}

/// Turns the direction letters before one atom into a list of alternatives.
fn directions(letters: &[char], oblique_or_diagonal: bool) -> Vec<Dir> {
    let mut out = Vec::new();
    let mut i = 0;
    let single = |c: char| -> Vec<Dir> {
        match c {
            'f' => vec![Dir { fwd: Some(true), ..Dir::default() }],
            'b' => vec![Dir { fwd: Some(false), ..Dir::default() }],
            'r' => vec![Dir { right: Some(true), ..Dir::default() }],
            'l' => vec![Dir { right: Some(false), ..Dir::default() }],
            'v' => vec![Dir { fwd: Some(true), ..Dir::default() }, Dir { fwd: Some(false), ..Dir::default() }],
            _ => vec![Dir { right: Some(true), ..Dir::default() }, Dir { right: Some(false), ..Dir::default() }], // 's'
        }
    };
    while i < letters.len() {
        let c = letters[i];
        let next = letters.get(i + 1).copied();
        let vertical = |c: char| c == 'f' || c == 'b';
        let horizontal = |c: char| c == 'l' || c == 'r';
        match next {
            Some(n) if oblique_or_diagonal && n == c && (vertical(c) || horizontal(c)) => {
                let mut d = single(c)[0];
                if vertical(c) {
                    d.long_y = true;
                } else {
                    d.long_x = true;
                }
                out.push(d);
                i += 2;
            }
            Some(n) if oblique_or_diagonal && ((vertical(c) && horizontal(n)) || (horizontal(c) && vertical(n))) => {
                let (v, h) = if vertical(c) { (c, n) } else { (n, c) };
                out.push(Dir { fwd: Some(v == 'f'), right: Some(h == 'r'), ..Dir::default() });
                i += 2;
            }
            _ => {
                out.extend(single(c));
                i += 1;
            }
        }
    }
    out
}

/// Parses a Betza string into steps (White's orientation). An empty string is a piece
/// that cannot move.
pub(crate) fn parse(text: &str) -> Result<Vec<Step>, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let mut steps: Vec<Step> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        // Modifiers.
        let mut dirs: Vec<char> = Vec::new();
        let (mut m, mut c, mut hop, mut lame) = (false, false, Hop::None, false);
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(chars[i]),
                'm' => m = true,
                'c' => c = true,
                'p' => hop = Hop::Cannon,
                'g' => hop = Hop::Grasshopper,
                'n' => lame = true,
                'i' => return Err(BetzaError(format!("'{text}': the initial-move modifier 'i' is not supported (a pawn's double step is the doubleStep rule)"))),
                'e' => return Err(BetzaError(format!("'{text}': the en passant modifier 'e' is not supported (en passant belongs to the pawn type)"))),
                other => return Err(BetzaError(format!("'{text}': unknown or unsupported modifier '{other}'"))),
            }
            i += 1;
        }
        let Some(&letter) = chars.get(i) else {
            return Err(BetzaError(format!("'{text}': modifiers at the end with no atom after them")));
        };
        let Some((leaps, rides)) = atom(letter) else {
            return Err(BetzaError(format!("'{text}': unknown atom '{letter}' (known: W F D N A H C Z G K Q R B)")));
        };
        i += 1;
        // Range: a doubled atom rides without limit; digits give a maximum range.
        let mut range: u8 = if rides { 0 } else { 1 };
        if !rides && chars.get(i) == Some(&letter) {
            range = 0;
            i += 1;
        } else if chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
            let start = i;
            while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                i += 1;
            }
            let n: String = chars[start..i].iter().collect();
            range = n.parse::<u8>().map_err(|_| BetzaError(format!("'{text}': range {n} is too large")))?;
        }
        if hop != Hop::None && range == 1 {
            return Err(BetzaError(format!("'{text}': a hopper ('p' or 'g') must ride, e.g. pR")));
        }
        if lame && (range != 1 || leaps.iter().any(|&(dx, _)| dx != 2)) {
            return Err(BetzaError(format!("'{text}': 'n' (lame) is supported on two-square leaps only (nD, nN, nA)")));
        }
        if !m && !c {
            (m, c) = (true, true);
        }
        for &(lx, ly) in leaps {
            let bent = ly != 0; // diagonal or oblique: direction pairs like fr apply
            let wanted = directions(&dirs, bent);
            for (dx, dy) in images(lx, ly) {
                if !wanted.is_empty() && !wanted.iter().any(|d| d.matches(dx, dy)) {
                    continue;
                }
                let step = Step { dx, dy, range, can_move: m, can_capture: c, hop, lame };
                if !steps.contains(&step) {
                    steps.push(step);
                }
            }
        }
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> Vec<(i8, i8, u8, bool, bool)> {
        let mut v: Vec<_> =
            parse(text).unwrap().iter().map(|s| (s.dx, s.dy, s.range, s.can_move, s.can_capture)).collect();
        v.sort();
        v
    }

    #[test]
    fn atoms_and_compounds() {
        assert_eq!(parse("N").unwrap().len(), 8);
        assert_eq!(parse("K").unwrap().len(), 8);
        assert_eq!(parse("Q").unwrap().len(), 8);
        assert!(parse("R").unwrap().iter().all(|s| s.range == 0));
        assert!(parse("NN").unwrap().iter().all(|s| s.range == 0));
        assert!(parse("W4").unwrap().iter().all(|s| s.range == 4));
        assert_eq!(set("fmWfcF"), vec![(-1, 1, 1, false, true), (0, 1, 1, true, false), (1, 1, 1, false, true)]);
        assert_eq!(set("fsW"), vec![(-1, 0, 1, true, true), (0, 1, 1, true, true), (1, 0, 1, true, true)]);
        assert_eq!(parse("ffN").unwrap().len(), 2);
        assert_eq!(parse("frF").unwrap().len(), 1);
        assert!(parse("mRcpR").unwrap().iter().any(|s| s.hop == Hop::Cannon));
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(parse("X").unwrap_err().0.contains("unknown atom 'X'"));
        assert!(parse("fmWife").unwrap_err().0.contains("'i'"));
        assert!(parse("pW").unwrap_err().0.contains("must ride"));
        assert!(parse("nC").unwrap_err().0.contains("lame"));
        assert!(parse("fm").unwrap_err().0.contains("no atom"));
    }
}
