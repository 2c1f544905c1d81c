//! The moves of a position the core cannot play (`State::unplayable`: no king or several,
//! a pawn on a back rank, the side not to move in check...), as python-chess gives them:
//! the rules library's `Setup` moves (`crate::SetupMoves`), which follow python-chess's
//! generator. The board's move lists, move tests, game-end tests and notation use these
//! where the core's fast path cannot answer; the engine and perft still refuse such a
//! position (`InvalidPositionError`).

use super::san::san_error;
use super::setup::setup_of;
use super::{move_fields, State};
use crate::python::errors::{move_text_err, text, IllegalMoveError};
use crate::python::moves::{interned, move_index, PyMove};
use crate::{kind_of, to_chess960_target, Setup, SetupMove, SetupMoves, EMPTY, KING, PAWN};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A position the core cannot play, as python-chess holds it, with the castling rights its
/// moves use (python-chess's `clean_castling_rights()`: filtered at the root of a board
/// without moves, as they are once moves were played).
pub(super) struct Loose {
    pub(super) setup: Setup,
    pub(super) castling: u64,
}

impl State {
    /// The position as python-chess's generator sees it, when the core cannot play it, or
    /// cannot hold its en-passant square (one no pawn can have just crossed, which
    /// python-chess still offers to take).
    pub(super) fn loose(&self) -> Option<Loose> {
        if self.unplayable.is_none() && !(self.odd_ep && self.core.ply() == 0) {
            return None;
        }
        Some(Loose { setup: setup_of(self), castling: self.clean_castling_rights() })
    }

    /// `push` of a move the core cannot play, as python-chess plays it: a pseudo-legal move
    /// that leaves the own king attacked, the null move in check, or a move of one's own
    /// piece in a position kibitz cannot play (python-chess trusts its caller there). The
    /// position after it is set up from python-chess's rules (`Setup::after_move`) and the
    /// board before it kept (`before`, with the move as `via`): `pop` goes back to it. Err
    /// (`refused`, the error the legal push gave) for anything else.
    pub(super) fn push_lenient(&mut self, fields: Option<(u8, u8, u8)>, refused: PyErr) -> PyResult<()> {
        let Some((from, to, promo)) = fields else { return Err(refused) };
        if promo == PAWN || promo == KING {
            return Err(refused);
        }
        let null = from == 0 && to == 0 && promo == 0;
        if self.unplayable.is_none() && !null {
            let pseudo = match self.loose() {
                Some(loose) => loose.moves().is_pseudo_legal(SetupMove { from, to, promotion: promo }),
                None => self.pseudo_indexes().contains(&super::move_index(from as usize, to as usize, promo)),
            };
            if !pseudo {
                return Err(refused);
            }
        }
        let Some(setup) = self.after(SetupMove { from, to, promotion: promo }) else {
            return Err(refused);
        };
        let new = State::from_setup(&setup)?;
        let old = std::mem::replace(self, new);
        self.before = Some(Box::new(old));
        self.via = Some((from, to, promo));
        Ok(())
    }
}

impl State {
    /// The position after `m` as python-chess's `push` leaves it: its castling rights
    /// cleaned first (it trusts them once it has a move stack), then the move played by
    /// python-chess's rules (`Setup::after_move`); None when no piece of the side to move
    /// stands on its origin.
    pub(super) fn after(&self, m: SetupMove) -> Option<Setup> {
        let mut before = setup_of(self);
        before.castling = self.clean_castling_rights();
        before.after_move(usize::from(m.from), usize::from(m.to), m.promotion)
    }
}

impl Loose {
    pub(super) fn moves(&self) -> SetupMoves<'_> {
        self.setup.moves(self.castling)
    }

    /// The legal (or pseudo-legal) moves in python-chess's order.
    pub(super) fn list(&self, legal: bool) -> Vec<SetupMove> {
        let mut out = Vec::new();
        if legal {
            self.moves().legal_moves(u64::MAX, u64::MAX, &mut out);
        } else {
            self.moves().pseudo_legal_moves(u64::MAX, u64::MAX, &mut out);
        }
        out
    }

    /// The Move objects of a list.
    pub(super) fn interned(py: Python<'_>, moves: &[SetupMove]) -> Vec<Py<PyMove>> {
        moves.iter().map(|m| interned(py, index(*m))).collect()
    }

    /// Whether the side to move is in check and has no legal move (python-chess's rule; a
    /// side without king is never in check).
    pub(super) fn is_checkmate(&self) -> bool {
        let m = self.moves();
        m.checkers() != 0 && !m.has_legal_move()
    }

    pub(super) fn is_stalemate(&self) -> bool {
        let m = self.moves();
        m.checkers() == 0 && !m.has_legal_move()
    }

    /// The FEN python-chess writes for the position (the en-passant square only when a
    /// legal capture takes there), for messages.
    pub(super) fn fen(&self) -> String {
        let mut setup = self.setup.clone();
        setup.ep = self.moves().legal_ep_square();
        setup.core_fen(self.castling)
    }
}

