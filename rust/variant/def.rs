//! Variant definitions as data: an INI dialect close to Fairy-Stockfish's `variants.ini`.
//!
//! A file holds sections `[name]` or `[name:parent]`, each a list of `key = value` lines
//! (`#` and `;` start comments). Pieces are given either by a named type with a letter,
//! as Fairy-Stockfish 11.1 names them (`knight = n`, `archbishop = a`, `knight = -` removes
//! one), or in Betza notation (`customPiece1 = a:BN`). A section without a parent starts
//! from orthodox chess's rules with no pieces, as Fairy-Stockfish does, so a file that uses
//! named types only is also a valid Fairy-Stockfish 11.1 `VariantPath` file. Every error
//! names the file and line. The format is documented for users in
//! `python/kibitz/variant/data/README.md`.

use super::betza::{self, Step};
use std::fmt;

/// A definition that cannot be used: where (source name, line; 0 when the problem is not
/// tied to one line) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    pub source: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}, line {}: {}", self.source, self.line, self.message)
        } else {
            write!(f, "{}: {}", self.source, self.message)
        }
    }
}

impl std::error::Error for VariantError {}

/// The result a rule gives to the side to move (Fairy-Stockfish's `win`, `loss`, `draw`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameValue {
    Win,
    Loss,
    Draw,
}

/// One piece type of a variant.
#[derive(Clone, Debug)]
pub(crate) struct PieceDef {
    /// Lower-case FEN letter (Black's; White's is upper case).
    pub letter: char,
    /// The key that defined it (`knight`, `customPiece1`), for messages.
    pub name: String,
    /// The Betza text the steps came from (documentation and `pieces()`).
    pub betza: String,
    pub steps: Vec<Step>,
    /// The piece whose capture or checkmate ends the game (the `king` key).
    pub royal: bool,
    /// The `pawn` key: double step, en passant and promotion apply to it.
    pub pawn: bool,
}

/// The extinction rule (Fairy-Stockfish's `extinction*` keys): shatranj's bare king.
#[derive(Clone, Debug)]
pub(crate) struct Extinction {
    pub value: GameValue,
    /// Piece types counted; `None` counts all of a side's pieces together (`*`).
    pub types: Vec<Option<usize>>,
    pub count: u32,
    pub opponent_count: u32,
    /// Only the side to move can claim (the opponent needs one piece more if bare first).
    pub claim: bool,
}

/// A complete variant: board, pieces, start position and rules.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    pub files: u8,
    pub ranks: u8,
    pub(crate) pieces: Vec<PieceDef>,
    pub start_fen: String,
    /// Relative rank (1-based) from which a pawn promotes.
    pub(crate) promotion_rank: u8,
    pub(crate) promotion_types: Vec<usize>,
    /// Per piece type, the most of that type a side may own after promoting (0 = no limit).
    pub(crate) promotion_limit: Vec<u32>,
    pub(crate) mandatory_promotion: bool,
    pub(crate) double_step: bool,
    pub(crate) double_step_rank: u8,
    pub(crate) castling: bool,
    pub(crate) castling_kingside_file: u8,
    pub(crate) castling_queenside_file: u8,
    pub(crate) castling_rank: u8,
    pub(crate) castling_rook: Option<usize>,
    pub(crate) stalemate: GameValue,
    pub(crate) checkmate: GameValue,
    pub(crate) extinction: Option<Extinction>,
    pub(crate) immobility_illegal: bool,
    pub(crate) n_move_rule: u32,
}

impl Variant {
    /// The piece types as (letter, key, Betza), in definition order.
    pub fn pieces(&self) -> Vec<(char, String, String)> {
        self.pieces.iter().map(|p| (p.letter, p.name.clone(), p.betza.clone())).collect()
    }
    pub(crate) fn type_of_letter(&self, c: char) -> Option<usize> {
        let l = c.to_ascii_lowercase();
        self.pieces.iter().position(|p| p.letter == l)
    }
}

