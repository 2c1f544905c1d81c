//! The methods of `kibitz.Board` that Python sees, in python-chess's order of concepts:
//! construction and FEN, moves (push, pop, parsing and writing notation), the legal move
//! views, perft, objects that behave (copy, pickling, equality, text). The game end is in
//! `outcome.rs`, pieces and squares in `squares.rs`.

use super::lists::Generated;
use super::loose::{loose_move, loose_san, loose_uci};
use super::san::parse_san_like_python_chess;
use super::*;
use crate::python::views::{PyLegalMoves, PyPseudoLegalMoves, Source};
use crate::SetupMove;
use pyo3::types::IntoPyDict;

#[pymethods]
impl PyBoard {
    /// `Board(fen=STARTING_FEN, *, chess960=False)`. A subclass may take arguments of its
    /// own: `Board.__init_subclass__` (kibitz/_board_ext.py) gives it a `__new__` that takes
    /// any, and its `__init__` sets the position through `Board.__init__`, as python-chess's.
    #[new]
    #[classmethod]
    #[pyo3(signature = (fen = FenArg::Start, *, chess960 = Flag(false)))]
    fn new(_cls: &Bound<'_, PyType>, fen: FenArg<'_>, chess960: Flag) -> PyResult<Self> {
        Ok(PyBoard::from_state(state_from_fen(fen, chess960.0)?))
    }

    /// Sets the position of a subclass's board from `fen` and `chess960` (what a subclass's
    /// `super().__init__(fen, chess960=...)` reaches); a plain `Board` is set up by `new`.
    /// python-chess's signature, so that the plain `Board(fen)` pays for no argument tuple.
    #[pyo3(signature = (fen = FenArg::Start, *, chess960 = Flag(false)))]
    fn __init__(slf: &Bound<'_, Self>, fen: FenArg<'_>, chess960: Flag) -> PyResult<()> {
        let chess960 = chess960.0;
        let py = slf.py();
        if slf.get_type().is(py.get_type::<PyBoard>()) {
            PyBoard::untrack(slf);
            return Ok(());
        }
        // python-chess's constructor sets the position through `clear()` (no FEN), `reset()`
        // (the class's starting FEN) or `set_fen(fen)`: a subclass that overrides the one its
        // arguments choose has it called, after the position is set here as it would be.
        let text = match &fen {
            FenArg::Empty => None,
            FenArg::Start => Some(PyString::new(py, crate::STARTPOS)),
            FenArg::Text(f) => Some(f.clone()),
        };
        let st = state_from_fen(fen, chess960)?;
        *slf.get().st()? = st;
        let name = match &text {
            None => "clear",
            Some(f) if PyAnyMethods::eq(f.as_any(), slf.get_type().getattr("starting_fen")?)? => "reset",
            Some(_) => "set_fen",
        };
        if overrides(slf, name) {
            match text {
                Some(f) if name == "set_fen" => slf.call_method1(name, (f,))?,
                _ => slf.call_method0(name)?,
            };
        }
        Ok(())
    }

    /// A board with no pieces: python-chess's `Board.empty()`, which is `cls(None,
    /// chess960=chess960)`, so a subclass gets one of its own (through its `__init__`).
    #[classmethod]
    #[pyo3(signature = (*, chess960 = Flag(false)), text_signature = "(*, chess960=False)")]
    fn empty(cls: &Bound<'_, PyType>, chess960: Flag) -> PyResult<Py<PyAny>> {
        let (py, chess960) = (cls.py(), chess960.0);
        if cls.is(py.get_type::<PyBoard>()) {
            return Ok(PyBoard::new_exact(py, State::empty(chess960))?.into_any());
        }
        Ok(cls.call((py.None(),), Some(&[("chess960", chess960)].into_py_dict(py)?))?.unbind())
    }

