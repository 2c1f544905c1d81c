//! The Python extension `kibitz._core`: the only module that uses PyO3. This file declares
//! the rooms of the bindings and registers what they define; errors become Python
//! exceptions in one place (`errors.rs`). Long calls (perft, divide, search) release the GIL.

mod bench;
mod board;
mod engine;
mod errors;
mod interrupt;
mod lock;
mod moves;
pub(crate) mod pgn;
mod pgn_scan;
mod search_result;
mod squareset;
mod syzygy;
mod tensor;
mod variant;
mod views;

use errors::{AmbiguousMoveError, FenError, IllegalMoveError, InvalidMoveError, InvalidPositionError, NetError};
use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_function(wrap_pyfunction!(board::movetext::read_plain_movetext, m)?)?;
    board::fast::install_fast_methods(m.py())?;
    m.add_class::<moves::PyMove>()?;
    m.add_class::<moves::PyPiece>()?;
    m.add_class::<views::PyLegalMoves>()?;
    m.add_class::<views::PyPseudoLegalMoves>()?;
    m.add_class::<views::PySquareSet>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<search_result::PySearchResult>()?;
    m.add("FenError", m.py().get_type::<FenError>())?;
    m.add("InvalidMoveError", m.py().get_type::<InvalidMoveError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("AmbiguousMoveError", m.py().get_type::<AmbiguousMoveError>())?;
    m.add("InvalidPositionError", m.py().get_type::<InvalidPositionError>())?;
    m.add("NetError", m.py().get_type::<NetError>())?;
    pgn::register(m)?;
    pgn_scan::register(m)?;
    m.add("STARTING_FEN", crate::STARTPOS)?;
    // The limits the front end's options and `go` parsing take from here, not copy.
    m.add("MAX_DEPTH", crate::MAX_DEPTH)?;
    m.add("MAX_THREADS", crate::MAX_THREADS)?;
    m.add("MAX_MULTIPV", engine::MAX_MULTIPV)?;
    m.add("MAX_HASH_MB", engine::MAX_HASH_MB)?;
    m.add("MAX_TIME_MS", engine::MAX_TIME_MS as u64)?;
    // Polyglot's 781 random numbers, for `kibitz.polyglot.POLYGLOT_RANDOM_ARRAY`.
    m.add("POLYGLOT_RANDOM_ARRAY", crate::POLYGLOT_RANDOM.to_vec())?;
    // The one version of kibitz (Cargo.toml's); `kibitz.__version__` re-exports it.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    bench::register(m)?;
    variant::register(m)?;
    syzygy::register(m)?;
    tensor::register(m)?;
    Ok(())
}