/// Fairy-Stockfish 11.1's named piece types and their moves in Betza (its `piece.cpp`
/// lists the same moves). `pawn` and `king` get their special rules from the key.
const NAMED: [(&str, &str); 34] = [
    ("pawn", "fmWfcF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("king", "K"),
    ("commoner", "K"),
    ("fers", "F"),
    ("wazir", "W"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "ffN"),
    ("euroshogiKnight", "ffNsW"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("banner", "RcpRnN"),
    ("centaur", "KN"),
];

fn named_betza(name: &str) -> Option<&'static str> {
    NAMED.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// Keys accepted and ignored: they only describe how a GUI draws the variant.
const COSMETIC: [&str; 4] = ["variantTemplate", "pieceToCharTable", "pocketSize", "endgameEval"];

/// Rule keys this generator implements (anything else is refused, naming the line).
const RULES: [&str; 24] = [
    "maxRank",
    "maxFile",
    "startFen",
    "promotionRank",
    "promotionPieceTypes",
    "promotionLimit",
    "mandatoryPawnPromotion",
    "doubleStep",
    "doubleStepRank",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingRookPiece",
    "kingType",
    "stalemateValue",
    "checkmateValue",
    "extinctionValue",
    "extinctionClaim",
    "extinctionPieceTypes",
    "extinctionPieceCount",
    "extinctionOpponentPieceCount",
    "immobilityIllegal",
    "nMoveRule",
];

/// One `key = value` line, with where it came from.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) value: String,
    pub(crate) source: String,
    pub(crate) line: usize,
}

/// A section as read: its parent and its entries in order.
#[derive(Clone, Debug)]
pub(crate) struct Section {
    pub(crate) parent: Option<String>,
    pub(crate) source: String,
    pub(crate) line: usize,
    pub(crate) entries: Vec<(String, Entry)>,
}

/// Turns merged entries into a checked `Variant` (its start position is checked by
/// `VariantSet::build`, which has the board).
pub(crate) fn build_variant(
    name: &str,
    section: &Section,
    entries: &[(String, Entry)],
) -> Result<Variant, VariantError> {
    let at = |e: &Entry, message: String| VariantError { source: e.source.clone(), line: e.line, message };
    let get = |k: &str| entries.iter().find(|(key, _)| key == k).map(|(_, e)| e);

    // Pieces, in the order their lines appear.
    let mut pieces: Vec<PieceDef> = Vec::new();
    let mut piece_lines: Vec<&Entry> = Vec::new();
    for (key, e) in entries {
        let (letter_text, betza_text, pawn, royal) = if let Some(b) = named_betza(key) {
            if e.value == "-" {
                continue;
            }
            (e.value.as_str(), b.to_string(), key == "pawn", key == "king")
        } else if key.starts_with("customPiece") && key.len() > "customPiece".len() {
            let Some((l, b)) = e.value.split_once(':') else {
                return Err(at(e, format!("{key} must be 'letter:Betza', e.g. 'a:BN', found {:?}", e.value)));
            };
            (l.trim(), b.trim().to_string(), false, false)
        } else if RULES.contains(&key.as_str()) || COSMETIC.contains(&key.as_str()) {
            continue;
        } else {
            return Err(at(
                e,
                format!(
                    "unknown or unsupported rule {key:?} (supported: piece names such as knight, customPieceN, and {})",
                    RULES.join(", ")
                ),
            ));
        };
        let mut chars = letter_text.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return Err(at(e, format!("{key}: expected a single letter, found {letter_text:?}")));
        };
        if !letter.is_ascii_alphabetic() {
            return Err(at(e, format!("{key}: the piece letter must be a letter a-z, found {letter:?}")));
        }
        let letter = letter.to_ascii_lowercase();
        if let Some(i) = pieces.iter().position(|p| p.letter == letter) {
            return Err(at(
                e,
                format!("letter '{letter}' is already used by {} (line {})", pieces[i].name, piece_lines[i].line),
            ));
        }
        let steps = betza::parse(&betza_text).map_err(|b| at(e, format!("{key}: {b}")))?;
        pieces.push(PieceDef { letter, name: key.clone(), betza: betza_text, steps, royal, pawn });
        piece_lines.push(e);
    }
    // Type sets are u32 bit masks and cell codes ((type + 1) * 2 + colour) must stay below
    // 64 for the attack test's u64 code sets: 30 types at most.
    if pieces.len() > 30 {
        return Err(VariantError {
            source: section.source.clone(),
            line: section.line,
            message: "at most 30 piece types".into(),
        });
    }
    if pieces.is_empty() {
        return Err(VariantError {
            source: section.source.clone(),
            line: section.line,
            message: format!("variant [{name}] defines no pieces"),
        });
    }
    if let Some(e) = get("kingType") {
        let Some(king) = pieces.iter().position(|p| p.royal) else {
            return Err(at(e, "kingType needs a king".into()));
        };
        let betza_text = named_betza(&e.value).map(str::to_string).unwrap_or_else(|| e.value.clone());
        let steps = betza::parse(&betza_text).map_err(|b| at(e, format!("kingType: {b}")))?;
        pieces[king].betza = betza_text;
        pieces[king].steps = steps;
    }
    let type_of = |e: &Entry, c: char| -> Result<usize, VariantError> {
        pieces
            .iter()
            .position(|p| p.letter == c.to_ascii_lowercase())
            .ok_or_else(|| at(e, format!("'{c}' is not the letter of a piece of this variant")))
    };
    let int = |k: &str, default: u32, lo: u32, hi: u32| -> Result<u32, VariantError> {
        match get(k) {
            None => Ok(default),
            Some(e) => match e.value.parse::<u32>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(at(e, format!("{k} must be a whole number from {lo} to {hi}, found {:?}", e.value))),
            },
        }
    };
    let boolean = |k: &str, default: bool| -> Result<bool, VariantError> {
        match get(k) {
            None => Ok(default),
            Some(e) => match e.value.as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                v => Err(at(e, format!("{k} must be true or false, found {v:?}"))),
            },
        }
    };
    let value = |k: &str, default: Option<GameValue>| -> Result<Option<GameValue>, VariantError> {
        match get(k) {
            None => Ok(default),
            Some(e) => match e.value.as_str() {
                "win" => Ok(Some(GameValue::Win)),
                "loss" => Ok(Some(GameValue::Loss)),
                "draw" => Ok(Some(GameValue::Draw)),
                "none" => Ok(None),
                v => Err(at(e, format!("{k} must be win, loss, draw or none, found {v:?}"))),
            },
        }
    };
    // Board size: at most 12 files and 10 ranks (the padded mailbox's size; Fairy-Stockfish's
    // large-board build has the same limits).
    let files = match get("maxFile") {
        None => 8,
        Some(e) => {
            let v = &e.value;
            let n = if let Ok(n) = v.parse::<u32>() {
                n
            } else if v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() {
                u32::from(v.as_bytes()[0] - b'a') + 1
            } else {
                0
            };
            if !(1..=12).contains(&n) {
                return Err(at(e, format!("maxFile must be 1-12 or a file letter a-l, found {v:?}")));
            }
            n as u8
        }
    };
    let ranks = int("maxRank", 8, 1, 10)? as u8;
    let file_key = |k: &str, default: u8| -> Result<u8, VariantError> {
        match get(k) {
            None => Ok(default),
            Some(e) => {
                let v = &e.value;
                let f = if let Ok(n) = v.parse::<u8>() {
                    n.wrapping_sub(1)
                } else if v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() {
                    v.as_bytes()[0] - b'a'
                } else {
                    u8::MAX
                };
                if f >= files {
                    return Err(at(
                        e,
                        format!("{k} must be a file of the board (a-{}), found {v:?}", (b'a' + files - 1) as char),
                    ));
                }
                Ok(f)
            }
        }
    };
    let mut promotion_types = Vec::new();
    if let Some(e) = get("promotionPieceTypes") {
        if e.value != "-" {
            for c in e.value.chars().filter(|c| !c.is_whitespace()) {
                let t = type_of(e, c)?;
                if pieces[t].royal || pieces[t].pawn {
                    return Err(at(e, format!("cannot promote to '{c}' ({})", pieces[t].name)));
                }
                promotion_types.push(t);
            }
        }
    }
    let mut promotion_limit = vec![0u32; pieces.len()];
    if let Some(e) = get("promotionLimit") {
        for item in e.value.split_whitespace() {
            let parsed = item.split_once(':').and_then(|(l, n)| Some((l.chars().next()?, n.parse::<u32>().ok()?)));
            let Some((c, n)) = parsed else {
                return Err(at(e, format!("promotionLimit items look like 'q:1', found {item:?}")));
            };
            promotion_limit[type_of(e, c)?] = n;
        }
    }
    let castling_rook = match get("castlingRookPiece") {
        Some(e) => Some(type_of(e, e.value.chars().next().unwrap_or(' '))?),
        None => pieces.iter().position(|p| p.name == "rook"),
    };
    let extinction = match value("extinctionValue", None)? {
        None => None,
        Some(v) => {
            let mut types = Vec::new();
            if let Some(e) = get("extinctionPieceTypes") {
                for c in e.value.chars().filter(|c| !c.is_whitespace()) {
                    types.push(if c == '*' { None } else { Some(type_of(e, c)?) });
                }
            }
            Some(Extinction {
                value: v,
                types,
                count: int("extinctionPieceCount", 0, 0, 1000)?,
                opponent_count: int("extinctionOpponentPieceCount", 0, 0, 1000)?,
                claim: boolean("extinctionClaim", false)?,
            })
        }
    };
    let v = Variant {
        name: name.to_string(),
        files,
        ranks,
        start_fen: get("startFen").map(|e| e.value.clone()).unwrap_or_else(|| crate::STARTPOS.to_string()),
        promotion_rank: int("promotionRank", 8, 1, 10)? as u8,
        promotion_types,
        promotion_limit,
        mandatory_promotion: boolean("mandatoryPawnPromotion", true)?,
        double_step: boolean("doubleStep", true)?,
        double_step_rank: int("doubleStepRank", 2, 1, 10)? as u8,
        castling: boolean("castling", true)?,
        castling_kingside_file: file_key("castlingKingsideFile", 6.min(files - 1))?,
        castling_queenside_file: file_key("castlingQueensideFile", 2.min(files - 1))?,
        castling_rank: int("castlingRank", 1, 1, 10)? as u8,
        castling_rook,
        stalemate: value("stalemateValue", Some(GameValue::Draw))?.unwrap_or(GameValue::Draw),
        checkmate: value("checkmateValue", Some(GameValue::Loss))?.unwrap_or(GameValue::Loss),
        extinction,
        immobility_illegal: boolean("immobilityIllegal", false)?,
        n_move_rule: int("nMoveRule", 50, 0, 10000)?,
        pieces,
    };
    if v.castling {
        check_castling(&v, section, &get)?;
    }
    Ok(v)
}

