//! The methods of `kibitz.Board` about pieces and squares (python-chess numbering: A1 = 0 ..
//! H8 = 63): what stands where, attacks, pins and checks, python-chess's class attributes
//! and its bitboards (`pawns`, `occupied_co`, ...). A second `#[pymethods]` block of the
//! class (PyO3's `multiple-pymethods`), so that each file holds one idea.

use super::*;
use crate::python::views::PySquareSet;

#[pymethods]
impl PyBoard {
    // ---- Pieces and squares (python-chess numbering: A1 = 0 .. H8 = 63) ----

    /// The Piece on a square, or None.
    fn piece_at(&self, py: Python<'_>, square: SquareIndex) -> PyResult<Option<Py<PyPiece>>> {
        let p = self.st()?.core.piece_at(square.cell());
        Ok(if p == EMPTY { None } else { Some(piece(py, kind_of(p), color_of(p) == WHITE)) })
    }

    /// The piece type (PAWN..KING) on a square, or None.
    fn piece_type_at(&self, square: SquareIndex) -> PyResult<Option<u8>> {
        let p = self.st()?.core.piece_at(square.cell());
        Ok(if p == EMPTY { None } else { Some(kind_of(p)) })
    }

    /// The colour of the piece on a square, or None.
    fn color_at(&self, square: SquareIndex) -> PyResult<Option<bool>> {
        let p = self.st()?.core.piece_at(square.cell());
        Ok(if p == EMPTY { None } else { Some(color_of(p) == WHITE) })
    }

