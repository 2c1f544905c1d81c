//! `_core.read_plain_movetext`: the movetext loop of `kibitz.pgn.read_game` in Rust, for
//! visitors that look only at moves (their class keeps BaseVisitor's comment, NAG, result,
//! variation, board and SAN-parsing callbacks; `visit_move` and `handle_error` may be their
//! own). It reads plain lines (see `pgn::plain_tokens`; variations' parentheses included)
//! one after another, parses each SAN on the board it belongs to, calls `visit_move(board,
//! move)` and plays the move, with `_read_movetext`'s rules for variations and for skipping
//! after an error; it hands back the first line it cannot read, for the general tokenizer.
//! For kibitz.pgn's own GameBuilder it grows the game tree as GameBuilder's callbacks would
//! (`Tree`), the Python loop's inline tree building done here.

use super::san::parse_san_like_python_chess;
use super::PyBoard;
use crate::python::moves::to_py_move;
use crate::{is_blank, plain_tokens, Plain};

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyType};

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
///
/// With `builder` (a GameBuilder, and `child_node` the ChildNode class) the moves grow its
/// tree instead: `san_fallback(board, san)` then plays the SAN (`push_san`) and returns the
/// Move, or reports the error and returns None.
#[pyfunction]
#[pyo3(signature = (line, readline, boards, depths, skip_depth, visit_move, san_fallback, builder = None, child_node = None))]
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
    builder: Option<&Bound<'py, PyAny>>,
    child_node: Option<&Bound<'py, PyType>>,
) -> PyResult<(Bound<'py, PyString>, usize, bool)> {
    let mut tree = match (builder, child_node) {
        (Some(b), Some(c)) => Some(Tree::load(b, c)?),
        _ => None,
    };
    let result = read_lines(py, line, readline, boards, depths, skip_depth, visit_move, san_fallback, tree.as_mut());
    if let Some(tree) = &tree {
        tree.store()?;
    }
    result
}

#[allow(clippy::too_many_arguments)]
fn read_lines<'py>(
    py: Python<'py>,
    line: Bound<'py, PyString>,
    readline: &Bound<'py, PyAny>,
    boards: &Bound<'py, PyList>,
    depths: &Bound<'py, PyList>,
    skip_depth: usize,
    visit_move: Option<&Bound<'py, PyAny>>,
    san_fallback: &Bound<'py, PyAny>,
    mut tree: Option<&mut Tree<'py>>,
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
                        // The result (BaseVisitor's visit_result does nothing).
                        if let Some(tree) = tree.as_deref_mut() {
                            tree.builder.call_method1(pyo3::intern!(py, "visit_result"), (san,))?;
                        }
                        continue;
                    }
                    // SAN, or a result inside a variation, which python-chess reads as SAN.
                    let board = boards.get_item(boards.len() - 1)?;
                    let played = if let Some(tree) = tree.as_deref_mut() {
                        let mv = match play_san(py, &board, san, None)? {
                            Some(mv) => Some(mv.into_bound(py).into_any()),
                            None => Some(san_fallback.call1((&board, san))?).filter(|m| !m.is_none()),
                        };
                        match mv {
                            Some(mv) => {
                                tree.add_move(&mv)?;
                                true
                            }
                            None => false,
                        }
                    } else {
                        match play_san(py, &board, san, visit_move)? {
                            Some(_) => true,
                            None => san_fallback.call1((&board, san))?.is_truthy()?,
                        }
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
                        // BaseVisitor's begin_variation does not skip, nor GameBuilder's: a
                        // board for the variation, before the move it replaces.
                        if let Some(tree) = tree.as_deref_mut() {
                            tree.call(pyo3::intern!(py, "begin_variation"))?;
                        }
                        let board = boards.get_item(boards.len() - 1)?.call_method0(pyo3::intern!(py, "copy"))?;
                        board.call_method0(pyo3::intern!(py, "pop"))?;
                        boards.append(board)?;
                        stack.push(depth - 1);
                    }
                }
                Plain::Close => {
                    if skip == 1 {
                        skip = 0;
                        if let Some(tree) = tree.as_deref_mut() {
                            tree.call(pyo3::intern!(py, "end_variation"))?;
                        }
                    } else if skip > 0 {
                        skip -= 1;
                    } else if boards.len() > 1 {
                        if let Some(tree) = tree.as_deref_mut() {
                            tree.call(pyo3::intern!(py, "end_variation"))?;
                        }
                        boards.del_item(boards.len() - 1)?;
                        stack.pop();
                    }
                }
                Plain::Text(text) => {
                    // Comments, NAGs, glyphs: BaseVisitor's callbacks do nothing.
                    if let (Some(tree), 0) = (tree.as_deref_mut(), skip) {
                        tree.annotate(&text)?;
                    }
                }
            }
        }
        line = readline.call0()?.cast_into()?;
    };
    let fresh = PyList::new(py, &stack)?;
    depths.set_slice(0, depths.len(), &fresh)?;
    Ok((line, skip, outcome))
}