/// Castling must keep king and rook on the board: the king lands on the castling file, the
/// rook beside it towards the centre (kingside: the file left of the king's, queenside: the
/// file right of it), on the castling rank. An error names the line of the key to change (or
/// of `maxFile` / `maxRank` / the section when the default does not fit the board).
fn check_castling<'e>(
    v: &Variant,
    section: &Section,
    get: &impl Fn(&str) -> Option<&'e Entry>,
) -> Result<(), VariantError> {
    let file_name = |f: i32| ((b'a' as i32 + f) as u8) as char;
    let locate = |keys: &[&str]| -> (String, usize) {
        keys.iter()
            .find_map(|k| get(k))
            .map(|e| (e.source.clone(), e.line))
            .unwrap_or((section.source.clone(), section.line))
    };
    if v.castling_rank > v.ranks {
        let (source, line) = locate(&["castlingRank", "maxRank"]);
        return Err(VariantError {
            source,
            line,
            message: format!(
                "castlingRank {} is off the {}-rank board (set castlingRank, or castling = false)",
                v.castling_rank, v.ranks
            ),
        });
    }
    let files = v.files as i32;
    for (key, king, rook, side) in [
        ("castlingKingsideFile", v.castling_kingside_file as i32, v.castling_kingside_file as i32 - 1, "kingside"),
        ("castlingQueensideFile", v.castling_queenside_file as i32, v.castling_queenside_file as i32 + 1, "queenside"),
    ] {
        if !(0..files).contains(&rook) {
            let (source, line) = locate(&[key, "maxFile"]);
            let beyond = if rook < 0 { 'a' } else { file_name(files - 1) };
            return Err(VariantError {
                source,
                line,
                message: format!(
                    "{key} {}: castling {side} would put the king on the {} file and its rook beyond the {beyond} \
                     file, off the {files}-file board; choose another {key}, or set castling = false",
                    file_name(king),
                    file_name(king),
                ),
            });
        }
    }
    Ok(())
}