    /// A new board from an EPD, and its operations: python-chess's `Board.from_epd`.
    #[classmethod]
    #[pyo3(signature = (epd, *, chess960 = Flag(false)), text_signature = "(epd, *, chess960=False)")]
    fn from_epd<'py>(
        cls: &Bound<'py, PyType>,
        epd: &Bound<'py, PyAny>,
        chess960: Flag,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let chess960 = chess960.0;
        let board = cls.call_method("empty", (), Some(&[("chess960", chess960)].into_py_dict(cls.py())?))?;
        let ops = board.call_method1("set_epd", (epd,))?;
        Ok((board, ops))
    }

    /// The Chess960 start position of the given index 0..959 (ValueError otherwise), as
    /// python-chess makes it: `cls.empty(chess960=True)`, then `set_chess960_pos`.
    #[classmethod]
    fn from_chess960_pos(cls: &Bound<'_, PyType>, scharnagl: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let board = cls.call_method("empty", (), Some(&[("chess960", true)].into_py_dict(cls.py())?))?;
        board.call_method1("set_chess960_pos", (scharnagl,))?;
        Ok(board.unbind())
    }

    /// python-chess's `clean_castling_rights()`: the usable castling rights, as a mask.
    #[getter]
    fn _clean_castling(&self) -> PyResult<u64> {
        Ok(self.st()?.core.castling_rook_mask())
    }

    /// Why kibitz cannot play the position (None when it can): `InvalidPositionError`'s
    /// reason for the move operations.
    #[getter]
    fn _unplayable(&self) -> PyResult<Option<String>> {
        Ok(self.st()?.unplayable.as_deref().map(str::to_owned))
    }

    /// Builds a Board from a `chess.Board` of python-chess, history included (its root
    /// position, then every move of its move stack).
    #[classmethod]
    fn from_chess(cls: &Bound<'_, PyType>, board: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = cls.py();
        let root = board.call_method0("root")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("en_passant", "fen")?;
        let fen: String = root.call_method("fen", (), Some(&kwargs))?.extract()?;
        let chess960: bool = board.getattr("chess960")?.extract()?;
        let mut moves = Vec::new();
        for m in board.getattr("move_stack")?.try_iter()? {
            moves.push(m?.call_method0("uci")?.extract::<String>()?);
        }
        match PyBoard::replay(&fen, chess960, &moves) {
            Ok(replayed) => Ok(Py::new(py, replayed)?.into_any()),
            Err(e) if e.is_instance_of::<IllegalMoveError>(py) => {
                // python-chess's push also plays a null move in check and a pseudo-legal move
                // into check, as `push` does here: the stack is played again with it.
                let board = py.get_type::<PyBoard>().call((fen,), Some(&[("chess960", chess960)].into_py_dict(py)?))?;
                let from_uci = py.get_type::<PyMove>().getattr("from_uci")?;
                for m in &moves {
                    board.call_method1("push", (from_uci.call1((m,))?,))?;
                }
                Ok(board.unbind())
            }
            Err(e) => Err(e),
        }
    }

    /// Rebuilds a board from its root FEN and moves (what pickling stores).
    #[classmethod]
    #[pyo3(signature = (fen, chess960, moves, castling = None, promoted = 0, below = None, via = None))]
    #[allow(clippy::too_many_arguments)]
    fn _from_moves(
        cls: &Bound<'_, PyType>,
        fen: &str,
        chess960: bool,
        moves: Vec<String>,
        castling: Option<u64>,
        promoted: u64,
        below: Option<PyRef<'_, PyBoard>>,
        via: Option<(u8, u8, u8)>,
    ) -> PyResult<Py<PyAny>> {
        let board = PyBoard::replay(fen, chess960, &moves)?;
        if let Some(c) = castling {
            board.st()?.root_castling = c;
        }
        board.st()?.root_promoted = promoted;
        // The board before an attribute assignment (or before a move the core could not
        // play, `via`), pickled as a board of its own.
        if let Some(below) = below {
            let mut st = board.st()?;
            st.before = Some(Box::new(below.st()?.copy_with_stack(usize::MAX)));
            st.via = via;
        }
        if cls.is(cls.py().get_type::<PyBoard>()) {
            return Ok(Py::new(cls.py(), board)?.into_any());
        }
        let st = board.st()?.copy_with_stack(usize::MAX);
        PyBoard::new_of(cls, st, false)
    }

    /// The same position as a `chess.Board` of python-chess (which must be installed),
    /// history included.
    fn to_chess<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let ((fen, moves), chess960, castling) = {
            let st = self.st()?;
            (st.root_and_moves(), st.core.is_chess960(), st.root_castling)
        };
        let chess = py.import("chess")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("chess960", chess960)?;
        let b = chess.getattr("Board")?.call((fen,), Some(&kwargs))?;
        b.setattr("castling_rights", castling)?;
        for m in moves {
            b.call_method1("push_uci", (m,))?;
        }
        Ok(b)
    }

    /// The FEN of the position (en-passant square only when the capture is legal). With
    /// python-chess's options: `shredder` castling, `en_passant` "legal" (the default),
    /// "fully", "xfen" (whenever a pawn stands ready) or anything else (the square as set).
    #[pyo3(signature = (*, shredder = Flag(false), en_passant = None, promoted = None))]
    fn fen(
        slf: &Bound<'_, Self>,
        shredder: Flag,
        en_passant: Option<&Bound<'_, PyAny>>,
        promoted: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let shredder = shredder.0;
        let plain = en_passant.map(|e| e.extract::<String>().map(|s| s == "legal").unwrap_or(false)).unwrap_or(true)
            && promoted.is_none_or(|p| !p.is_truthy().unwrap_or(false));
        if !shredder && plain {
            let st = slf.get().st()?;
            if st.plain_fen() {
                return Ok(st.core.fen());
            }
        }
        let ext = slf.py().import("kibitz._board_ext")?;
        let kwargs = PyDict::new(slf.py());
        kwargs.set_item("shredder", shredder)?;
        kwargs.set_item(
            "en_passant",
            en_passant
                .map(|e| e.clone().unbind())
                .unwrap_or_else(|| "legal".into_pyobject(slf.py()).unwrap().into_any().unbind()),
        )?;
        kwargs.set_item("promoted", promoted)?;
        ext.getattr("fen_with")?.call((slf,), Some(&kwargs))?.extract()
    }

    /// The board part of the FEN (piece placement only).
    #[pyo3(signature = (*, promoted = Flag(false)), text_signature = "($self, /, *, promoted=False)")]
    fn board_fen(&self, promoted: Flag) -> PyResult<String> {
        let st = self.st()?;
        if promoted.0 && st.promoted_now() != 0 {
            return Ok(setup::setup_of(&st).board_fen_promoted());
        }
        Ok(st.core.board_fen())
    }

    /// WHITE (True) when White is to move.
    #[getter]
    fn turn(&self) -> PyResult<bool> {
        Ok(self.st()?.core.side_to_move() == WHITE)
    }

    /// True for a Chess960 board.
    #[getter]
    fn chess960(&self) -> PyResult<bool> {
        Ok(self.st()?.core.is_chess960())
    }

    /// Half-moves since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> PyResult<u32> {
        Ok(self.st()?.core.halfmove_clock())
    }

    /// The move number, starting at 1 and incremented after Black's move.
    #[getter]
    fn fullmove_number(&self) -> PyResult<u32> {
        Ok(self.st()?.core.fullmove_number())
    }

    /// The rook squares with castling rights, as a mask (python-chess's `castling_rights`).
    #[getter]
    fn castling_rights(&self) -> PyResult<u64> {
        Ok(self.st()?.raw_castling())
    }

    /// The square behind a pawn that has just advanced two squares, whether or not it can be
    /// taken en passant (python-chess's `ep_square`), else None.
    #[getter]
    fn ep_square(&self) -> PyResult<Option<u8>> {
        let st = self.st()?;
        Ok(st.ep_square_at(st.core.ply()))
    }

    /// `len(move_stack)` without making the moves: for the variant boards, whose state
    /// follows the stack (kibitz.variant.boards).
    fn _stack_len(&self) -> PyResult<usize> {
        Ok(self.st()?.stack_len())
    }

    /// The moves played since set-up, oldest first: the same list at every read, brought up
    /// to date with the board (`stack_list`).
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let st = self.st()?;
        let mut slot = self.stack.try_lock().ok_or_else(|| PyRuntimeError::new_err(BUSY))?;
        let list = slot.get_or_insert_with(|| Box::new(StackList::new(py)));
        if st.before.is_some() {
            // Boards before assignments: the whole stack, into the same list.
            return list.set_all(py, st.stack_moves(py)?);
        }
        list.sync(py, &st.core)
    }

    /// Half-moves since the start of the game as the fullmove number and side to move count
    /// them (python-chess's `ply`; `len(move_stack)` counts the moves played on this board).
    fn ply(&self) -> PyResult<u64> {
        let st = self.st()?;
        Ok(2 * (st.core.fullmove_number() as u64 - 1) + u64::from(st.core.side_to_move() == BLACK))
    }

    /// The legal moves: a live view (iterate, len, in, count(), any()).
    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> PyResult<Py<PyLegalMoves>> {
        // Untracked: a view refers to its board, never the other way, so it is never in a cycle.
        Py::new(slf.py(), PyLegalMoves { board: Source::Board(slf.clone().unbind()) }).map(untracked)
    }

    /// The pseudo-legal moves (legal ones and those leaving the own king attacked): a live view.
    #[getter]
    fn pseudo_legal_moves(slf: &Bound<'_, Self>) -> PyResult<Py<PyPseudoLegalMoves>> {
        Py::new(slf.py(), PyPseudoLegalMoves { board: Source::Board(slf.clone().unbind()) })
    }

    /// The legal moves as UCI strings.
    fn legal_moves_uci(&self) -> PyResult<Vec<String>> {
        let mut st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(loose.list(true).iter().map(SetupMove::uci).collect());
        }
        st.playable()?;
        let moves = st.entry().moves.clone();
        Ok(moves.iter().map(|&m| st.core.move_to_uci(m)).collect())
    }

    /// The legal moves from `from_mask` to `to_mask` squares, as an iterator of Moves.
    /// Castling matches `to_mask` on its rook's square, as python-chess matches it.
    #[pyo3(signature = (from_mask = Mask(ALL), to_mask = Mask(ALL)))]
    fn generate_legal_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::Legal, from_mask.0, to_mask.0)
    }

    /// The legal captures (en passant included) from `from_mask` to `to_mask`, as an iterator.
    #[pyo3(signature = (from_mask = Mask(ALL), to_mask = Mask(ALL)))]
    fn generate_legal_captures<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::LegalCaptures, from_mask.0, to_mask.0)
    }

    /// The pseudo-legal moves (the own king may be left attacked) from `from_mask` to
    /// `to_mask`, as an iterator; castling matched on its rook's square.
    #[pyo3(signature = (from_mask = Mask(ALL), to_mask = Mask(ALL)))]
    fn generate_pseudo_legal_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::Pseudo, from_mask.0, to_mask.0)
    }

    /// The pseudo-legal captures (en passant included) from `from_mask` to `to_mask`, as an
    /// iterator.
    #[pyo3(signature = (from_mask = Mask(ALL), to_mask = Mask(ALL)))]
    fn generate_pseudo_legal_captures<'py>(
        &self,
        py: Python<'py>,
        from_mask: Mask,
        to_mask: Mask,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::PseudoCaptures, from_mask.0, to_mask.0)
    }

    /// The last move played (IndexError when there is none).
    fn peek(&self, py: Python<'_>) -> PyResult<Py<PyMove>> {
        let st = self.st()?;
        // At the root of an assigned position: the last move before the assignment.
        let mut s: &State = &st;
        while s.core.ply() == 0 {
            if let Some(code) = s.via {
                return PyMove::from_via(py, code);
            }
            match &s.before {
                Some(b) => s = b,
                None => break,
            }
        }
        let last = history_py_moves(py, &s.core).next_back();
        match last {
            Some(m) => Ok(m),
            None => Err(PyIndexError::new_err("peek at a board with no moves played")),
        }
    }

    /// The legal Move that UCI text names (InvalidMoveError / IllegalMoveError otherwise).
    fn parse_uci(&self, py: Python<'_>, uci: Bound<'_, PyString>) -> PyResult<Py<PyMove>> {
        // python-chess gives the null move back as it is, in check or not.
        if uci.to_str().is_ok_and(|t| t == "0000") {
            return Ok(interned(py, move_index(0, 0, 0)));
        }
        let mut st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(interned(py, loose::index(loose_uci(&loose, &uci)?)));
        }
        let m = st.resolve(uci.as_any(), true).map_err(|e| as_illegal_uci(py, e, &uci, &st))?;
        Ok(to_py_move(py, &st.core, m))
    }

    /// A plain movetext line (see `pgn::plain_tokens`) read ahead on a copy of this board:
    /// its tokens, each SAN replaced by the Move it names in turn (what `parse_san` gives),
    /// the other tokens as the Python reader writes them (`{comment`, `$n`, glyphs, results).
    /// The first SAN that does not read stays text and ends the list (the caller parses it
    /// on the real board for the error). None when the line is not plain, or the board is
    /// not playable.
    fn _plain_line<'py>(&self, py: Python<'py>, line: &str) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(tokens) = crate::plain_tokens(line, false) else { return Ok(None) };
        let st = self.st()?;
        if st.unplayable.is_some() {
            return Ok(None);
        }
        let mut scratch = State::shared(st.core.clone(), None);
        drop(st);
        let out = PyList::empty(py);
        for token in tokens {
            match token {
                crate::Plain::San(san) if !matches!(san, "*" | "1-0" | "0-1" | "1/2-1/2") => {
                    match parse_san_like_python_chess(&mut scratch, san) {
                        Ok(m) if !m.is_null() => {
                            out.append(to_py_move(py, &scratch.core, m))?;
                            scratch.play(m);
                        }
                        _ => {
                            out.append(san)?;
                            break;
                        }
                    }
                }
                crate::Plain::San(result) => out.append(result)?,
                crate::Plain::Text(text) => out.append(text)?,
                crate::Plain::Open | crate::Plain::Close => {
                    unreachable!("asked without parentheses")
                }
            }
        }
        Ok(Some(out))
    }

    /// Plays each move of `moves` in turn, as `push` does (for `GameNode.board()`, which
    /// replays a line from the game's start). On an illegal move the moves before it stay
    /// played and the error is raised.
    fn _push_all(&self, moves: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut st = self.st()?;
        for m in moves.try_iter()? {
            let m = m?;
            let quick = m.cast_exact::<PyMove>().ok().and_then(|pm| st.quick_move(pm.get()));
            let mv = match quick {
                Some(mv) => mv,
                None => st.resolve(&m, true)?,
            };
            st.play(mv);
        }
        Ok(())
    }

    /// Plays `move` with `after`'s position as what it leads to: the push of a variant board
    /// (kibitz.variant.boards), whose moves do more than standard chess's (an explosion, a
    /// drop, a king promoted to). `pop` comes back to this position and returns `move`, and
    /// `move_stack` lists it; `after`'s own move stack is not taken.
    fn _push_as(&self, r#move: &Bound<'_, PyAny>, after: PyRef<'_, PyBoard>) -> PyResult<()> {
        let Some(code) = PyMove::via_code(r#move)? else {
            return Err(PyTypeError::new_err("_push_as needs a move"));
        };
        // The position alone (its root: no moves), taken before this board is locked (the
        // two may be the same board).
        let new = after.st()?.copy_with_stack(0);
        drop(after);
        let mut st = self.st()?;
        let old = std::mem::replace(&mut *st, new);
        st.before = Some(Box::new(old));
        st.via = Some(code);
        Ok(())
    }

    /// Plays a move given as UCI text and returns it. Raises InvalidMoveError for malformed
    /// text and IllegalMoveError for an illegal move; the board is then unchanged.
    fn push_uci(slf: &Bound<'_, Self>, uci: Bound<'_, PyString>) -> PyResult<Py<PyMove>> {
        let py = slf.py();
        // The null move, in check too, as python-chess's parse_uci and push take it.
        if uci.to_str().is_ok_and(|t| t == "0000") {
            let out = interned(py, move_index(0, 0, 0));
            slf.call_method1("push", (&out,))?;
            return Ok(out);
        }
        let mut st = slf.get().st()?;
        if let Some(loose) = st.loose() {
            let out = interned(py, loose::index(loose_uci(&loose, &uci)?));
            drop(st);
            slf.call_method1("push", (&out,))?;
            return Ok(out);
        }
        let m = st.resolve(uci.as_any(), true).map_err(|e| as_illegal_uci(py, e, &uci, &st))?;
        let out = to_py_move(py, &st.core, m);
        if overrides_push(slf) {
            drop(st);
            slf.call_method1("push", (&out,))?;
            return Ok(out);
        }
        st.play(m);
        Ok(out)
    }

    /// The legal Move a SAN text names (AmbiguousMoveError when it fits several).
    fn parse_san(&self, py: Python<'_>, san: Bound<'_, PyString>) -> PyResult<Py<PyMove>> {
        let san = text(&san, "move", move_text_err)?;
        let st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(interned(py, loose::index(loose_san(&loose, &san)?)));
        }
        let mut st = st;
        st.playable()?;
        // The null move's spellings too, as python-chess reads them (PGN uses "--" and "Z0").
        let m = parse_san_like_python_chess(&mut st, &san)?;
        if !m.is_null() {
            st.parsed = Some((st.core.key(), st.core.ply(), core_index(&st.core, m), m));
        }
        Ok(to_py_move(py, &st.core, m))
    }

    /// Plays a move given in SAN and returns it; on error the board is unchanged. The null
    /// move ("--", "Z0", "0000", "@@@@") is played as `push(Move.null())` plays it.
    fn push_san(slf: &Bound<'_, Self>, san: Bound<'_, PyString>) -> PyResult<Py<PyMove>> {
        let py = slf.py();
        let san = text(&san, "move", move_text_err)?;
        let st = slf.get().st()?;
        if let Some(loose) = st.loose() {
            // python-chess plays what it parsed, the null move too.
            let out = interned(py, loose::index(loose_san(&loose, &san)?));
            drop(st);
            slf.call_method1("push", (&out,))?;
            return Ok(out);
        }
        let mut st = st;
        st.playable()?;
        let m = parse_san_like_python_chess(&mut st, &san)?;
        let out = to_py_move(py, &st.core, m);
        // The null move in check: python-chess plays it, leaving the side that moved in
        // check, and so does `push` (a position the engine cannot play, see `loose`).
        if overrides_push(slf) || (m.is_null() && st.core.in_check()) {
            drop(st);
            slf.call_method1("push", (&out,))?;
            return Ok(out);
        }
        st.play(m);
        Ok(out)
    }

    /// The SAN of a legal move (a Move or UCI text), e.g. "Nf3", "exd6", "O-O", "e8=Q#".
    fn san(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        // The null move is "--" in any position, in check too (python-chess).
        if matches!(PyMove::fields_of(r#move), Ok(Some((0, 0, 0)))) {
            return Ok("--".into());
        }
        let mut st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(loose.setup.san(loose.castling, loose_move(&loose, r#move, true)?, false));
        }
        match st.resolve(r#move, true) {
            Ok(m) => Ok(san(&st.core, m)),
            Err(refused) => loose::pseudo_legal_san(&st, r#move, false, refused),
        }
    }

    /// The long algebraic notation of a legal move, e.g. "Ng1-f3", "e4xd5", "O-O".
    fn lan(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        // The null move is "--" in any position, in check too (python-chess).
        if matches!(PyMove::fields_of(r#move), Ok(Some((0, 0, 0)))) {
            return Ok("--".into());
        }
        let mut st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(loose.setup.san(loose.castling, loose_move(&loose, r#move, true)?, true));
        }
        match st.resolve(r#move, true) {
            Ok(m) => Ok(lan(&st.core, m)),
            Err(refused) => loose::pseudo_legal_san(&st, r#move, true, refused),
        }
    }

    /// A line of moves in SAN with move numbers ("1. e4 e5 2. Nf3", "3...Bg6 4. fxg6");
    /// IllegalMoveError when a move is not legal where it is played. The board is unchanged.
    fn variation_san(&self, variation: &Bound<'_, PyAny>) -> PyResult<String> {
        if let Some(mut loose) = self.st()?.loose() {
            let mut out: Vec<String> = Vec::new();
            for mv in variation.try_iter()? {
                let mv = mv?;
                let m = loose_move(&loose, &mv, false)?;
                let s = loose.setup.san(loose.castling, m, false);
                push_numbered(&mut out, loose.setup.white_to_move, loose.setup.fullmove, s);
                // The null move is never legal for python-chess's variation_san.
                let after = if m.is_null() {
                    None
                } else {
                    loose.setup.after_move(m.from as usize, m.to as usize, m.promotion)
                };
                let Some(after) = after else {
                    return Err(IllegalMoveError::new_err(format!(
                        "illegal move {} in position {}",
                        mv.str()?,
                        loose.fen()
                    )));
                };
                loose = loose::Loose { castling: after.castling, setup: after };
            }
            return Ok(out.join(" "));
        }
        let mut b = self.st()?.copy_with_stack(0);
        let mut out: Vec<String> = Vec::new();
        for mv in variation.try_iter()? {
            let mv = mv?;
            // Legal moves only, as python-chess's is_legal reads them.
            let m = match b.resolve(&mv, false) {
                Ok(m) if !b.names_standard_castling(&mv) => m,
                Err(e) if e.get_type(mv.py()).is_subclass_of::<PyTypeError>()? => return Err(e),
                _ => {
                    return Err(IllegalMoveError::new_err(format!(
                        "illegal move {} in position {}",
                        mv.str()?,
                        b.core.fen()
                    )))
                }
            };
            let s = san(&b.core, m);
            push_numbered(&mut out, b.core.side_to_move() == WHITE, b.core.fullmove_number(), s);
            b.play(m);
        }
        Ok(out.join(" "))
    }

    /// True when the move (a Move or UCI text) is legal here.
    fn is_legal(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.is_legal_move(py, r#move)
    }

    /// True when the move is pseudo-legal here (legal, or legal but for leaving the king attacked).
    fn is_pseudo_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        // As python-chess: no move (None) and a drop are not pseudo-legal.
        if r#move.is_none() || PyMove::drop_of(r#move).is_some() {
            return Ok(false);
        }
        let fields = move_fields(r#move)?;
        self.is_pseudo_legal_move(r#move.py(), r#move, fields)
    }

    // ---- perft ----

    /// Leaf nodes of the legal move tree to `depth` (0..64, bulk-counted). Releases the GIL;
    /// Ctrl-C raises KeyboardInterrupt with the board unchanged.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = depth_arg(depth, 0)?;
        let mut st = self.play()?;
        // Taken (and unshared) here, with the GIL: the worker gets the board, not the shared
        // core, whose count is the GIL's to guard (shared.rs).
        let board: &mut CoreBoard = &mut st.core;
        let abort = AtomicBool::new(false);
        let nodes = run_interruptible(py, &abort, || perft_until(board, depth, &abort))?;
        nodes.ok_or_else(|| PyRuntimeError::new_err("perft was stopped"))
    }

    /// Leaf counts below each legal move (UCI text) at `depth` (1..64), in generation order.
    /// Releases the GIL; Ctrl-C raises KeyboardInterrupt with the board unchanged.
    fn divide<'py>(&self, py: Python<'py>, depth: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let depth = depth_arg(depth, 1)?;
        let mut st = self.play()?;
        // Taken (and unshared) here, with the GIL: the worker gets the board, not the shared
        // core, whose count is the GIL's to guard (shared.rs).
        let board: &mut CoreBoard = &mut st.core;
        let abort = AtomicBool::new(false);
        let counts = run_interruptible(py, &abort, || divide_until(board, depth, &abort))?
            .ok_or_else(|| PyRuntimeError::new_err("divide was stopped"))?;
        let out = PyDict::new(py);
        for (m, n) in counts {
            out.set_item(st.core.move_to_uci(m), n)?;
        }
        Ok(out)
    }

    // ---- Objects that behave ----

    /// The Polyglot key of the position (equal to `chess.polyglot.zobrist_hash`).
    fn zobrist_hash(&self) -> PyResult<u64> {
        Ok(self.st()?.polyglot_key())
    }

    /// The Polyglot key (same as `zobrist_hash`).
    fn polyglot_key(&self) -> PyResult<u64> {
        Ok(self.st()?.polyglot_key())
    }

    /// The position the move stack starts from, as a new Board without history.
    fn root(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let (st, chess960) = {
            let now = slf.get().st()?;
            (now.bottom().copy_with_stack(usize::MAX).root_only(), now.core.is_chess960())
        };
        // python-chess's root has the board's Chess960 flag as it is now (pop and root
        // restore positions, not the flag).
        let flag_differs = st.core.is_chess960() != chess960;
        let root = PyBoard::new_of(&slf.get_type(), st, true)?;
        if flag_differs {
            root.bind(slf.py()).setattr("chess960", chess960)?;
        }
        Ok(root)
    }

    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let st = slf.get().st()?.copy_with_stack(usize::MAX);
        PyBoard::new_of(&slf.get_type(), st, false)
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let st = slf.get().st()?.copy_with_stack(usize::MAX);
        PyBoard::new_of(&slf.get_type(), st, false)
    }

    /// Pickles as the root FEN and the moves since (so boards go through multiprocessing).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let st = slf.get().st()?;
        let (fen, moves) = st.root_and_moves();
        let chess960 = st.core.is_chess960();
        // The boards before assignments go along as boards (pickled in turn), so the whole
        // stack comes back, as python-chess's pickles keep it.
        let below = match &st.before {
            Some(b) => Some(Bound::new(slf.py(), PyBoard::from_state(b.copy_with_stack(usize::MAX)))?),
            None => None,
        };
        let args: Pickled<'py> = (fen, chess960, moves, st.root_castling, st.root_promoted, below, st.via);
        drop(st);
        let py = slf.py();
        let rebuild = slf.get_type().getattr("_from_moves")?;
        // A subclass's instance attributes go along, as python-chess's pickles (its boards'
        // `__dict__`) keep them: the rebuilt board's `__dict__` is updated with them.
        if !slf.get_type().is(py.get_type::<PyBoard>()) {
            if let Ok(dict) = slf.getattr(pyo3::intern!(py, "__dict__")) {
                if dict.is_truthy()? {
                    return Ok(PyTuple::new(py, [rebuild, args.into_pyobject(py)?.into_any(), dict])?.into_any());
                }
            }
        }
        Ok(PyTuple::new(py, [rebuild, args.into_pyobject(py)?.into_any()])?.into_any())
    }

    /// Equal as python-chess's boards are: the same position (pieces, side to move, usable
    /// castling rights, a legal en-passant square) and move counters, whatever the history.
    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let Ok(o) = other.cast::<PyBoard>() else {
            return Ok(py.NotImplemented());
        };
        // python-chess's: boards of two variants (their classes' `uci_variant`) differ.
        let (a, b) = (slf.get_type(), o.get_type());
        if !a.is(&b) && !a.getattr("uci_variant")?.eq(b.getattr("uci_variant")?)? {
            return Ok(false.into_pyobject(py)?.to_owned().into_any().unbind());
        }
        let same = slf.is(o) || slf.get().st()?.same_position(&mut *o.get().st()?);
        Ok(same.into_pyobject(py)?.to_owned().into_any().unbind())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let ty = slf.get_type();
        // python-chess's: the class's own name and its own fen() (a subclass may override it).
        let (name, fen) = if ty.is(py.get_type::<PyBoard>()) {
            ("Board".to_string(), format!("'{}'", PyBoard::fen(slf, Flag(false), None, None)?))
        } else {
            (ty.name()?.to_string(), slf.call_method0("fen")?.repr()?.to_string())
        };
        Ok(if slf.get().st()?.core.is_chess960() {
            format!("{name}({fen}, chess960=True)")
        } else {
            format!("{name}({fen})")
        })
    }

    /// The board as ASCII, rank 8 on top, "." for empty squares (as python-chess prints it).
    fn __str__(&self) -> PyResult<String> {
        Ok(self.st()?.core.to_string())
    }

    /// The board with Unicode pieces (python-chess's `unicode`).
    #[pyo3(signature = (*, invert_color = Flag(false), borders = Flag(false), empty_square = "⭘", orientation = Flag(true)))]
    fn unicode(&self, invert_color: Flag, borders: Flag, empty_square: &str, orientation: Flag) -> PyResult<String> {
        let (invert_color, borders, orientation) = (invert_color.0, borders.0, orientation.0);
        const SYMBOLS: [[&str; 7]; 2] = [["", "♙", "♘", "♗", "♖", "♕", "♔"], ["", "♟", "♞", "♝", "♜", "♛", "♚"]];
        let st = self.st()?;
        let ranks: Vec<usize> = if orientation { (0..8).rev().collect() } else { (0..8).collect() };
        let files: Vec<usize> = if orientation { (0..8).collect() } else { (0..8).rev().collect() };
        let line = format!("  {}\n", "-".repeat(17));
        let mut s = String::new();
        for &rank in &ranks {
            if borders {
                s.push_str(&line);
                s.push((b'1' + rank as u8) as char);
                s.push(' ');
            }
            for (i, &file) in files.iter().enumerate() {
                if borders {
                    s.push('|');
                } else if i > 0 {
                    s.push(' ');
                }
                let p = st.core.piece_at(sq120(file, rank));
                if p == EMPTY {
                    s.push_str(empty_square);
                } else {
                    s.push_str(SYMBOLS[usize::from((color_of(p) == WHITE) == invert_color)][kind_of(p) as usize]);
                }
            }
            if borders {
                s.push('|');
            }
            if borders || (if orientation { rank > 0 } else { rank < 7 }) {
                s.push('\n');
            }
        }
        if borders {
            s.push_str(&line);
            s.push_str("   ");
            s.push_str(if orientation { "a b c d e f g h" } else { "h g f e d c b a" });
        }
        Ok(s)
    }

    /// The board as an SVG picture for Jupyter, as python-chess draws it: `kibitz.svg.board`
    /// at 390 pixels with the last move and a king in check marked, asked of the board's own
    /// methods (any position it holds, a subclass's overrides). None when that module is not
    /// available, so the notebook falls back to the text form.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let py = slf.py();
        let svg = match py.import("kibitz.svg") {
            Ok(m) => m,
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyModuleNotFoundError>(py) => return Ok(None),
            Err(e) => return Err(e),
        };
        let kwargs = PyDict::new(py);
        kwargs.set_item("board", slf)?;
        kwargs.set_item("size", 390)?;
        let last = if slf.getattr("move_stack")?.is_truthy()? { Some(slf.call_method0("peek")?) } else { None };
        kwargs.set_item("lastmove", last)?;
        let check = if slf.call_method0("is_check")?.is_truthy()? {
            Some(slf.call_method1("king", (slf.getattr("turn")?,))?)
        } else {
            None
        };
        kwargs.set_item("check", check)?;
        svg.getattr("board")?.call((), Some(&kwargs)).map(|picture| Some(picture.unbind()))
    }

    /// The position as 18 planes of 8x8 for neural networks, a NumPy array (the layout is
    /// `kibitz.tensor`'s: pieces, castling rights, legal en passant, side to move).
    #[pyo3(signature = (canonical=Flag(false), dtype=None), text_signature = "($self, canonical=False, dtype=None)")]
    fn to_tensor<'py>(
        slf: &Bound<'py, Self>,
        canonical: Flag,
        dtype: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::python::tensor::board_tensor(slf, canonical.0, dtype)
    }
}

/// `Board`'s first argument: a FEN, None for an empty board, or left out for the start position.
pub(crate) enum FenArg<'py> {
    Start,
    Empty,
    Text(Bound<'py, PyString>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for FenArg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(FenArg::Empty);
        }
        Ok(FenArg::Text(obj.cast::<PyString>()?.to_owned()))
    }
}

