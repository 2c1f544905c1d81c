//! Zobrist keys, using the Polyglot random table so that a position's key is exactly its
//! Polyglot book key (<http://hgm.nubati.net/book_format.html>), the same number
//! `chess.polyglot.zobrist_hash` computes. The opening book and repetition detection use it.
//!
//! Layout of the 781 numbers: 64 * kind + 8 * rank + file for the piece-squares, where kind
//! runs black pawn 0, white pawn 1, black knight 2, ... white king 11; then 768..772 for the
//! castling rights (white short, white long, black short, black long), 772..780 for the
//! en-passant file, and 780 when White is to move.

use crate::chess::polyglot_random::POLYGLOT_RANDOM;
use crate::chess::types::*;

/// `PIECE_KEY[piece code][cell]`, zero for EMPTY and off-board cells, built at compile time.
pub(crate) const PIECE_KEY: [[u64; 120]; 16] = {
    let mut t = [[0u64; 120]; 16];
    let mut code = 0;
    while code < 16 {
        let kind = code & 7;
        if kind >= 1 && kind <= 6 {
            let white = code < 8;
            let poly_kind = 2 * (kind - 1) + if white { 1 } else { 0 };
            let mut rank = 0;
            while rank < 8 {
                let mut file = 0;
                while file < 8 {
                    t[code][sq120(file, rank)] = POLYGLOT_RANDOM[64 * poly_kind + 8 * rank + file];
                    file += 1;
                }
                rank += 1;
            }
        }
        code += 1;
    }
    t
};

/// `CASTLE_KEY[rights]`: the XOR of the Polyglot numbers of each right in the 4-bit set.
pub(crate) const CASTLE_KEY: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut r = 0;
    while r < 16 {
        let mut k = 0u64;
        let mut bit = 0;
        while bit < 4 {
            if r & (1 << bit) != 0 {
                k ^= POLYGLOT_RANDOM[768 + bit];
            }
            bit += 1;
        }
        t[r] = k;
        r += 1;
    }
    t
};

/// The en-passant key of each file.
pub(crate) const EP_KEY: [u64; 8] = {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        t[f] = POLYGLOT_RANDOM[772 + f];
        f += 1;
    }
    t
};

/// XORed in when White is to move.
pub(crate) const WHITE_TO_MOVE_KEY: u64 = POLYGLOT_RANDOM[780];