/// Parses `san` on `board` and plays it, calling `visit_move` before; the Move played, or
/// None (nothing done) when kibitz's quick reading does not give a move to play here.
fn play_san(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    san: &str,
    visit_move: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Py<crate::python::moves::PyMove>>> {
    let Ok(kb) = board.cast::<PyBoard>() else { return Ok(None) };
    let kb = kb.get();
    let (m, mv, key, ply, visit) = {
        let mut st = kb.st()?;
        if st.unplayable.is_some() {
            return Ok(None);
        }
        let m = match parse_san_like_python_chess(&mut st, san) {
            Ok(m) if !m.is_null() => m,
            _ => return Ok(None),
        };
        let mv = to_py_move(py, &st.core, m);
        let Some(visit) = visit_move else {
            st.play(m);
            return Ok(Some(mv));
        };
        (m, mv, st.core.key(), st.core.ply(), visit)
    };
    visit.call1((board, &mv))?;
    let mut st = kb.st()?;
    if st.core.key() != key || st.core.ply() != ply {
        // The visitor changed the board: play the move as push() would, or fail as it.
        drop(st);
        board.call_method1(pyo3::intern!(py, "push"), (&mv,))?;
        return Ok(Some(mv));
    }
    st.play(m);
    Ok(Some(mv))
}

/// A GameBuilder's state while its tree grows here: the node moves go below (its variation
/// stack's top), the comment waiting for the next move, and whether a move was read in the
/// current variation. Kept here and written back before its own methods run and at the end.
struct Tree<'py> {
    builder: Bound<'py, PyAny>,
    child_node: Bound<'py, PyType>,
    stack: Bound<'py, PyList>,
    top: Bound<'py, PyAny>,
    starting: String,
    in_variation: bool,
}

impl<'py> Tree<'py> {
    fn load(builder: &Bound<'py, PyAny>, child_node: &Bound<'py, PyType>) -> PyResult<Self> {
        let py = builder.py();
        let stack = builder.getattr(pyo3::intern!(py, "variation_stack"))?.cast_into::<PyList>()?;
        let top = stack.get_item(stack.len() - 1)?;
        Ok(Tree {
            builder: builder.clone(),
            child_node: child_node.clone(),
            stack,
            top,
            starting: builder.getattr(pyo3::intern!(py, "starting_comment"))?.extract()?,
            in_variation: builder.getattr(pyo3::intern!(py, "in_variation"))?.is_truthy()?,
        })
    }

    /// Writes the state back to the builder.
    fn store(&self) -> PyResult<()> {
        let py = self.builder.py();
        self.stack.set_item(self.stack.len() - 1, &self.top)?;
        self.builder.setattr(pyo3::intern!(py, "starting_comment"), &self.starting)?;
        self.builder.setattr(pyo3::intern!(py, "in_variation"), self.in_variation)
    }

    /// Calls a method of the builder (begin_variation, end_variation) with its state current.
    fn call(&mut self, name: &Bound<'py, PyString>) -> PyResult<()> {
        self.store()?;
        self.builder.call_method0(name)?;
        *self = Tree::load(&self.builder, &self.child_node)?;
        Ok(())
    }

    /// GameBuilder.visit_move: a node for `mv` below the top one.
    fn add_move(&mut self, mv: &Bound<'py, PyAny>) -> PyResult<()> {
        let py = mv.py();
        // SAFETY: `child_node` is a live type object; PyType_GenericNew allocates an instance
        // (as object.__new__ does for a class without __new__ of its own) and returns a new
        // reference, or null with an exception set.
        let node = unsafe {
            let args = pyo3::types::PyTuple::empty(py);
            let obj = pyo3::ffi::PyType_GenericNew(self.child_node.as_type_ptr(), args.as_ptr(), std::ptr::null_mut());
            Bound::from_owned_ptr_or_err(py, obj)?
        };
        node.setattr(pyo3::intern!(py, "parent"), &self.top)?;
        node.setattr(pyo3::intern!(py, "move"), mv)?;
        node.setattr(pyo3::intern!(py, "variations"), PyList::empty(py))?;
        node.setattr(pyo3::intern!(py, "comment"), pyo3::intern!(py, ""))?;
        node.setattr(pyo3::intern!(py, "starting_comment"), &self.starting)?;
        node.setattr(pyo3::intern!(py, "_nags"), py.None())?;
        self.top.getattr(pyo3::intern!(py, "variations"))?.cast_into::<PyList>()?.append(&node)?;
        self.stack.set_item(self.stack.len() - 1, &node)?;
        self.top = node;
        self.starting.clear();
        self.in_variation = true;
        Ok(())
    }

    /// GameBuilder.visit_comment and visit_nag for a plain line's text token (`{comment`,
    /// `$n`, or a glyph).
    fn annotate(&mut self, token: &str) -> PyResult<()> {
        let py = self.builder.py();
        if let Some(comment) = token.strip_prefix('{') {
            if comment.is_empty() {
                return Ok(());
            }
            let at_root_start = self.top.getattr(pyo3::intern!(py, "parent"))?.is_none()
                && self.top.getattr(pyo3::intern!(py, "variations"))?.len()? == 0;
            if self.in_variation || at_root_start {
                let name = pyo3::intern!(py, "comment");
                let current: String = self.top.getattr(name)?.extract()?;
                let joined = if current.is_empty() { comment.to_string() } else { format!("{current} {comment}") };
                self.top.setattr(name, joined)?;
            } else if self.starting.is_empty() {
                self.starting = comment.to_string();
            } else {
                self.starting.push(' ');
                self.starting.push_str(comment);
            }
            return Ok(());
        }
        let nag: Bound<'py, PyAny> = match token {
            "!" => 1u8.into_pyobject(py)?.into_any(),
            "?" => 2u8.into_pyobject(py)?.into_any(),
            "!!" => 3u8.into_pyobject(py)?.into_any(),
            "??" => 4u8.into_pyobject(py)?.into_any(),
            "!?" => 5u8.into_pyobject(py)?.into_any(),
            "?!" => 6u8.into_pyobject(py)?.into_any(),
            // `$` and digits: any size, as Python's int() reads it.
            _ => py.get_type::<pyo3::types::PyInt>().call1((&token[1..],))?,
        };
        self.top.getattr(pyo3::intern!(py, "nags"))?.call_method1(pyo3::intern!(py, "add"), (nag,))?;
        Ok(())
    }
}
