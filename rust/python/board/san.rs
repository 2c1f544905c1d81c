//! SAN read as python-chess reads it (`parse_san`, `push_san`, movetext): the rules
//! library's python-chess dialect (`Board::parse_san_python_chess`, `rust/chess/san.rs`), its
//! faults raised as python-chess's exceptions with python-chess's messages.

use super::*;
use crate::python::errors::{AmbiguousMoveError, InvalidMoveError};
use crate::SanFault;

/// The move `san` names in the state's position, read as python-chess reads it (the null
/// move's spellings give `Move::NULL`); the legal moves the state has at hand are used.
pub(super) fn parse_san_like_python_chess(st: &mut State, san: &str) -> PyResult<Move> {
    let legal = st.cached_legal();
    st.core.parse_san_python_chess(san, legal, crate::py_repr).map_err(san_error)
}

/// python-chess's exception for a SAN fault.
pub(super) fn san_error(fault: SanFault) -> PyErr {
    match fault {
        SanFault::Invalid(m) => InvalidMoveError::new_err(m),
        SanFault::Illegal(m) => IllegalMoveError::new_err(m),
        SanFault::Ambiguous(m) => AmbiguousMoveError::new_err(m),
    }
}
