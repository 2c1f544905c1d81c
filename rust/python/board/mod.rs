//! `kibitz.Board`: the Python face of the core board, shaped like python-chess's `chess.Board`
//! (same names, same square numbering, `Move`/`Piece` objects), so that code moves over by
//! changing an import.
//!
//! Speed of the natural Python loop `for m in b.legal_moves: b.push(m); ...; b.pop()` comes
//! from four things: the moves handed out are interned objects (no allocation per move); the
//! legal moves of each position on the current line are generated once and kept, with the tuple
//! of Move objects that iteration walks in C (`legal_moves` is a live view that reads this
//! cache); `push` of a kibitz Move finds its core move by a table index compared against the
//! cached list, with no text and no Python attribute lookups; and that move is left pending
//! (`State::pending`) until the board is next read or changed, so a `pop` that comes first
//! (every leaf of a perft) neither makes nor unmakes it.
//!
//! The board is a frozen pyclass around a `TryLock` (rust/python/lock.rs): two threads using one board at once get a
//! clear `RuntimeError` (see `BUSY`) instead of PyO3's bare "Already borrowed", and a long
//! `perft` keeps the lock while it runs without the GIL.
//!
//! This file holds the board's state and the helpers the methods share. The methods Python
//! sees are `#[pymethods]` blocks grouped by idea: `methods` (construction, FEN, moves,
//! notation, perft, objects that behave), `squares` (pieces and squares), `outcome` (the end
//! of the game), `editing` (placement and attribute changes); `stack_list` keeps the list
//! `move_stack` hands out, up to date at each read; the live views it hands out
//! (`legal_moves`, `SquareSet`) are in `super::views`, which reads this file's state.

mod editing;
pub(crate) mod fast;
mod lifecycle;
mod lists;
mod loose;
mod methods;
pub(crate) mod movetext;
mod order;
mod outcome;
mod repetition;
mod san;
mod setup;
mod shared;
mod squares;
mod stack_list;

use shared::SharedCore;
use stack_list::StackList;

use super::errors::{fen_text_err, move_err, move_text_err, text, IllegalMoveError, InvalidPositionError};
use super::interrupt::run_interruptible;
use super::lock::{TryGuard, TryLock};
use super::moves::{
    core_index, history_py_moves, interned, interned_ptr, move_index, name64, new_ref_inline, piece, to_py_move,
    untracked, ColorArg, Flag, PyMove, PyPiece,
};
use crate::{
    color_of, divide_until, file_of, kind_of, perft_until, sq120, sq64, square_name, Board as CoreBoard, Move, BLACK,
    EMPTY, KING, KNIGHT, PAWN, QUEEN, WHITE,
};
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyIterator, PyList, PyString, PyTuple, PyType};

/// The message when a second thread reaches a board the first is still using.
const BUSY: &str = "this Board is in use by another thread (for example a perft running there); \
                    a Board is not shared between threads: give each thread its own board.copy()";

/// All 64 squares as a mask (python-chess's BB_ALL), the default of the mask arguments.
const ALL: u64 = u64::MAX;

/// The legal moves of one position of the current line, kept while that position is on it.
#[derive(Default)]
struct Entry {
    valid: bool,
    key: u64,
    moves: Vec<Move>,
    /// Each move's index in the interned table, in `moves` order.
    index: Vec<u16>,
    /// The interned Move objects in `moves` order, made on first iteration.
    tuple: Option<Py<PyTuple>>,
    /// Where the next lookup starts: one past the last move found. A loop over the moves in
    /// iteration order finds each on the first comparison.
    hint: usize,
}

impl Entry {
    /// The position in `moves` of the move with table index `index`.
    #[inline(always)]
    fn find(&mut self, index: u16) -> Option<usize> {
        let i = if self.index.get(self.hint) == Some(&index) {
            self.hint
        } else {
            self.index.iter().position(|&k| k == index)?
        };
        self.hint = i + 1;
        Some(i)
    }
}

