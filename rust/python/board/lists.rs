//! The move lists the views read (`board.legal_moves`, `board.pseudo_legal_moves`: their
//! iteration, length, membership and repr): the core's cached list in python-chess's order,
//! or, for a position the core cannot play, python-chess's own moves of it (`loose`).

use super::loose::{index, setup_move, Loose};
use super::*;

impl PyBoard {
    pub(crate) fn legal_tuple(&self, py: Python<'_>) -> PyResult<Py<PyTuple>> {
        let mut st = self.st_attached(py)?;
        if let Some(loose) = st.loose() {
            return Ok(PyTuple::new(py, Loose::interned(py, &loose.list(true)))?.unbind());
        }
        st.tuple(py)
    }

    pub(crate) fn legal_count(&self) -> PyResult<usize> {
        let mut st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(loose.list(true).len());
        }
        Ok(st.entry().moves.len())
    }

    /// Is `m` (any move-like object) legal here? False for objects that are not legal moves,
    /// TypeError for objects that are not moves at all.
    pub(crate) fn is_legal_move(&self, _py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mut st = self.st()?;
        // As python-chess: no move (None) is not legal (`None in board.legal_moves` is False).
        if m.is_none() {
            return Ok(false);
        }
        if let Some(loose) = st.loose() {
            return Ok(match move_fields(m) {
                Ok(fields) => loose.moves().is_legal(setup_move(fields)),
                Err(e) if e.get_type(m.py()).is_subclass_of::<PyTypeError>()? => return Err(e),
                Err(_) => false,
            });
        }
        if st.names_standard_castling(m) {
            return Ok(false);
        }
        match st.resolve(m, false) {
            Ok(_) => Ok(true),
            Err(e) if e.get_type(m.py()).is_subclass_of::<PyTypeError>()? => Err(e),
            Err(_) => Ok(false),
        }
    }

    /// Table indexes of the pseudo-legal moves.
    pub(crate) fn pseudo_indexes(&self) -> PyResult<Vec<u16>> {
        let st = self.st()?;
        if let Some(loose) = st.loose() {
            return Ok(loose.list(false).into_iter().map(index).collect());
        }
        Ok(st.pseudo_indexes())
    }

    /// SAN of the legal moves (or UCI of the pseudo-legal ones that are not legal), for reprs.
    pub(crate) fn sans(&self, _py: Python<'_>, pseudo: bool) -> PyResult<Vec<String>> {
        let st = self.st()?;
        if let Some(loose) = st.loose() {
            let moves = loose.moves();
            return Ok(loose
                .list(pseudo)
                .into_iter()
                .map(|m| if moves.is_legal(m) { loose.setup.san(loose.castling, m, false) } else { m.uci() })
                .collect());
        }
        st.playable()?;
        let (mut moves, mut index) = (Vec::new(), Vec::new());
        if pseudo {
            order::pseudo_legal_in_order(&st.core, &mut moves, &mut index);
        } else {
            order::legal_in_order(&st.core, &mut moves, &mut index);
        }
        Ok(moves
            .iter()
            .map(|&m| if st.core.is_legal(m) { st.core.move_to_san(m) } else { st.core.move_to_uci(m) })
            .collect())
    }
}
