//! The Python extension `kibitz._core`: the only module that uses PyO3.
//!
//! Errors become Python exceptions here, in one place: `FenError`, `InvalidMoveError` and
//! `IllegalMoveError`, all subclasses of `ValueError` (python-chess names the last two the
//! same way). Long calls (perft, divide, search) release the GIL.

mod board;
mod engine;

use crate::{FenError as CoreFenError, MoveError};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(kibitz, FenError, PyValueError, "A FEN string that is malformed or describes an impossible position.");
pyo3::create_exception!(kibitz, InvalidMoveError, PyValueError, "Move text that is not a UCI move at all.");
pyo3::create_exception!(kibitz, IllegalMoveError, PyValueError, "A well-formed move that is not legal in the position.");
pyo3::create_exception!(kibitz, AmbiguousMoveError, PyValueError, "A SAN move that fits more than one legal move.");

pub(crate) fn fen_err(e: CoreFenError) -> PyErr {
    FenError::new_err(e.to_string())
}

pub(crate) fn move_err(e: MoveError) -> PyErr {
    match e {
        MoveError::Invalid(..) => InvalidMoveError::new_err(e.to_string()),
        MoveError::Illegal(..) => IllegalMoveError::new_err(e.to_string()),
        MoveError::Ambiguous(..) => AmbiguousMoveError::new_err(e.to_string()),
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add("FenError", m.py().get_type::<FenError>())?;
    m.add("InvalidMoveError", m.py().get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", m.py().get_type::<AmbiguousMoveError>())?;
    m.add("STARTING_FEN", crate::STARTPOS)?;
    Ok(())
}