/// A square mask argument as python-chess takes one: any int (or object with
/// `__index__`), masked to 64 bits, so `~BB_E4` and other negative ints work.
#[derive(Clone, Copy)]
pub(crate) struct Mask(pub(crate) u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Mask {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(m) = obj.extract::<u64>() {
            return Ok(Mask(m));
        }
        let index = obj.call_method0("__index__").map_err(|_| {
            PyTypeError::new_err(format!(
                "a square mask must be an int, not {}",
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?;
        Ok(Mask(index.bitand(u64::MAX)?.extract()?))
    }
}

/// Everything behind the board's lock.
pub(crate) struct State {
    pub(crate) core: SharedCore,
    /// python-chess's `ep_square` of the root position: the FEN's en-passant field even when
    /// no pawn can capture there (the core keeps only capturable ones, as Polyglot hashes them).
    root_ep: Option<u8>,
    /// python-chess's `castling_rights` of the root position: the rook squares the FEN or the
    /// edits named, usable or not (the core keeps the usable ones; a move makes them clean).
    root_castling: u64,
    /// python-chess's `promoted` at the root position (pieces that came from a promotion, as
    /// a FEN's `~` or an edit marks them); the moves since are replayed over it
    /// (`promoted_now`).
    root_promoted: u64,
    /// The root's en-passant square is one the core does not hold although python-chess may
    /// write it (a square no pawn can have just crossed): the FEN is then written in Python.
    odd_ep: bool,
    /// Why the core cannot play this position (no king, two kings, a pawn on a back rank...),
    /// None when it can. An unplayable core holds the placement, turn and clocks only: the
    /// placement queries read it, the move operations raise `InvalidPositionError`. Borrowed
    /// when it is the empty board's (`State::empty`), so a new empty board copies no text.
    unplayable: Option<Cow<'static, str>>,
    /// Entry i belongs to the position after i moves of the current line. Invariant: entries
    /// beyond the current ply are invalid (pop invalidates the one it leaves), so push needs
    /// no bookkeeping and the parent's list is still there when the child is popped.
    cache: Vec<Entry>,
    /// The move `parse_san` found last, with the position's key and ply and the move's table
    /// index: a `push` of that Move right after plays it without checking it again (a PGN
    /// reader parses, shows the move to its visitor, then pushes).
    parsed: Option<(u64, usize, u16, Move)>,
    /// A move `push` accepted (found legal here, with its table index) but has not made yet:
    /// it is made when anything next takes the state (`PyBoard::st`), and a `pop` that comes
    /// first just drops it. The leaf of a Python search loop, `push(m)` then `pop()` with
    /// nothing read between, so costs no make and no unmake. Only `pop` sees the state with a
    /// move pending (`PyBoard::st_pending`); to everything else it has been made.
    pending: Option<(Move, u16)>,
    /// The board as it was before an attribute assignment (`board.turn = ...` and the other
    /// setters) made this position, when it had moves: python-chess's attributes are plain
    /// fields, so its move stack survives an assignment and `pop` goes back past it. The
    /// core starts a new history at the assigned position; `pop` at its root returns to
    /// this state, and `move_stack` lists its moves first. (The editing methods clear the
    /// stack, as python-chess's do, and drop this.)
    before: Option<Box<State>>,
    /// The move (from, to, promotion kind; all 0 for the null move) that led from `before` to
    /// this position, when it was a move the core could not play (`push_lenient`); None when
    /// `before` is an attribute assignment's.
    via: Option<(u8, u8, u8)>,
}

impl State {
    fn new(core: CoreBoard, root_ep: Option<u8>) -> State {
        State::shared(SharedCore::new(core), root_ep)
    }

    /// A state around a core board that may be shared with other states (copy on write).
    fn shared(core: SharedCore, root_ep: Option<u8>) -> State {
        let root_castling = core.castling_rook_mask();
        State {
            core,
            root_ep,
            root_castling,
            root_promoted: 0,
            odd_ep: false,
            unplayable: None,
            cache: Vec::new(),
            parsed: None,
            pending: None,
            before: None,
            via: None,
        }
    }

    /// The state of a position as python-chess holds it (the rules library's `Setup`), with
    /// no move stack: the core with only the usable castling rights (`clean_castling`) and
    /// en-passant square, the rights and the square as given beside it. When the core cannot
    /// play the position, the state keeps its placement only, and why.
    fn from_setup(setup: &crate::Setup) -> PyResult<State> {
        let clean = setup.clean_castling();
        let ep = setup.ep;
        let mut st = match CoreBoard::from_setup(setup, clean) {
            Ok(core) => {
                let mut st = State::new(core, ep);
                // A square the core does not hold (no pawn can have just crossed it).
                st.odd_ep = ep.is_some() && setup.valid_ep().is_none();
                st
            }
            Err(why) => {
                let mut st = State::new(CoreBoard::from_setup_loose(setup, clean), ep);
                st.odd_ep = ep.is_some();
                st.unplayable = Some(Cow::Owned(why.to_string()));
                st
            }
        };
        st.root_castling = setup.castling;
        st.root_promoted = setup.promoted;
        Ok(st)
    }

    /// The piece code on square `s` (a1 = 0): EMPTY or a piece.
    #[inline]
    fn piece_on(&self, s: u8) -> u8 {
        self.core.piece_at(sq120(s as usize % 8, s as usize / 8))
    }

    /// Whether square `s` holds a piece of the side to move.
    #[inline]
    fn mover_on(&self, s: u8) -> bool {
        let p = self.piece_on(s);
        p != EMPTY && color_of(p) == self.core.side_to_move()
    }

    /// python-chess's `promoted` now: the root's marks carried through the moves since.
    fn promoted_now(&self) -> u64 {
        self.core.promoted_after(self.root_promoted, usize::MAX)
    }

    /// python-chess's empty board (`Board.empty()`, `Board(None)`): a copy of one made once
    /// per Chess960 flag (the core is shared until the board is edited, as for `copy()`), so
    /// it costs no FEN reading and no error text.
    fn empty(chess960: bool) -> State {
        static EMPTY: std::sync::OnceLock<[(SharedCore, String); 2]> = std::sync::OnceLock::new();
        let templates = EMPTY.get_or_init(|| {
            [false, true].map(|c960| {
                let st = State::from_setup(&crate::Setup::empty(c960)).expect("the empty board is a valid setup");
                (st.core, st.unplayable.expect("an empty board cannot be played").into_owned())
            })
        });
        let (core, why) = &templates[chess960 as usize];
        let mut st = State::shared(core.clone(), None);
        st.unplayable = Some(Cow::Borrowed(why.as_str()));
        st
    }

    /// The start position (`Board()`): a copy of one read once per Chess960 flag, sharing its
    /// core until the board first changes (as `copy()` does), so a new board costs no FEN
    /// reading; the same state `State::parse(STARTPOS, chess960)` gives.
    fn start(chess960: bool) -> State {
        static START: std::sync::OnceLock<[SharedCore; 2]> = std::sync::OnceLock::new();
        let templates = START.get_or_init(|| {
            [false, true].map(|c960| {
                let core = CoreBoard::from_fen_with(crate::STARTPOS, c960).expect("the start position is valid");
                SharedCore::new(core)
            })
        });
        State::shared(templates[chess960 as usize].clone(), None)
    }

    /// Err(InvalidPositionError) when the core cannot play the position: the guard of every
    /// operation that generates or makes moves.
    #[inline(always)]
    fn playable(&self) -> PyResult<()> {
        match &self.unplayable {
            None => Ok(()),
            Some(why) => Err(InvalidPositionError::new_err(format!(
                "kibitz cannot play this position ({}): {why}; status() tells what is wrong",
                self.core.board_fen()
            ))),
        }
    }

    /// python-chess's `castling_rights`: as given at the root, the usable ones after a move.
    fn raw_castling(&self) -> u64 {
        if self.core.ply() == 0 {
            self.root_castling
        } else {
            self.core.castling_rook_mask()
        }
    }

    /// The FEN is the core's own (no Python needed).
    fn plain_fen(&self) -> bool {
        self.unplayable.is_none() && !(self.odd_ep && self.core.ply() == 0)
    }

    /// python-chess's `king(color)`: the highest square with a king of that colour, if any.
    fn king64(&self, c: usize) -> Option<usize> {
        if self.unplayable.is_none() {
            return Some(sq64(self.core.king_square(c)));
        }
        let kings = self.core.bb[crate::make_piece(KING, c) as usize];
        (kings != 0).then(|| 63 - kings.leading_zeros() as usize)
    }

    /// The squares (as a mask) of the pieces of colour `by` attacking cell `sq`.
    fn attackers(&self, by: usize, sq: usize) -> u64 {
        self.core.attackers_of(by, sq)
    }

    /// The pieces giving check to the side to move (none without a king), as a mask.
    fn checkers(&self) -> u64 {
        let us = self.core.side_to_move();
        match self.king64(us) {
            Some(k) => self.attackers(us ^ 1, sq120(k % 8, k / 8)),
            None => 0,
        }
    }

    /// The current position's cache entry (its legal moves in python-chess's order), filled if
    /// needed.
    fn entry(&mut self) -> &mut Entry {
        let ply = self.core.ply();
        if self.cache.len() <= ply {
            self.cache.resize_with(ply + 1, Entry::default);
        }
        let key = self.core.key();
        let e = &mut self.cache[ply];
        if !(e.valid && e.key == key) {
            order::legal_in_order(&self.core, &mut e.moves, &mut e.index);
            e.tuple = None;
            e.hint = 0;
            e.key = key;
            e.valid = true;
        }
        e
    }

    /// The legal moves of the position if they are made already (none are made here).
    fn cached_legal(&self) -> Option<&[Move]> {
        let e = self.cache.get(self.core.ply())?;
        (e.valid && e.key == self.core.key()).then_some(e.moves.as_slice())
    }

    /// The interned Move objects of the legal moves, as a tuple made once per position.
    fn tuple(&mut self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let e = self.entry();
        if let Some(t) = &e.tuple {
            return Ok(t.clone_ref(py));
        }
        // Filled by hand: PyO3's generic builder converts each element through its
        // conversion traits and raises the count with a call, which cost about 5 ns per move.
        let n = e.index.len() as pyo3::ffi::Py_ssize_t;
        // SAFETY: the GIL is held (`py`); the new tuple is ours alone until returned, and
        // PyTuple_SetItem steals the fresh reference `interned_ptr` gives for each slot.
        let t: Py<PyTuple> = unsafe {
            let t = pyo3::ffi::PyTuple_New(n);
            if t.is_null() {
                return Err(PyErr::fetch(py));
            }
            for (k, &i) in e.index.iter().enumerate() {
                pyo3::ffi::PyTuple_SetItem(t, k as pyo3::ffi::Py_ssize_t, interned_ptr(py, i));
            }
            Bound::from_owned_ptr(py, t).cast_into_unchecked::<PyTuple>().unbind()
        };
        e.tuple = Some(t.clone_ref(py));
        Ok(t)
    }

    /// Makes the move `push` left pending, if any: the state as everyone but push and pop sees it.
    #[inline(always)]
    fn settle(&mut self) {
        if self.pending.is_some() {
            self.make_pending();
        }
    }

    #[cold]
    #[inline(never)]
    fn make_pending(&mut self) {
        if let Some((m, _)) = self.pending.take() {
            self.core.make_move(m);
        }
    }

    /// Plays a legal move (or the null move).
    fn play(&mut self, m: Move) {
        if m.is_null() {
            self.core.make_null();
        } else {
            self.core.make_move(m);
        }
    }

    /// The core move of a kibitz Move when it is an ordinary legal move here (no castling,
    /// en passant or drop), found without generating the move list: the move's shape gives its
    /// flags and `is_legal_quick` checks it. None sends the caller to `resolve`, which
    /// generates the moves and gives the right error for an illegal one.
    fn quick_move(&self, pm: &PyMove) -> Option<Move> {
        if pm.drop != 0 || self.unplayable.is_some() {
            return None;
        }
        let (f, t) = (pm.from as usize, pm.to as usize);
        let (from, to) = (sq120(f % 8, f / 8), sq120(t % 8, t / 8));
        let piece = self.core.piece_at(from);
        if piece == EMPTY {
            return None;
        }
        let m = match kind_of(piece) {
            PAWN => {
                if f % 8 != t % 8 && self.core.piece_at(to) == EMPTY {
                    return None; // en passant
                }
                match (pm.promo, t / 8 == 0 || t / 8 == 7) {
                    (0, false) if f.abs_diff(t) == 16 => Move::with_flags(from, to, Move::DOUBLE_PUSH),
                    (0, false) => Move::new(from, to),
                    (KNIGHT..=QUEEN, true) => Move::promotion(from, to, pm.promo),
                    _ => return None,
                }
            }
            KING if (f % 8).abs_diff(t % 8) > 1 => return None, // castling
            _ if pm.promo != 0 => return None,
            _ => Move::new(from, to),
        };
        let legal = self.core.is_legal_quick(m);
        debug_assert_eq!(legal, self.core.is_legal(m), "is_legal_quick disagrees on {m:?} in {}", self.core.fen());
        legal.then_some(m)
    }

    /// The legal core move a Python object names: a kibitz Move (fast path), a python-chess
    /// Move or UCI text. Raises IllegalMoveError / InvalidMoveError / TypeError. The null move
    /// is accepted only with `allow_null` and out of check.
    fn resolve(&mut self, obj: &Bound<'_, PyAny>, allow_null: bool) -> PyResult<Move> {
        self.playable()?;
        if let Ok(pm) = obj.cast::<PyMove>() {
            let pm = pm.get();
            let e = self.entry();
            if let Some(i) = e.find(pm.index) {
                return Ok(e.moves[i]);
            }
            if pm.drop != 0 {
                return Err(IllegalMoveError::new_err(format!(
                    "the drop {} is not a move of standard chess",
                    pm.text()
                )));
            }
            return self.resolve_fields(pm.from, pm.to, pm.promo, allow_null);
        }
        if let Ok(s) = obj.cast::<PyString>() {
            let t = text(s, "move", move_text_err)?;
            let (from, to, promo) = PyMove::parse(&t)?;
            return self.resolve_fields(from, to, promo, allow_null);
        }
        match PyMove::fields_of(obj)? {
            Some((from, to, promo)) => self.resolve_fields(from, to, promo, allow_null),
            None => Err(PyTypeError::new_err(format!(
                "expected a Move (kibitz or python-chess) or UCI text, got {}",
                obj.get_type().name()?
            ))),
        }
    }

    /// python-chess's `_to_chess960` on a Chess960 board (`crate::to_chess960_target`): e1g1
    /// or e1c1 (e8g8, e8c8) with no rook on the target castles with the corner's rook (its
    /// push, parse_uci and push_uci read it so; its is_legal and is_pseudo_legal do not,
    /// `names_standard_castling`). The target square to use; `to` itself otherwise.
    pub(super) fn chess960_castling_to(&self, from: u8, to: u8, promo: u8) -> u8 {
        if !self.core.is_chess960() {
            return to;
        }
        let at = |s: u8| self.piece_on(s);
        crate::to_chess960_target(from, to, promo, |s, kind| at(s) != EMPTY && kind_of(at(s)) == kind)
    }

    /// Whether `m` is such a move on a Chess960 board, which python-chess's is_legal refuses
    /// although its push plays it (`chess960_castling_to`).
    pub(super) fn names_standard_castling(&self, m: &Bound<'_, PyAny>) -> bool {
        move_fields(m).is_ok_and(|(from, to, promo)| self.chess960_castling_to(from, to, promo) != to)
    }

    fn resolve_fields(&mut self, from: u8, to: u8, promo: u8, allow_null: bool) -> PyResult<Move> {
        if from == 0 && to == 0 && promo == 0 {
            if !allow_null {
                return Err(IllegalMoveError::new_err(format!(
                    "the null move is not a legal move in {}",
                    self.core.fen()
                )));
            }
            if self.core.in_check() {
                return Err(IllegalMoveError::new_err(format!("a null move while in check in {}", self.core.fen())));
            }
            return Ok(Move::NULL);
        }
        if promo == 1 || promo == 6 {
            return Err(IllegalMoveError::new_err(format!(
                "a promotion to a {} is never legal ({}{}{} in {})",
                if promo == 1 { "pawn" } else { "king" },
                name64(from),
                name64(to),
                if promo == 1 { "p" } else { "k" },
                self.core.fen()
            )));
        }
        let to = self.chess960_castling_to(from, to, promo);
        let index = move_index(from as usize, to as usize, promo);
        let e = self.entry();
        if let Some(i) = e.index.iter().position(|&k| k == index) {
            return Ok(e.moves[i]);
        }
        // Standard-chess castling written king-takes-rook (e1h1), which python-chess accepts too.
        let letters = ["", "", "n", "b", "r", "q"];
        let uci = format!("{}{}{}", name64(from), name64(to), letters[promo as usize]);
        let moves = std::mem::take(&mut self.entry().moves);
        let found = self.core.parse_uci_among(&uci, &moves);
        self.entry().moves = moves;
        found.map_err(move_err)
    }

    /// python-chess's `ep_square` after `ply` moves of the current line: the square behind a
    /// pawn that just advanced two squares, whether or not it can be taken.
    fn ep_square_at(&self, ply: usize) -> Option<u8> {
        if ply == 0 {
            return self.root_ep;
        }
        let m = self.core.move_history().nth(ply - 1)?;
        if m.is_double_push() {
            Some(((sq64(m.from()) + sq64(m.to())) / 2) as u8)
        } else {
            None
        }
    }

    /// The root position as a FEN (its en-passant field as given) and the moves since, as UCI.
    fn root_and_moves(&self) -> (String, Vec<String>) {
        let mut root = self.core.clone();
        let mut moves = Vec::with_capacity(root.ply());
        while let Some(m) = root.unmake_move() {
            moves.push(root.move_to_uci(m));
        }
        moves.reverse();
        let fen = root.fen();
        let fen = match self.root_ep {
            Some(ep) => {
                let mut fields: Vec<String> = fen.split(' ').map(String::from).collect();
                fields[3] = name64(ep);
                fields.join(" ")
            }
            None => fen,
        };
        (fen, moves)
    }

    /// A copy keeping the last `keep` moves of the history (all of them with `usize::MAX`).
    #[inline(never)]
    fn copy_with_stack(&self, keep: usize) -> State {
        let n = self.core.ply();
        if keep < n {
            let mut st = State::new(self.core.clone_keeping(keep), self.ep_square_at(n - keep));
            // The copy's root is the position `keep` moves back: its castling rights are the
            // ones the undo record of the first kept move saved, not the current ones.
            if let Some(first_kept) = self.core.history.get(n - keep) {
                st.root_castling = self.core.rook_mask_of(first_kept.castling);
            }
            st.root_promoted = self.core.promoted_after(self.root_promoted, n - keep);
            return st;
        }
        // The whole history: the core is shared until one of the two boards changes it. The
        // moves still to keep come from the boards before assignments (and before moves the
        // core could not play), down the chain, as python-chess's stack slice takes them.
        let rest = keep - n;
        let (before, via) = match (&self.before, self.via) {
            (Some(b), Some(via)) if rest > 0 => (Some(Box::new(b.copy_with_stack(rest - 1))), Some(via)),
            (Some(b), None) if rest > 0 => (Some(Box::new(b.copy_with_stack(rest))), None),
            _ => (None, None),
        };
        self.sharing_core(before, via)
    }

    /// A copy of this state's position with the whole history of its core, which it shares,
    /// and `before` / `via` as the boards before assignments it keeps: `copy_with_stack`'s
    /// whole-history case, and `copy()`'s (lifecycle.rs), inlined into the object it fills.
    #[inline(always)]
    fn sharing_core(&self, before: Option<Box<State>>, via: Option<(u8, u8, u8)>) -> State {
        State {
            core: self.core.clone(),
            root_ep: self.root_ep,
            root_castling: self.root_castling,
            root_promoted: self.root_promoted,
            odd_ep: self.odd_ep,
            unplayable: self.unplayable.clone(),
            cache: Vec::new(),
            parsed: None,
            pending: None,
            before,
            via,
        }
    }

    /// The moves of the whole stack, oldest first: those before attribute assignments
    /// (`before`) and this core's.
    fn stack_moves(&self, py: Python<'_>) -> PyResult<Vec<Py<PyMove>>> {
        let mut out = match &self.before {
            Some(b) => b.stack_moves(py)?,
            None => Vec::new(),
        };
        if let Some(code) = self.via {
            out.push(PyMove::from_via(py, code)?);
        }
        out.extend(history_py_moves(py, &self.core));
        Ok(out)
    }

    /// Table indexes of the pseudo-legal moves of a playable position, in python-chess's order.
    fn pseudo_indexes(&self) -> Vec<u16> {
        let (mut moves, mut index) = (Vec::new(), Vec::new());
        order::pseudo_legal_in_order(&self.core, &mut moves, &mut index);
        index
    }

    /// The state whose root is the root of the whole stack (before every assignment).
    fn bottom(&self) -> &State {
        let mut s = self;
        while let Some(b) = &s.before {
            s = b;
        }
        s
    }

    /// The Polyglot key as python-chess computes it: at the root, an en-passant square the
    /// core did not keep (no pawn can have just crossed it) is hashed by python-chess's rule.
    fn polyglot_key(&self) -> u64 {
        if self.core.ply() == 0 && self.odd_ep {
            let ep = self.root_ep.map(|s| sq120(s as usize % 8, s as usize / 8));
            self.core.polyglot_key_with_ep(ep)
        } else {
            self.core.key()
        }
    }

    /// python-chess's castling-side test: a clean castling right of `color` on a rook above
    /// (`kingside`) or below the mask of `color`'s kings on its back rank, the two masks
    /// compared as integers as python-chess compares them; false when no king stands there.
    fn has_side_right(&self, color: bool, kingside: bool) -> bool {
        let back = back_rank(color);
        let kings = self.core.bb[crate::make_piece(KING, color_arg(color)) as usize] & back;
        if kings == 0 {
            return false;
        }
        let mut rights = self.clean_castling_rights() & back;
        while rights != 0 {
            let rook = rights & rights.wrapping_neg();
            if (kingside && rook > kings) || (!kingside && rook < kings) {
                return true;
            }
            rights &= rights - 1;
        }
        false
    }

    /// Same position, history and root (piece-list order, which depends on how the board was
    /// built, does not count).
    /// The en-passant square python-chess's position comparison counts: the square when a
    /// legal en-passant capture exists (any square given for an unplayable position).
    fn legal_ep(&mut self) -> Option<u8> {
        let raw = self.ep_square_at(self.core.ply())?;
        if self.unplayable.is_some() {
            return Some(raw);
        }
        self.entry().moves.iter().any(|m| m.is_en_passant()).then_some(raw)
    }

    /// python-chess's `==`: the same position (pieces, side to move, usable castling rights,
    /// a legal en-passant square) and the same move counters; not the history, not the
    /// Chess960 flag.
    fn same_position(&mut self, other: &mut State) -> bool {
        self.settle();
        other.settle();
        let (a, b) = (&self.core, &other.core);
        let same = a.cells == b.cells
            && a.side == b.side
            && self.clean_castling_rights() == other.clean_castling_rights()
            && a.halfmove == b.halfmove
            && a.fullmove == b.fullmove;
        same && self.legal_ep() == other.legal_ep()
    }
}

/// What a pickled board holds: root FEN, Chess960 flag, the moves since as UCI text, the
/// root's castling rights as given (python-chess's `castling_rights`, usable or not), the
/// root's promoted pieces, and the board before the last attribute assignment (`before`,
/// pickled as a board) with the move the core could not play that led from it (`via`).
type Pickled<'py> = (String, bool, Vec<String>, u64, u64, Option<Bound<'py, PyBoard>>, Option<(u8, u8, u8)>);

/// A chess position with its move history.
///
/// `Board()` is the start position; `Board(fen)` parses a FEN (raising `FenError`);
/// `Board(fen, chess960=True)` accepts Chess960 positions and Shredder/X-FEN castling.
#[pyclass(module = "kibitz", name = "Board", frozen, subclass)]
pub struct PyBoard {
    state: TryLock<State>,
    /// The list `move_stack` hands out, kept between reads (`stack_list`); None until the
    /// first read.
    stack: TryLock<Option<Box<StackList>>>,
}

/// A square argument as python-chess takes one: it indexes a list of the 64 squares, so
/// -64..-1 count from h8 backwards, any other int out of 0..63 is an IndexError (a huge one
/// too), and a non-int a TypeError.
#[derive(Clone, Copy)]
pub(crate) struct SquareIndex(usize);

impl SquareIndex {
    /// The square's number, a1 = 0.
    pub(crate) fn index(self) -> usize {
        self.0
    }

    /// The mailbox cell of the square.
    pub(crate) fn cell(self) -> usize {
        sq120(self.0 % 8, self.0 / 8)
    }
}

impl<'py> FromPyObject<'_, 'py> for SquareIndex {
    type Error = PyErr;

    fn extract(ob: Borrowed<'_, 'py, PyAny>) -> PyResult<Self> {
        match ob.extract::<i64>() {
            Ok(v) if (-64..64).contains(&v) => Ok(SquareIndex(v.rem_euclid(64) as usize)),
            Ok(_) => Err(PyIndexError::new_err("list index out of range")),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(ob.py()) => {
                Err(PyIndexError::new_err("cannot fit 'int' into an index-sized integer"))
            }
            Err(_) => Err(PyTypeError::new_err(format!(
                "list indices must be integers or slices, not {}",
                ob.get_type().name()?
            ))),
        }
    }
}

/// The back rank of `color` as a square mask (rank 1 for White, rank 8 for Black).
fn back_rank(color: bool) -> u64 {
    if color {
        0xFF
    } else {
        0xFF << 56
    }
}

fn color_arg(color: bool) -> usize {
    if color {
        WHITE
    } else {
        BLACK
    }
}

/// A depth argument in `min..=64`: a huge int is a ValueError naming the argument, not an
/// OverflowError.
fn depth_arg(depth: &Bound<'_, PyAny>, min: i64) -> PyResult<u32> {
    let Ok(n) = depth.cast::<PyInt>() else {
        return Err(PyTypeError::new_err(format!("depth must be an int, got {}", depth.get_type().name()?)));
    };
    match n.extract::<i64>() {
        Ok(d) if (min..=64).contains(&d) => Ok(d as u32),
        _ => Err(PyValueError::new_err(format!("depth must be between {min} and 64, got {n}"))),
    }
}

/// The Outcome and Termination classes of `kibitz._outcome`, imported once.
static OUTCOME: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();

impl PyBoard {
    pub(crate) fn from_state(state: State) -> PyBoard {
        PyBoard { state: TryLock::new(state), stack: TryLock::new(None) }
    }

    /// A new board of class `ty` (Board or a subclass) holding `state`. A subclass's board is
    /// made as python-chess makes its copies, `ty(None)` (its `root()`, `ty(None,
    /// chess960=...)`: `with_chess960`), so that its `__init__` runs, one that takes no
    /// `chess960` too; the state is then put in.
    pub(crate) fn new_of(ty: &Bound<'_, PyType>, state: State, with_chess960: bool) -> PyResult<Py<PyAny>> {
        let py = ty.py();
        if ty.is(py.get_type::<PyBoard>()) {
            return Ok(PyBoard::new_exact(py, state)?.into_any());
        }
        let obj = if with_chess960 {
            let kwargs = PyDict::new(py);
            kwargs.set_item("chess960", state.core.is_chess960())?;
            ty.call((py.None(),), Some(&kwargs))?
        } else {
            ty.call1((py.None(),))?
        };
        *obj.cast::<PyBoard>()?.get().st()? = state;
        Ok(obj.unbind())
    }

    /// The board's state, or the BUSY error when another thread holds it.
    #[inline(always)]
    fn st(&self) -> PyResult<TryGuard<'_, State>> {
        let mut st = self.state.try_lock().ok_or_else(|| PyRuntimeError::new_err(BUSY))?;
        st.settle();
        Ok(st)
    }

    /// `st` for the per-node calls (push, the legal move list, copy), whose token proves the
    /// caller attached: no locked instruction (lock.rs, `try_lock_attached`).
    #[inline(always)]
    fn st_attached(&self, py: Python<'_>) -> PyResult<TryGuard<'_, State>> {
        let mut st = self.st_pending(py)?;
        st.settle();
        Ok(st)
    }

    /// The state with `push`'s pending move, if any, not made: for pop only (push makes it
    /// before playing the next one).
    #[inline(always)]
    fn st_pending(&self, py: Python<'_>) -> PyResult<TryGuard<'_, State>> {
        self.state.try_lock_attached(py).ok_or_else(|| PyRuntimeError::new_err(BUSY))
    }

    /// A copy of the core board (for the engine).
    pub(crate) fn snapshot(&self) -> PyResult<CoreBoard> {
        let st = self.st()?;
        st.playable()?;
        Ok(st.core.to_board())
    }

    /// Reads the core board in place (no copy of its history), under the board's lock.
    pub(crate) fn with_core<R>(&self, f: impl FnOnce(&CoreBoard) -> R) -> PyResult<R> {
        Ok(f(&self.st()?.core))
    }

    /// The board's state when the core can play the position, else InvalidPositionError.
    #[inline(always)]
    fn play(&self) -> PyResult<TryGuard<'_, State>> {
        let st = self.st()?;
        st.playable()?;
        Ok(st)
    }

    fn outcome_classes(py: Python<'_>) -> PyResult<&(Py<PyAny>, Py<PyAny>)> {
        OUTCOME.get_or_try_init(py, || {
            let m = py.import("kibitz._outcome")?;
            Ok((m.getattr("Outcome")?.unbind(), m.getattr("Termination")?.unbind()))
        })
    }
}

/// (from, to, promotion) of a move-like object or UCI text, for the queries that take any
/// move without checking legality (as python-chess's do).
fn move_fields(obj: &Bound<'_, PyAny>) -> PyResult<(u8, u8, u8)> {
    if let Ok(s) = obj.cast::<PyString>() {
        return PyMove::parse(&text(s, "move", move_text_err)?);
    }
    PyMove::fields_of(obj)?.ok_or_else(|| PyTypeError::new_err("expected a Move (kibitz or python-chess) or UCI text"))
}

/// Long algebraic notation (python-chess's `lan`): "Ng1-f3", "e4xd5", "e7-e8=Q+", "O-O", "--".
fn lan(core: &CoreBoard, m: Move) -> String {
    if m.is_null() {
        return "--".into();
    }
    let mut s = if m.is_castle() {
        if file_of(m.to()) == 6 { "O-O" } else { "O-O-O" }.to_string()
    } else {
        let kind = kind_of(core.piece_at(m.from()));
        let capture = core.piece_at(m.to()) != EMPTY || m.is_en_passant();
        let mut s = String::with_capacity(10);
        if kind != PAWN {
            s.push(b" PNBRQK"[kind as usize] as char);
        }
        s.push_str(&square_name(m.from()));
        s.push(if capture { 'x' } else { '-' });
        s.push_str(&square_name(m.to()));
        if m.is_promotion() {
            s.push('=');
            s.push(b" PNBRQK"[m.promo() as usize] as char);
        }
        s
    };
    let mut after = core.clone();
    after.make_move(m);
    if after.in_check() {
        s.push(if after.has_legal_move() { '+' } else { '#' });
    }
    s
}

fn san(core: &CoreBoard, m: Move) -> String {
    if m.is_null() {
        "--".into()
    } else {
        core.move_to_san(m)
    }
}

/// python-chess's `is_en_passant`: to the ep square, from a pawn, diagonally, onto an empty square.
fn is_en_passant(st: &State, from: u8, to: u8) -> bool {
    let at = |s: u8| st.piece_on(s);
    st.ep_square_at(st.core.ply()) == Some(to)
        && at(from) != EMPTY
        && kind_of(at(from)) == PAWN
        && matches!((to as i32 - from as i32).abs(), 7 | 9)
        && at(to) == EMPTY
}

/// python-chess's castling-field syntax: "-", or up to two white letters then up to two black.
fn python_chess_castling_field(field: &str) -> bool {
    if field == "-" {
        return true;
    }
    let white = field.bytes().take_while(|b| b"KQABCDEFGH".contains(b)).count();
    let black = field[white..].bytes().take_while(|b| b"kqabcdefgh".contains(b)).count();
    white <= 2 && black <= 2 && white + black == field.len()
}

/// What a FEN holds, for the message of one that cannot be read.
const FEN_SHAPE: &str = "a FEN is the placement (8 ranks from the 8th, separated by '/'), the side to move \
(w or b), castling rights (KQkq or -), the en-passant square (or -), the halfmove clock and the fullmove number, \
as in 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'";

impl State {
    /// A FEN read as python-chess reads it: the core's strict reader first (the fast, common
    /// case), else the rules library's lenient reader (`Setup::from_fen`), which accepts what
    /// python-chess accepts (any placement, missing fields, castling rights without rook, any
    /// en-passant square).
    fn parse(fen: &str, chess960: bool) -> PyResult<State> {
        let (fields, n) = crate::fen_fields(fen);
        let (castling, ep) = ((n > 2).then_some(fields[2]), (n > 3).then_some(fields[3]));
        if castling.is_none_or(python_chess_castling_field) {
            if let Ok(core) = CoreBoard::from_fen_fields(&fields, n, chess960) {
                // The en-passant field as given (validated by the core), for python-chess's ep_square.
                let root_ep = ep.and_then(crate::parse_square).map(|s| sq64(s) as u8);
                return Ok(State::new(core, root_ep));
            }
        }
        let setup = match crate::Setup::from_fen(fen, chess960) {
            Ok(setup) => setup,
            // Refused by python-chess's rules too: its reason (the first thing wrong, with the
            // text), the strict reader's detail when both fault the placement (it names the
            // rank), then what a FEN holds. Other strict reasons are left out: they speak of
            // the core's stricter rules and can name another fault than the real one.
            Err(reason) => {
                let detail = match CoreBoard::from_fen_with(fen, chess960) {
                    Err(
                        d @ (crate::FenError::RankCount(_)
                        | crate::FenError::RankLength(..)
                        | crate::FenError::PieceLetter(_)
                        | crate::FenError::ConsecutiveDigits(..)),
                    ) if reason.contains("position part") => format!(" ({d})"),
                    _ => String::new(),
                };
                return Err(fen_text_err(format!("{reason}{detail}; {FEN_SHAPE}")));
            }
        };
        State::from_setup(&setup)
    }

    /// This state's root position, without history.
    fn root_only(mut self) -> State {
        while self.core.unmake_move().is_some() {}
        self.cache.clear();
        self
    }
}

impl PyBoard {
    /// A board from a FEN and UCI moves played from it.
    fn replay(fen: &str, chess960: bool, moves: &[String]) -> PyResult<PyBoard> {
        let mut st = State::parse(fen, chess960)?;
        Python::attach(|py| -> PyResult<()> {
            for m in moves {
                let s = PyString::new(py, m);
                let mv = st.resolve(s.as_any(), true)?;
                st.play(mv);
            }
            Ok(())
        })?;
        Ok(PyBoard::from_state(st))
    }
}