/// python-chess's error for UCI text that names no legal move (`parse_uci`, `push_uci`):
/// "illegal uci: 'e2e5' in <fen>", whatever kibitz found wrong with the move; other errors
/// (malformed text, an unplayable position) as they are.
fn as_illegal_uci(py: Python<'_>, e: PyErr, uci: &Bound<'_, PyString>, st: &State) -> PyErr {
    if !e.is_instance_of::<IllegalMoveError>(py) {
        return e;
    }
    let text = uci.to_str().map(crate::py_repr).unwrap_or_default();
    IllegalMoveError::new_err(format!("illegal uci: {text} in {}", st.core.fen()))
}

/// Whether `board` is of a subclass that defines its own `push`: python-chess's `push_san`
/// and `push_uci` go through `self.push`, so such a subclass sees every move.
fn overrides_push(board: &Bound<'_, PyBoard>) -> bool {
    overrides(board, "push")
}

/// Whether `board` is of a subclass that defines its own method `name`.
fn overrides(board: &Bound<'_, PyBoard>, name: &str) -> bool {
    let ty = board.get_type();
    if ty.is(board.py().get_type::<PyBoard>()) {
        return false;
    }
    let base = board.py().get_type::<PyBoard>();
    match (ty.getattr(name), base.getattr(name)) {
        (Ok(a), Ok(b)) => !a.is(&b),
        _ => false,
    }
}

/// A move of `variation_san`'s line: its number before White's moves and before the first
/// move when Black begins ("3...Bg6"), as python-chess writes them.
fn push_numbered(out: &mut Vec<String>, white_to_move: bool, fullmove: u32, san: String) {
    if white_to_move {
        out.push(format!("{fullmove}. {san}"));
    } else if out.is_empty() {
        out.push(format!("{fullmove}...{san}"));
    } else {
        out.push(san);
    }
}

/// The state of `Board(fen, chess960=...)`.
pub(super) fn state_from_fen(fen: FenArg<'_>, chess960: bool) -> PyResult<State> {
    let fen = match &fen {
        FenArg::Text(f) => text(f, "FEN", fen_text_err)?,
        FenArg::Start => return Ok(State::start(chess960)),
        FenArg::Empty => return Ok(State::empty(chess960)),
    };
    if fen == crate::STARTPOS {
        return Ok(State::start(chess960));
    }
    State::parse(&fen, chess960)
}