    /// A dict from square to Piece for every occupied square in `mask`.
    #[pyo3(signature = (*, mask = Mask(ALL)))]
    fn piece_map<'py>(&self, py: Python<'py>, mask: Mask) -> PyResult<Bound<'py, PyDict>> {
        let mask = mask.0;
        let st = self.st()?;
        let out = PyDict::new(py);
        // python-chess's order: from h8 down to a1.
        for sq in (0..64usize).rev() {
            let p = st.core.piece_at(sq120(sq % 8, sq / 8));
            if p != EMPTY && mask & (1 << sq) != 0 {
                out.set_item(sq, piece(py, kind_of(p), color_of(p) == WHITE))?;
            }
        }
        Ok(out)
    }

    /// The squares holding pieces of a type and colour.
    fn pieces(&self, piece_type: i64, color: ColorArg) -> PyResult<PySquareSet> {
        let color = color.0;
        let st = self.st()?;
        let mask = match u8::try_from(piece_type) {
            Ok(kind @ PAWN..=KING) => st.core.bb[crate::make_piece(kind, color_arg(color)) as usize],
            _ => 0,
        };
        Ok(PySquareSet { mask })
    }

    /// The square of the king of a colour.
    fn king(&self, color: ColorArg) -> PyResult<Option<u8>> {
        let color = color.0;
        Ok(self.st()?.king64(color_arg(color)).map(|k| k as u8))
    }

    /// The pieces of `color` attacking `square`. With `occupied` (any square set, as
    /// python-chess takes it), the sliders see those squares as the occupied ones; the
    /// attackers are still the board's pieces.
    #[pyo3(signature = (color, square, occupied = None))]
    fn attackers(
        &self,
        color: ColorArg,
        square: SquareIndex,
        occupied: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySquareSet> {
        let occupied = occupied.map(square_set_mask).transpose()?;
        Ok(PySquareSet { mask: self.attackers_through(color, square, occupied)? })
    }

    /// True when a piece of `color` attacks `square` (through `occupied`, as `attackers`).
    #[pyo3(signature = (color, square, occupied = None))]
    fn is_attacked_by(
        &self,
        color: ColorArg,
        square: SquareIndex,
        occupied: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        let occupied = occupied.map(square_set_mask).transpose()?;
        Ok(self.attackers_through(color, square, occupied)? != 0)
    }

    /// The squares the piece on `square` attacks (empty when the square is empty).
    fn attacks(&self, square: SquareIndex) -> PyResult<PySquareSet> {
        Ok(PySquareSet { mask: self.st()?.core.attacks_from(square.cell()) })
    }

    /// True when `square` is pinned to the king of `color` by an enemy slider.
    fn is_pinned(&self, color: ColorArg, square: SquareIndex) -> PyResult<bool> {
        let color = color.0;
        Ok(self.pin_ray(ColorArg(color), square)?.is_some())
    }

    /// The pin ray through `square` (king to pinner) or all squares when it is not pinned.
    fn pin(&self, color: ColorArg, square: SquareIndex) -> PyResult<PySquareSet> {
        let color = color.0;
        Ok(PySquareSet { mask: self.pin_ray(ColorArg(color), square)?.unwrap_or(ALL) })
    }

    /// True when the side to move is in check.
    fn is_check(&self) -> PyResult<bool> {
        let st = self.st()?;
        Ok(if st.unplayable.is_none() { st.core.in_check() } else { st.checkers() != 0 })
    }

    /// The pieces giving check to the side to move.
    fn checkers(&self) -> PyResult<PySquareSet> {
        Ok(PySquareSet { mask: self.st()?.checkers() })
    }

    /// True when the legal move gives check.
    fn gives_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mut st = self.st()?;
        // The null move passes the turn: the side then to move is in check only if it was
        // attacked already, which a playable position rules out; python-chess pushes it and
        // looks, so where kibitz cannot play the position (the side not to move in check,
        // kings missing or doubled) the answer is python-chess's `was_into_check()`.
        if matches!(move_fields(r#move), Ok((0, 0, 0))) {
            return Ok(st.unplayable.is_some() && st.loose().is_some_and(|loose| loose.moves().was_into_check()));
        }
        let m = match st.resolve(r#move, false) {
            Ok(m) => m,
            Err(e) => {
                // python-chess answers for any move it can push (its push does not check
                // legality). Where kibitz cannot play the position, the move is played by
                // python-chess's rules and the king that counts looked at (`Setup`).
                if st.unplayable.is_some() {
                    let after = move_fields(r#move).ok().and_then(|f| st.after(super::loose::setup_move(f)));
                    return match after {
                        Some(setup) => Ok(setup.moves(0).checkers() != 0),
                        None => Err(e),
                    };
                }
                // Otherwise a move of one of our pieces is answered by its geometry.
                if let Ok((from, to, promo)) = move_fields(r#move) {
                    let (from, to) =
                        (sq120(from as usize % 8, from as usize / 8), sq120(to as usize % 8, to as usize / 8));
                    let p = st.core.piece_at(from);
                    if p != EMPTY && color_of(p) == st.core.side_to_move() && from != to {
                        let kind = if promo != 0 { promo } else { kind_of(p) };
                        return Ok(st.core.gives_check_geometric(from, to, kind));
                    }
                }
                return Err(e);
            }
        };
        let mut b = st.core.clone();
        b.make_move(m);
        Ok(b.in_check())
    }

    /// True when the move captures (en passant included).
    fn is_capture(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        // A drop touches one square, its own: python-chess finds no capture in it.
        if PyMove::drop_of(r#move).is_some() {
            return Ok(false);
        }
        let (from, to, _) = move_fields(r#move)?;
        let st = self.st()?;
        let them = st.core.side_to_move() ^ 1;
        let enemy = |s: u8| {
            let p = st.piece_on(s);
            p != EMPTY && color_of(p) == them
        };
        Ok((from != to && (enemy(from) || enemy(to))) || is_en_passant(&st, from, to))
    }

    /// True when the move is an en-passant capture.
    fn is_en_passant(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        if PyMove::drop_of(r#move).is_some() {
            return Ok(false);
        }
        let (from, to, _) = move_fields(r#move)?;
        Ok(is_en_passant(&*self.st()?, from, to))
    }

    /// True when the move castles (king two squares, or king takes own rook).
    fn is_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        if PyMove::drop_of(r#move).is_some() {
            return Ok(false);
        }
        let (from, to, _) = move_fields(r#move)?;
        let st = self.st()?;
        let at = |s: u8| st.piece_on(s);
        if kind_of(at(from)) != KING || at(from) == EMPTY {
            return Ok(false);
        }
        let diff = (from % 8) as i32 - (to % 8) as i32;
        let own_rook = crate::make_piece(crate::ROOK, st.core.side_to_move());
        Ok(diff.abs() > 1 || at(to) == own_rook)
    }

    /// True when the move captures or moves a pawn (it resets the fifty-move clock).
    fn is_zeroing(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        // python-chess: a pawn's drop zeroes the clock, another piece's does not.
        if let Some(kind) = PyMove::drop_of(r#move) {
            return Ok(kind == PAWN);
        }
        let (from, to, _) = move_fields(r#move)?;
        let st = self.st()?;
        let them = st.core.side_to_move() ^ 1;
        let at = |s: u8| st.piece_on(s);
        let pawn = |s: u8| at(s) != EMPTY && kind_of(at(s)) == PAWN;
        let enemy = |s: u8| at(s) != EMPTY && color_of(at(s)) == them;
        Ok(from != to && (pawn(from) || pawn(to) || enemy(from) || enemy(to)))
    }

    /// True when `color` still has a castling right (a clean right on its back rank).
    fn has_castling_rights(&self, color: ColorArg) -> PyResult<bool> {
        let color = color.0;
        Ok(self.st()?.clean_castling_rights() & back_rank(color) != 0)
    }

    /// True when `color` may still castle king side: python-chess's rule, a clean right on a
    /// rook above (as a square number) the back-rank king mask. With one king on the back
    /// rank that is a rook on the h side of it; with other kings of that colour elsewhere,
    /// only the back rank's count.
    fn has_kingside_castling_rights(&self, color: ColorArg) -> PyResult<bool> {
        let color = color.0;
        Ok(self.st()?.has_side_right(color, true))
    }

    /// True when `color` may still castle queen side (a right on a rook below the king mask).
    fn has_queenside_castling_rights(&self, color: ColorArg) -> PyResult<bool> {
        let color = color.0;
        Ok(self.st()?.has_side_right(color, false))
    }

    /// True when an en-passant capture is legal now: by python-chess's rules (its generator
    /// offers the capture on an assigned en-passant square no pawn can have just crossed)
    /// where the core cannot hold the position.
    fn has_legal_en_passant(&self) -> PyResult<bool> {
        let st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(loose.moves().legal_ep_square().is_some());
        }
        Ok(st.core.has_legal_en_passant())
    }

    // ------------------------------------------------------------ python-chess's class attributes

    #[classattr]
    fn uci_variant() -> &'static str {
        "chess"
    }

    #[classattr]
    fn xboard_variant() -> &'static str {
        "normal"
    }

    #[classattr]
    fn starting_fen() -> &'static str {
        crate::STARTPOS
    }

    #[classattr]
    fn aliases() -> Vec<&'static str> {
        vec!["Standard", "Chess", "Classical", "Normal", "Illegal", "From Position"]
    }

    #[classattr]
    fn tbw_suffix() -> &'static str {
        ".rtbw"
    }

    #[classattr]
    fn tbz_suffix() -> &'static str {
        ".rtbz"
    }

    #[classattr]
    fn tbw_magic() -> &'static [u8] {
        b"\x71\xe8\x23\x5d"
    }

    #[classattr]
    fn tbz_magic() -> &'static [u8] {
        b"\xd7\x66\x0c\xa5"
    }

    #[classattr]
    fn pawnless_tbw_suffix() -> Option<&'static str> {
        None
    }

    #[classattr]
    fn pawnless_tbz_suffix() -> Option<&'static str> {
        None
    }

    #[classattr]
    fn pawnless_tbw_magic() -> Option<&'static [u8]> {
        None
    }

    #[classattr]
    fn pawnless_tbz_magic() -> Option<&'static [u8]> {
        None
    }

    #[classattr]
    fn connected_kings() -> bool {
        false
    }

    #[classattr]
    fn one_king() -> bool {
        true
    }

    #[classattr]
    fn captures_compulsory() -> bool {
        false
    }

    // ------------------------------------------------------------ bitboards (python-chess's attributes)

    /// Occupied squares, as an int mask.
    #[getter]
    fn occupied(&self) -> PyResult<u64> {
        let st = self.st()?;
        Ok(st.core.occ[WHITE] | st.core.occ[BLACK])
    }

    /// Squares occupied by each colour, indexed by colour: `[black_mask, white_mask]`.
    #[getter]
    fn occupied_co(&self) -> PyResult<[u64; 2]> {
        let st = self.st()?;
        Ok([st.core.occ[BLACK], st.core.occ[WHITE]])
    }

    #[getter]
    fn pawns(&self) -> PyResult<u64> {
        self.kind_mask(PAWN)
    }

    #[getter]
    fn knights(&self) -> PyResult<u64> {
        self.kind_mask(crate::KNIGHT)
    }

    #[getter]
    fn bishops(&self) -> PyResult<u64> {
        self.kind_mask(crate::BISHOP)
    }

    #[getter]
    fn rooks(&self) -> PyResult<u64> {
        self.kind_mask(crate::ROOK)
    }

    #[getter]
    fn queens(&self) -> PyResult<u64> {
        self.kind_mask(crate::QUEEN)
    }

    #[getter]
    fn kings(&self) -> PyResult<u64> {
        self.kind_mask(KING)
    }

    /// The pieces that came from a promotion, as a mask (python-chess's `promoted`): a
    /// promotion marks its piece, the piece keeps the mark when it moves, a capture or
    /// castling clears the squares it touches; a FEN's `~`, `set_piece_at(...,
    /// promoted=True)` and an assignment set marks too.
    #[getter]
    fn promoted(&self) -> PyResult<u64> {
        Ok(self.st()?.promoted_now())
    }

    #[setter]
    fn set_promoted(&self, mask: super::Mask) -> PyResult<()> {
        self.assign(|s| s.promoted = mask.0)
    }

    /// The squares of `color`'s pieces of `piece_type`, as an int mask.
    fn pieces_mask(&self, piece_type: i64, color: ColorArg) -> PyResult<u64> {
        let color = color.0;
        Ok(self.pieces(piece_type, ColorArg(color))?.mask)
    }

    /// The squares of `color`'s pieces that attack `square`, as an int mask; with
    /// `occupied` (a mask), through those squares as the occupied ones.
    #[pyo3(signature = (color, square, occupied = None))]
    fn attackers_mask(&self, color: ColorArg, square: SquareIndex, occupied: Option<Mask>) -> PyResult<u64> {
        self.attackers_through(color, square, occupied.map(|m| m.0))
    }

    /// The squares the piece on `square` attacks, as an int mask.
    fn attacks_mask(&self, square: SquareIndex) -> PyResult<u64> {
        Ok(self.attacks(square)?.mask)
    }

    /// The pieces giving check, as an int mask.
    fn checkers_mask(&self) -> PyResult<u64> {
        Ok(self.checkers()?.mask)
    }

    /// The ray a pinned piece of `color` on `square` may move along, as an int mask (all
    /// squares when it is not pinned).
    fn pin_mask(&self, color: ColorArg, square: SquareIndex) -> PyResult<u64> {
        let color = color.0;
        Ok(self.pin(ColorArg(color), square)?.mask)
    }
}