/// The move table index of a `SetupMove` (kibitz's interned Moves).
pub(super) fn index(m: SetupMove) -> u16 {
    move_index(m.from as usize, m.to as usize, m.promotion)
}

/// A `SetupMove` from a Move-like object's fields.
pub(super) fn setup_move((from, to, promo): (u8, u8, u8)) -> SetupMove {
    SetupMove { from, to, promotion: promo }
}

/// The move UCI text names, as python-chess's `parse_uci` reads it here: the null move as
/// it is; castling in either spelling (king two squares, or onto its rook) turned into the
/// board's; IllegalMoveError when it is not legal.
pub(super) fn loose_uci(loose: &Loose, uci: &Bound<'_, PyString>) -> PyResult<SetupMove> {
    let text = text(uci, "move", move_text_err)?;
    let (from, to, promo) = PyMove::parse(&text)?;
    let mut m = setup_move((from, to, promo));
    if m.is_null() {
        return Ok(m);
    }
    let placement = &loose.setup.placement;
    let is = |s: u8, kind: u8| placement[s as usize] != EMPTY && kind_of(placement[s as usize]) == kind;
    // python-chess's _to_chess960, then _from_chess960.
    m.to = to_chess960_target(from, to, promo, is);
    if !loose.setup.chess960 && promo == 0 && (from == 4 || from == 60) && is(from, KING) {
        let home = from - 4;
        if m.to == home + 7 {
            m.to = home + 6;
        } else if m.to == home {
            m.to = home + 2;
        }
    }
    if !loose.moves().is_legal(m) {
        return Err(IllegalMoveError::new_err(format!("illegal uci: {} in {}", crate::py_repr(&text), loose.fen())));
    }
    Ok(m)
}

/// The move SAN text names here (python-chess's `parse_san`, its errors and messages).
pub(super) fn loose_san(loose: &Loose, san: &str) -> PyResult<SetupMove> {
    let fen = || loose.fen();
    loose.setup.parse_san_python_chess(loose.castling, san, &fen, crate::py_repr).map_err(san_error)
}

/// The move a Move-like object names, for notation: the null move, or a legal move; with
/// `pseudo`, a pseudo-legal one (python-chess's `san` writes a move that leaves the own king
/// attacked as any other, its `variation_san` only legal moves).
pub(super) fn loose_move(loose: &Loose, obj: &Bound<'_, PyAny>, pseudo: bool) -> PyResult<SetupMove> {
    let m = setup_move(move_fields(obj)?);
    let moves = loose.moves();
    let named = if pseudo { moves.is_pseudo_legal(m) } else { moves.is_legal(m) };
    if !m.is_null() && !named {
        return Err(IllegalMoveError::new_err(format!("illegal move {} in {}", m.uci(), loose.fen())));
    }
    Ok(m)
}

/// SAN (LAN with `long`) of a move in a position the core plays where the core refuses the
/// move: python-chess writes a pseudo-legal move that leaves the own king attacked as any
/// other (its `san` pushes the move to see the check). `refused`, the core's error, for a
/// move that is not even pseudo-legal.
pub(super) fn pseudo_legal_san(st: &State, obj: &Bound<'_, PyAny>, long: bool, refused: PyErr) -> PyResult<String> {
    let Ok((from, to, promo)) = move_fields(obj) else { return Err(refused) };
    if !st.pseudo_indexes().contains(&move_index(from as usize, to as usize, promo)) {
        return Err(refused);
    }
    let loose = Loose { setup: setup_of(st), castling: st.clean_castling_rights() };
    Ok(loose.setup.san(loose.castling, setup_move((from, to, promo)), long))
}
