//! `_core.read_plain_movetext`: the movetext loop of `kibitz.pgn.read_game` in Rust, for
//! visitors that look only at moves (their class keeps BaseVisitor's comment, NAG, result,
//! variation, board and SAN-parsing callbacks; `visit_move` and `handle_error` may be their
//! own). It reads plain lines (see `pgn::plain_tokens`; variations' parentheses included)
//! one after another, parses each SAN on the board it belongs to, calls `visit_move(board,
//! move)` and plays the move, with `_read_movetext`'s rules for variations and for skipping
//! after an error; it hands back the first line it cannot read, for the general tokenizer.

use super::methods::parse_san_like_python_chess;
use super::PyBoard;
use crate::python::moves::to_py_move;
use crate::python::pgn::{is_blank, plain_tokens, Plain};

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

/// `read_plain_movetext(line, readline, boards, depths, skip_depth, visit_move, san_fallback)`
/// -> `(line, skip_depth, done)`.
///
/// `boards` is the stack of boards (the main line's first, a variation's last), `depths` the
/// moves played on each, `skip_depth` how deep inside a skipped variation the reading is (0:
/// none); the lists are updated in place. `visit_move` is None when the visitor's is
/// BaseVisitor's. A SAN that kibitz's reading does not play here (an error, a null move, a
/// board the engine cannot play) goes to `san_fallback(board, san)`, which plays it or
/// reports the error, as `_read_movetext` does, and says whether a move was played. `done`:
/// the game's movetext ended (a blank line or the end of the file); else `line` is the first
/// line this could not read.
#[pyfunction]
#[pyo3(signature = (line, readline, boards, depths, skip_depth, visit_move, san_fallback))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_plain_movetext<'py>(
    py: Python<'py>,
    line: Bound<'py, PyString>,
    readline: &Bound<'py, PyAny>,
    boards: &Bound<'py, PyList>,
    depths: &Bound<'py, PyList>,
    skip_depth: usize,
    visit_move: Option<&Bound<'py, PyAny>>,
    san_fallback: &Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyString>, usize, bool)> {
    let mut stack: Vec<i64> = depths.extract()?;
    let mut skip = skip_depth;
    let mut line = line;
    let outcome = loop {
        let text = line.to_cow()?;
        if text.is_empty() || is_blank(&text) {
            break true;
        }
        if text.starts_with('%') || text.starts_with(';') {
            line = readline.call0()?.cast_into()?;
            continue;
        }
        let Some(tokens) = plain_tokens(&text, true) else { break false };
        for token in tokens {
            match token {
                Plain::San(san) => {
                    if skip > 0 {
                        continue;
                    }
                    if boards.len() == 1 && matches!(san, "*" | "1-0" | "0-1" | "1/2-1/2") {
                        continue; // the result (BaseVisitor's visit_result does nothing)
                    }
                    // SAN, or a result inside a variation, which python-chess reads as SAN.
                    let board = boards.get_item(boards.len() - 1)?;
                    let played = match play_san(py, &board, san, visit_move)? {
                        Some(()) => true,
                        None => san_fallback.call1((&board, san))?.is_truthy()?,
                    };
                    if played {
                        *stack.last_mut().expect("a board") += 1;
                    } else {
                        skip = 1;
                    }
                }
                Plain::Open => {
                    if skip > 0 {
                        skip += 1;
                    } else if let Some(&depth) = stack.last().filter(|&&d| d > 0) {
                        // BaseVisitor's begin_variation does not skip: a board for the
                        // variation, before the move it replaces.
                        let board = boards.get_item(boards.len() - 1)?.call_method0(pyo3::intern!(py, "copy"))?;
                        board.call_method0(pyo3::intern!(py, "pop"))?;
                        boards.append(board)?;
                        stack.push(depth - 1);
                    }
                }
                Plain::Close => {
                    if skip == 1 {
                        skip = 0;
                    } else if skip > 0 {
                        skip -= 1;
                    } else if boards.len() > 1 {
                        boards.del_item(boards.len() - 1)?;
                        stack.pop();
                    }
                }
                Plain::Text(_) => {} // comments, NAGs, glyphs: BaseVisitor's callbacks do nothing
            }
        }
        line = readline.call0()?.cast_into()?;
    };
    let fresh = PyList::new(py, &stack)?;
    depths.set_slice(0, depths.len(), &fresh)?;
    Ok((line, skip, outcome))
}

/// Parses `san` on `board` and plays it, calling `visit_move` before; None (nothing done)
/// when kibitz's quick reading does not give a move to play here.
fn play_san(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    san: &str,
    visit_move: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<()>> {
    let Ok(kb) = board.cast::<PyBoard>() else { return Ok(None) };
    let kb = kb.get();
    let (m, key, ply) = {
        let mut st = kb.st()?;
        if st.unplayable.is_some() {
            return Ok(None);
        }
        match parse_san_like_python_chess(&mut st, san) {
            Ok(m) if !m.is_null() => (m, st.core.key(), st.core.ply()),
            _ => return Ok(None),
        }
    };
    if let Some(visit) = visit_move {
        let mv = to_py_move(py, &kb.st()?.core, m);
        visit.call1((board, &mv))?;
        let mut st = kb.st()?;
        if st.core.key() != key || st.core.ply() != ply {
            // The visitor changed the board: play the move as push() would, or fail as it.
            drop(st);
            board.call_method1(pyo3::intern!(py, "push"), (mv,))?;
            return Ok(Some(()));
        }
        st.play(m);
    } else {
        kb.st()?.play(m);
    }
    Ok(Some(()))
}