impl PyBoard {
    /// `pin_ray` for python-chess's king of `color` (the highest one; None without a king).
    fn pin_ray(&self, color: ColorArg, square: SquareIndex) -> PyResult<Option<u64>> {
        let color = color.0;
        let st = self.st()?;
        let sq = square.cell();
        let c = color_arg(color);
        Ok(st.king64(c).and_then(|k| st.core.pin_ray_at(sq120(k % 8, k / 8), c, sq)))
    }

    fn kind_mask(&self, kind: u8) -> PyResult<u64> {
        let st = self.st()?;
        Ok(st.core.bb[crate::make_piece(kind, WHITE) as usize] | st.core.bb[crate::make_piece(kind, BLACK) as usize])
    }
}

impl PyBoard {
    /// The pieces of `color` attacking `square`: the board's own occupancy, or python-chess's
    /// `_attackers_mask` through `occupied` when given.
    fn attackers_through(&self, color: ColorArg, square: SquareIndex, occupied: Option<u64>) -> PyResult<u64> {
        let st = self.st()?;
        Ok(match occupied {
            None => st.attackers(color_arg(color.0), square.cell()),
            Some(occ) => st.core.attackers_blocked_by(color_arg(color.0), square.index(), occ),
        })
    }
}

/// python-chess's `SquareSet(x).mask` of an `occupied` argument: an int (or anything with
/// `__index__`), a SquareSet, or an iterable of squares.
fn square_set_mask(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(Mask(m)) = obj.extract::<Mask>() {
        return Ok(m);
    }
    let set = obj.py().get_type::<PySquareSet>().call1((obj,))?;
    let mask = set.cast::<PySquareSet>()?.borrow().mask;
    Ok(mask)
}
