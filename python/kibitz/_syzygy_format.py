"""The Syzygy table format, read in Python: table names and material keys, where a position
sits in a table, and the decompression of the value stored there.

kibitz probes through its Rust tables (``kibitz.syzygy``). This reader is the one behind
python-chess's lower-level names (``WdlTable``, ``DtzTable``, ``Tablebase.probe_wdl_table``,
``Tablebase.probe_dtz_table``), behind the few probes the Rust tables cannot make the way
python-chess makes them, and behind every probe of a variant's tables (Atomic, Suicide,
Giveaway, Antichess). It reads the format as its author's probing code (Ronald de Man's
``tbprobe``, also read by Stockfish and python-chess) does; every value it returns is checked
against python-chess's on random positions of every table (``tests/python/test_syzygy.py``,
and ``test_syzygy_variants.py`` for the variants' tables).

A table file holds, after a 4-byte magic and a flags byte (bit 0: both sides to move are
stored; bit 1: one stream for each file of the leading pawn), the order of the pieces for
each stored side, then for each stream the header of its compression, then the streams'
sparse indexes, block lengths and 64-byte aligned blocks of canonical Huffman codes, which
expand by recursive pairing into the stored values. A DTZ file stores one side to move and
adds maps from the stored values to distances.

A position's index in its stream: the squares are mirrored so that the leading piece (or
pawn) lands in a fixed part of the board, the leading group is placed (the two kings in 462
ways; three unique pieces in 31332; the leading pawns by file; in the variants whose kings
may touch, two unique pieces in 518, and in the losing variants like pieces), and each
further group of like pieces is counted as a combination of the squares left, in the order
the file gives.
"""

from __future__ import annotations

import math
import mmap
import os
import struct
import threading
from types import TracebackType
from typing import Any, Dict, List, Optional, Tuple, Type, Union

from kibitz._bitboards import scan_forward
from kibitz._constants import BLACK, WHITE
from kibitz._syzygy_names import (  # noqa: F401  (re-exported for kibitz.syzygy)
    TBPIECES,
    PCHR,
    TABLENAME_REGEX,
    normalize_tablename,
    is_tablename,
    dependencies,
    all_dependencies,
    tablenames,
    calc_key,
    recalc_key,
    dtz_before_zeroing,
)

__all__ = [
    "DIAG",
    "FILE_TO_FILE",
    "FLAP",
    "INVFLAP",
    "INVTRIANGLE",
    "KK_IDX",
    "LOWER",
    "MFACTOR",
    "MTWIST",
    "MULTIDX",
    "PAWNIDX",
    "PA_FLAGS",
    "PCHR",
    "PFACTOR",
    "PP_IDX",
    "PTWIST",
    "TABLENAME_REGEX",
    "TBPIECES",
    "TRIANGLE",
    "UINT16",
    "UINT32",
    "UINT32_BE",
    "UINT64_BE",
    "WDL_TO_DTZ",
    "WDL_TO_MAP",
    "DtzTable",
    "PairsData",
    "PawnFileData",
    "PawnFileDataDtz",
    "Table",
    "WdlTable",
    "all_dependencies",
    "binom",
    "calc_key",
    "dependencies",
    "dtz_before_zeroing",
    "flipdiag",
    "is_tablename",
    "normalize_tablename",
    "offdiag",
    "recalc_key",
    "subfactor",
    "tablenames",
    "test45",
]

UINT64_BE = struct.Struct(">Q")
UINT32 = struct.Struct("<I")
UINT32_BE = struct.Struct(">I")
UINT16 = struct.Struct("<H")


# WDL and DTZ file magics (the first four bytes) of standard chess; a variant's board class
# names its own (``tbw_magic``, ``tbz_magic``, and for tables without pawns the
# ``pawnless_`` ones).
_WDL_MAGIC = b"\x71\xe8\x23\x5d"
_DTZ_MAGIC = b"\xd7\x66\x0c\xa5"
# A file is a whole number of 64-byte blocks plus its 16-byte tail.
_FILE_ALIGNMENT, _FILE_TAIL = 64, 16
# The leading group's placements: two kings (not adjacent, one in the triangle a1-d1-d4,
# the other below the diagonal when the first is on it) in 462 ways; three unique pieces
# in 31332 (6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + 4 * 7 * 6). Variants whose kings may
# stand side by side (atomic, the losing variants) place two unique pieces in 518 ways
# (6 * 63 + 4 * 28 + 4 * 7), and the losing variants' tables without two unique pieces
# lead with two like pieces (278 ways, ``PP_IDX``) or more (``MFACTOR``).
_KK_PLACEMENTS = 462
_UNIQUE3_PLACEMENTS = 31332
_TWO_UNIQUE_PLACEMENTS = 518
_LIKE2_PLACEMENTS = 278
_MASK64 = (1 << 64) - 1


def _file(square: int) -> int:
    return square & 7


def _rank(square: int) -> int:
    return square >> 3


def offdiag(square: int) -> int:
    """How far a square lies above the a1-h8 diagonal (negative below it)."""
    return _rank(square) - _file(square)


def flipdiag(square: int) -> int:
    """The square mirrored in the a1-h8 diagonal."""
    return ((square >> 3) | (square << 3)) & 63


def test45(sq: int) -> bool:
    """Whether the square is one of a5, a6, a7, b5, b6, c5 (the squares the encoding of two
    like leading pieces swaps away); python-chess's parameter name."""
    return sq in (32, 40, 48, 33, 41, 34)


# The triangle a1-d1-d4 that the leading piece of a pawnless table is mirrored into: its
# six squares off the diagonal (b1 c1 d1 c2 d2 d3), then its four on it (a1 b2 c3 d4).
INVTRIANGLE = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27]


def _into_triangle(square: int) -> int:
    file, rank = _file(square), _rank(square)
    file, rank = min(file, 7 - file), min(rank, 7 - rank)
    if rank > file:
        file, rank = rank, file
    return rank * 8 + file


TRIANGLE = [INVTRIANGLE.index(_into_triangle(s)) for s in range(64)]

# The 28 squares below the a1-h8 diagonal, numbered rank by rank; a square above it takes
# the number of its mirror image, a square on it 28 + its rank.
_BELOW_DIAGONAL = [s for s in range(64) if offdiag(s) < 0]
LOWER = [
    28 + _rank(s) if offdiag(s) == 0 else _BELOW_DIAGONAL.index(s if offdiag(s) < 0 else flipdiag(s)) for s in range(64)
]
# Squares on the a1-h8 diagonal by rank (0-7), on the a8-h1 diagonal 8 + rank, others 0.
DIAG = [_rank(s) if offdiag(s) == 0 else 8 + _rank(s) if _file(s) + _rank(s) == 7 else 0 for s in range(64)]

FILE_TO_FILE = [min(f, 7 - f) for f in range(8)]


def _pawn_square(square: int) -> bool:
    return 1 <= _rank(square) <= 6


# A pawn's square in the 24 of files a-d, ranks 2-7 (files e-h mirrored): 6 to a file.
FLAP = [6 * FILE_TO_FILE[_file(s)] + _rank(s) - 1 if _pawn_square(s) else 0 for s in range(64)]
INVFLAP = [8 * (i % 6 + 1) + i // 6 for i in range(24)]
# The order in which further pawns of the leading colour are counted: from the centre
# files outwards, the seventh rank first, files e-h one below their mirror on a-d.
PTWIST = [
    47 - 12 * FILE_TO_FILE[_file(s)] - 2 * (_rank(s) - 1) - (_file(s) >= 4) if _pawn_square(s) else 0 for s in range(64)
]
# The order of like leading pieces in the tables of the losing variants (several kings, or
# none): the further pieces of a leading group of three or more are counted in this order.
MTWIST = [
    *(15, 63, 55, 47, 40, 48, 56, 12),
    *(62, 11, 39, 31, 24, 32, 8, 57),
    *(54, 38, 7, 23, 16, 4, 33, 49),
    *(46, 30, 22, 3, 0, 17, 25, 41),
    *(45, 29, 21, 2, 1, 18, 26, 42),
    *(53, 37, 6, 20, 19, 5, 34, 50),
    *(61, 10, 36, 28, 27, 35, 9, 58),
    *(14, 60, 52, 44, 43, 51, 59, 13),
]


def _king_pairs() -> List[List[int]]:
    """The index of two kings, the first on the triangle square numbered t: pairs with
    neither king on the diagonal first, pairs with both on it last; -1 where impossible."""
    table = [[-1] * 64 for _ in range(10)]
    code = 0
    both_on_diagonal = []
    for t, first in enumerate(INVTRIANGLE):
        for second in range(64):
            if abs(_file(first) - _file(second)) <= 1 and abs(_rank(first) - _rank(second)) <= 1:
                continue  # the same square or touching kings
            if offdiag(first) == 0 and offdiag(second) > 0:
                continue  # the first on the diagonal: the second is mirrored below it
            if offdiag(first) == 0 and offdiag(second) == 0:
                both_on_diagonal.append((t, second))
                continue
            table[t][second] = code
            code += 1
    for t, second in both_on_diagonal:
        table[t][second] = code
        code += 1
    return table


def _like_pairs() -> List[List[int]]:
    """The index of two like leading pieces (giveaway tables), the first on triangle square
    t and not further into the triangle than the second; -1 where impossible."""
    table = [[-1] * 64 for _ in range(10)]
    code = 0
    for t, first in enumerate(INVTRIANGLE):
        later = []
        for second in range(64):
            if second == first or TRIANGLE[second] < t or (TRIANGLE[second] == t and test45(second)):
                continue
            if offdiag(first) == 0:
                if offdiag(second) > 0:
                    continue
                if offdiag(second) < 0:
                    later.append(second)
                    continue
            table[t][second] = code
            code += 1
        for second in later:
            table[t][second] = code
            code += 1
    return table


KK_IDX = _king_pairs()
PP_IDX = _like_pairs()


def binom(x: int, y: int) -> int:
    """x choose y; 0 when either is negative or y exceeds x."""
    return math.comb(x, y) if x >= 0 and y >= 0 else 0


def subfactor(k: int, n: int) -> int:
    """The ways to place k like pieces on n squares (n when k is 0, as the format counts)."""
    if k < 1:
        return n
    return math.prod(range(n - k + 1, n + 1)) // math.factorial(k)


# PAWNIDX[k][j]: the index offset of a leading pawn on FLAP square j with k further leading
# pawns; PFACTOR[k][file]: the number of placements of k + 1 leading pawns on that file.
PAWNIDX = [[0] * 24 for _ in range(5)]
PFACTOR = [[0] * 4 for _ in range(5)]
for _k in range(5):
    for _f in range(4):
        _total = 0
        for _j in range(6 * _f, 6 * _f + 6):
            PAWNIDX[_k][_j] = _total
            _total += 1 if _k == 0 else binom(PTWIST[INVFLAP[_j]], _k)
        PFACTOR[_k][_f] = _total
# The same for like leading pieces on the triangle (giveaway tables).
MULTIDX = [[0] * 10 for _ in range(5)]
MFACTOR = [0] * 5
for _k in range(5):
    _total = 0
    for _j in range(10):
        MULTIDX[_k][_j] = _total
        _total += 1 if _k == 0 else binom(MTWIST[INVTRIANGLE[_j]], _k)
    MFACTOR[_k] = _total

# A DTZ file stores up to four maps of its values, for a win, a loss, a cursed win and a
# blessed loss; WDL_TO_MAP[wdl + 2] picks the map. PA_FLAGS[wdl + 2] is the flag saying the
# values of a win (4) or a loss (8) are stored in plies; others are in moves.
WDL_TO_MAP = [1, 3, 0, 2, 0]
PA_FLAGS = [8, 0, 0, 0, 4]
# The DTZ a WDL value stands for when a zeroing move comes at once.
WDL_TO_DTZ = [-1, -101, 0, 101, 1]

# Table names and material keys: kibitz/_syzygy_names.py.


# The tables ---------------------------------------------------------------------------


class PairsData:
    """One compressed stream of a table (one side to move; with pawns, one file of the
    leading pawn): where its parts start in the file and its canonical Huffman code."""

    flags: int
    indextable: int  # the sparse index, 6 bytes an entry
    sizetable: int  # the length of each block, 2 bytes a block
    data: int  # the first block
    offset: int  # offset + 2 * length: the lowest symbol of codes of that length
    symlen: List[int]  # how many values each symbol stands for, less one
    sympat: int  # the symbols' pairs, 3 bytes a symbol
    blocksize: int  # log2 of a block's bytes
    idxbits: int  # log2 of the values between sparse index entries; 0: one value throughout
    min_len: int  # the shortest code; the value itself for a stream of one value
    base: List[int]  # the lowest code of each length, left-aligned in 64 bits
    index_size: int
    block_lengths_size: int
    data_size: int


class PawnFileData:
    """The streams of a WDL table with pawns for one file of the leading pawn, by side to
    move: their piece order, group lengths (``norm``), group multipliers (``factor``)."""

    def __init__(self) -> None:
        self.precomp: Dict[int, PairsData] = {}
        self.factor: Dict[int, List[int]] = {}
        self.pieces: Dict[int, List[int]] = {}
        self.norm: Dict[int, List[int]] = {}


class PawnFileDataDtz:
    """The stream of a DTZ table with pawns for one file of the leading pawn."""

    precomp: PairsData
    factor: List[int]
    pieces: List[int]
    norm: List[int]


class Table:
    """One table file, memory-mapped on first use. ``key`` and ``mirrored_key`` are the
    material it holds, seen from either side; ``close()`` unmaps it (a later probe maps it
    again). Probes of one table take turns (a lock); different tables probe in parallel."""

    def __init__(self, path: Union[str, "os.PathLike[str]"], *, variant: Any = None) -> None:
        self.path = os.fspath(path)
        self.variant = variant
        # Kings that may touch (atomic, the losing variants) change the leading placements;
        # compulsory captures change what a DTZ stream of one value holds.
        self.connected_kings = bool(getattr(variant, "connected_kings", False))
        self.captures_compulsory = bool(getattr(variant, "captures_compulsory", False))
        self.write_lock = threading.RLock()
        self.initialized = False
        self.data: Optional[mmap.mmap] = None

        name = os.path.splitext(os.path.basename(self.path))[0]
        self.key = normalize_tablename(name)
        self.mirrored_key = normalize_tablename(name, mirror=True)
        self.symmetric = self.key == self.mirrored_key
        self.num = len(name) - 1  # the pieces: the name less its "v"
        self.has_pawns = "P" in name
        left, right = name.split("v")
        if self.has_pawns:
            # The leading pawns are those of the side with fewer (but some) pawns.
            lead, other = right.count("P"), left.count("P")
            if other and (not lead or other < lead):
                lead, other = other, lead
            self.pawns = [lead, other]
        else:
            unique = sum(side.count(piece) == 1 for side in (left, right) for piece in PCHR)
            if unique >= 3:
                self.enc_type = 0
            elif unique == 2:
                self.enc_type = 2
            else:  # the losing variants' tables without two unique pieces: like pieces lead
                self.enc_type = 1 + min(
                    (n for side in (left, right) for p in PCHR if (n := side.count(p)) > 1), default=16
                )

    def init_mmap(self) -> None:
        """Maps the file into memory; ``OSError`` when it is not a table by its size."""
        with self.write_lock:
            if self.data is not None:
                return
            with open(self.path, "rb") as f:
                data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            if data.size() % _FILE_ALIGNMENT != _FILE_TAIL:
                data.close()
                raise OSError(f"invalid file size: ensure {self.path!r} is a valid syzygy tablebase file")
            if hasattr(mmap, "MADV_RANDOM"):
                data.madvise(mmap.MADV_RANDOM)
            self.data = data

    def check_magic(self, magic: Optional[bytes], pawnless_magic: Optional[bytes]) -> None:
        """``OSError`` unless the file starts with one of the magics. As python-chess's, the
        second one counts only for a table with pawns."""
        assert self.data is not None
        valid = [magic, self.has_pawns and pawnless_magic]
        if self.data[: min(4, len(self.data))] not in valid:
            raise OSError(f"invalid magic header: ensure {self.path!r} is a valid syzygy tablebase file")

    def read_uint64_be(self, data_ptr: int) -> int:
        return int(UINT64_BE.unpack_from(self._bytes(), data_ptr)[0])

    def read_uint32(self, data_ptr: int) -> int:
        return int(UINT32.unpack_from(self._bytes(), data_ptr)[0])

    def read_uint32_be(self, data_ptr: int) -> int:
        return int(UINT32_BE.unpack_from(self._bytes(), data_ptr)[0])

    def read_uint16(self, data_ptr: int) -> int:
        return int(UINT16.unpack_from(self._bytes(), data_ptr)[0])

    def _bytes(self) -> mmap.mmap:
        assert self.data is not None, "the table is not mapped"
        return self.data

    def close(self) -> None:
        """Unmaps the file (after any probe under way)."""
        with self.write_lock:
            if self.data is not None:
                self.data.close()
                self.data = None

    def __enter__(self) -> "Table":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc_value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.close()

    # Reading the header ---------------------------------------------------------------

    def _groups(self, pieces: List[int], lead: int, second: int = 0) -> List[int]:
        """The group lengths ("norm"): at the index where each group of the piece order
        starts, its length, 0 elsewhere. The leading group is `lead` long; with pawns on both
        sides, the other side's pawns (`second`) come next; then each run of like pieces."""
        norm = [0] * self.num
        norm[0] = lead
        i = lead
        if second:
            norm[i] = second
            i += second
        while i < self.num:
            j = i
            while j < self.num and pieces[j] == pieces[i]:
                j += 1
            norm[i] = j - i
            i = j
        return norm

    def _factors(self, norm: List[int], order: int, order2: int, lead_size: int) -> Tuple[List[int], int]:
        """The multiplier of each group's index and the stream's size. The groups are
        combined in the order the file gives: the leading group at step `order`, the other
        side's pawns (with pawns on both sides) at step `order2` (15: none), the rest in turn."""
        factor = [0] * TBPIECES
        i = norm[0]
        if order2 < 0x0F:
            i += norm[i]
        free = 64 - i
        size = 1
        step = 0
        while i < self.num or step in (order, order2):
            if step == order:
                factor[0] = size
                size *= lead_size
            elif step == order2:
                factor[norm[0]] = size
                size *= subfactor(norm[norm[0]], 48 - norm[0])
            else:
                factor[i] = size
                size *= subfactor(norm[i], free)
                free -= norm[i]
                i += norm[i]
            step += 1
        return factor, size

    def _lead_size(self) -> int:
        """The placements of the leading group of a table without pawns."""
        if self.enc_type == 0:
            return _UNIQUE3_PLACEMENTS
        if self.enc_type == 2:
            return _TWO_UNIQUE_PLACEMENTS if self.connected_kings else _KK_PLACEMENTS
        if self.enc_type == 3:
            return _LIKE2_PLACEMENTS
        return MFACTOR[self.enc_type - 2]

    def _lead_length(self) -> int:
        """How many pieces lead a table without pawns: three unique, two unique, or the
        like pieces of the losing variants' tables (``enc_type`` less one)."""
        return {0: 3, 2: 2}.get(self.enc_type, self.enc_type - 1)

    def _magics(self, wdl: bool) -> Tuple[Optional[bytes], Optional[bytes]]:
        """The magic of the variant's tables of this kind, and of its tables without pawns."""
        if self.variant is None:
            return (_WDL_MAGIC if wdl else _DTZ_MAGIC), None
        kind = "tbw" if wdl else "tbz"
        return getattr(self.variant, f"{kind}_magic", None), getattr(self.variant, f"pawnless_{kind}_magic", None)

    def _pieceless_layout(self, ptr: int, shift: int) -> Tuple[List[int], List[int], List[int], int]:
        """(pieces, norm, factor, size) of one side of a pawnless table whose order byte is
        at `ptr` (the side's nibble at `shift`)."""
        data = self._bytes()
        pieces = [(data[ptr + 1 + i] >> shift) & 0x0F for i in range(self.num)]
        norm = self._groups(pieces, self._lead_length())
        factor, size = self._factors(norm, (data[ptr] >> shift) & 0x0F, 0x0F, self._lead_size())
        return pieces, norm, factor, size

    def _pawn_layout(self, ptr: int, shift: int, file: int) -> Tuple[List[int], List[int], List[int], int]:
        """(pieces, norm, factor, size) of one side and file of a table with pawns."""
        data = self._bytes()
        order_bytes = 1 + (self.pawns[1] > 0)
        pieces = [(data[ptr + order_bytes + i] >> shift) & 0x0F for i in range(self.num)]
        norm = self._groups(pieces, self.pawns[0], self.pawns[1])
        order = (data[ptr] >> shift) & 0x0F
        order2 = (data[ptr + 1] >> shift) & 0x0F if self.pawns[1] else 0x0F
        factor, size = self._factors(norm, order, order2, PFACTOR[norm[0] - 1][file])
        return pieces, norm, factor, size

    def _read_pairs(self, data_ptr: int, tb_size: int, wdl: bool) -> Tuple[PairsData, int]:
        """Reads the header of a stream of `tb_size` values at `data_ptr`; returns it and
        where the next header starts."""
        data = self._bytes()
        d = PairsData()
        d.flags = data[data_ptr]
        if d.flags & 0x80:  # every position of the stream holds the same value
            d.idxbits = 0
            # A DTZ stream of one value stores 0, or 1 in the variants where captures are
            # compulsory (python-chess reads it so, as its author's code does).
            d.min_len = data[data_ptr + 1] if wdl else int(self.captures_compulsory)
            d.index_size = d.block_lengths_size = d.data_size = 0
            return d, data_ptr + 2
        d.blocksize = data[data_ptr + 1]
        d.idxbits = data[data_ptr + 2]
        real_blocks = self.read_uint32(data_ptr + 4)
        blocks = real_blocks + data[data_ptr + 3]  # padded, so the sparse index stays in range
        max_len, min_len = data[data_ptr + 8], data[data_ptr + 9]
        lengths = max_len - min_len + 1
        num_syms = self.read_uint16(data_ptr + 10 + 2 * lengths)
        d.min_len = min_len
        d.offset = data_ptr + 10 - 2 * min_len
        d.sympat = data_ptr + 12 + 2 * lengths
        d.index_size = 6 * ((tb_size + (1 << d.idxbits) - 1) >> d.idxbits)
        d.block_lengths_size = 2 * blocks
        d.data_size = real_blocks << d.blocksize
        d.symlen = self._symbol_lengths(d.sympat, num_syms)
        # Canonical Huffman: longer codes have lower values; base[i] is the lowest code of
        # length min_len + i, found from the lowest symbol of each length.
        lowest = [self.read_uint16(data_ptr + 10 + 2 * i) for i in range(lengths)]
        base = [0] * lengths
        for i in range(lengths - 2, -1, -1):
            base[i] = (base[i + 1] + lowest[i] - lowest[i + 1]) // 2
        d.base = [b << (64 - (min_len + i)) for i, b in enumerate(base)]
        return d, data_ptr + 12 + 2 * lengths + 3 * num_syms + (num_syms & 1)

    def _symbol_lengths(self, sympat: int, num_syms: int) -> List[int]:
        """How many values each symbol expands to, less one: a symbol is a value (its right
        half 0xfff) or a pair of earlier symbols."""
        data = self._bytes()
        symlen = [-1] * num_syms
        for start in range(num_syms):
            stack = [start]
            while stack:
                sym = stack[-1]
                if symlen[sym] >= 0:
                    stack.pop()
                    continue
                w = sympat + 3 * sym
                right = (data[w + 2] << 4) | (data[w + 1] >> 4)
                if right == 0x0FFF:
                    symlen[sym] = 0
                    stack.pop()
                    continue
                left = ((data[w + 1] & 0x0F) << 8) | data[w]
                pending = [s for s in (left, right) if symlen[s] < 0]
                if pending:
                    stack.extend(pending)
                    continue
                symlen[sym] = symlen[left] + symlen[right] + 1
                stack.pop()
        return symlen

    @staticmethod
    def _place_streams(streams: List[PairsData], ptr: int) -> int:
        """Sets where each stream's sparse index, block lengths and blocks start: first all
        indexes, then all block lengths, then the blocks, each stream's 64-byte aligned."""
        for d in streams:
            d.indextable = ptr
            ptr += d.index_size
        for d in streams:
            d.sizetable = ptr
            ptr += d.block_lengths_size
        for d in streams:
            ptr = (ptr + 0x3F) & ~0x3F
            d.data = ptr
            ptr += d.data_size
        return ptr

    # Probing --------------------------------------------------------------------------

    def _orientation(self, board: Any) -> Tuple[int, int, int]:
        """(colour flip of the piece codes, square flip, stored side) for a board: the
        file stores its material from one side, so a board with the colours the other way
        round is read flipped, as is a symmetric table's position with black to move."""
        if self.symmetric:
            return (0, 0, 0) if board.turn == WHITE else (8, 0x38, 0)
        if calc_key(board) != self.key:
            return 8, 0x38, int(board.turn == WHITE)
        return 0, 0, int(board.turn != WHITE)

    def _check_material(self, board: Any) -> None:
        key = calc_key(board)
        if key not in (self.key, self.mirrored_key):
            raise ValueError(f"the table {self.key} holds no position of the material {key}")

    def _fill(self, board: Any, pieces: List[int], flip: int, mirror: int, squares: List[int], start: int) -> None:
        """Writes the board's squares of each piece of `pieces` from `start` on, in order."""
        i = start
        while i < self.num:
            code = pieces[i] ^ flip
            found = False
            for square in scan_forward(board.pieces_mask(code & 7, WHITE if code < 8 else BLACK)):
                squares[i] = square ^ mirror
                i += 1
                found = True
            if not found:
                raise ValueError(f"the position does not have the pieces of the table {self.key}")

    def pawn_file(self, pos: List[int]) -> int:
        """Moves the leading pawn nearest the edge and the first rank (lowest ``FLAP``) to
        the front; returns its file, mirrored into a-d."""
        for i in range(1, self.pawns[0]):
            if FLAP[pos[0]] > FLAP[pos[i]]:
                pos[0], pos[i] = pos[i], pos[0]
        return FILE_TO_FILE[pos[0] & 7]

    def _lead_pawns(self, board: Any, code: int, mirror: int) -> Tuple[List[int], int]:
        squares = [0] * TBPIECES
        count = 0
        for square in scan_forward(board.pieces_mask(code & 7, WHITE if code < 8 else BLACK)):
            squares[count] = square ^ mirror
            count += 1
        if count != self.pawns[0]:
            raise ValueError(f"the position does not have the pawns of the table {self.key}")
        return squares, self.pawn_file(squares)

    def encode_piece(self, norm: List[int], pos: List[int], factor: List[int]) -> int:
        """The index of a pawnless position, its squares in the table's piece order."""
        n = self.num
        if self.enc_type >= 3:
            idx, lead = self._encode_like_lead(norm, pos), norm[0]
            return idx * factor[0] + self._encode_groups(norm, pos, factor, lead, 0)
        lead = 3 if self.enc_type == 0 else 2
        self._to_lower_left(pos)
        for s in pos[:lead]:  # the first leading piece off the diagonal goes below it
            if offdiag(s):
                if offdiag(s) > 0:
                    pos[:n] = [flipdiag(t) for t in pos[:n]]
                break
        if self.enc_type == 2 and self.connected_kings:
            # Two unique pieces that may touch: the first in the triangle, the second on
            # any other square (below the diagonal when the first is on it).
            a, b = pos[0], pos[1]
            b_adj = int(b > a)
            if offdiag(a):
                idx = TRIANGLE[a] * 63 + b - b_adj
            elif offdiag(b):
                idx = 6 * 63 + DIAG[a] * 28 + LOWER[b]
            else:
                idx = 6 * 63 + 4 * 28 + DIAG[a] * 7 + DIAG[b] - b_adj
        elif self.enc_type == 0:
            a, b, c = pos[0], pos[1], pos[2]
            b_adj = int(b > a)
            c_adj = int(c > a) + int(c > b)
            if offdiag(a):
                idx = TRIANGLE[a] * 63 * 62 + (b - b_adj) * 62 + (c - c_adj)
            elif offdiag(b):
                idx = 6 * 63 * 62 + DIAG[a] * 28 * 62 + LOWER[b] * 62 + c - c_adj
            elif offdiag(c):
                idx = 6 * 63 * 62 + 4 * 28 * 62 + DIAG[a] * 7 * 28 + (DIAG[b] - b_adj) * 28 + LOWER[c]
            else:
                idx = 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + DIAG[a] * 7 * 6 + (DIAG[b] - b_adj) * 6 + DIAG[c] - c_adj
        else:
            idx = KK_IDX[TRIANGLE[pos[0]]][pos[1]]
        return idx * factor[0] + self._encode_groups(norm, pos, factor, lead, 0)

    def _to_lower_left(self, pos: List[int]) -> None:
        """Mirrors the squares so that the leading piece lands on files a-d, ranks 1-4."""
        n = self.num
        if pos[0] & 0x04:
            pos[:n] = [s ^ 0x07 for s in pos[:n]]
        if pos[0] & 0x20:
            pos[:n] = [s ^ 0x38 for s in pos[:n]]

    def _encode_like_lead(self, norm: List[int], pos: List[int]) -> int:
        """The placement index of a leading group of like pieces (the losing variants'
        tables): the piece nearest the triangle's start leads and is brought into it."""
        n, lead = self.num, norm[0]
        first = min(range(lead), key=lambda i: TRIANGLE[pos[i]])
        pos[0], pos[first] = pos[first], pos[0]
        self._to_lower_left(pos)
        if lead == 2:
            a, b = pos[0], pos[1]
            if offdiag(a) > 0 or (offdiag(a) == 0 and offdiag(b) > 0):
                pos[:n] = [flipdiag(s) for s in pos[:n]]
            if test45(pos[1]) and TRIANGLE[pos[0]] == TRIANGLE[pos[1]]:
                # Both in the same triangle square's orbit: the other one leads, seen
                # from the flipped board.
                pos[0], pos[1] = pos[1], pos[0]
                pos[:n] = [flipdiag(s ^ 0x38) for s in pos[:n]]
            return PP_IDX[TRIANGLE[pos[0]]][pos[1]]
        if offdiag(pos[0]) > 0:
            pos[:n] = [flipdiag(s) for s in pos[:n]]
        pos[1:lead] = sorted(pos[1:lead], key=lambda s: MTWIST[s])
        return MULTIDX[lead - 1][TRIANGLE[pos[0]]] + sum(binom(MTWIST[s], k) for k, s in enumerate(pos[1:lead], 1))

    def encode_pawn(self, norm: List[int], pos: List[int], factor: List[int]) -> int:
        """The index of a position with pawns, its squares in the table's piece order, the
        leading pawn first (``pawn_file``)."""
        n = self.num
        lead = self.pawns[0]
        if pos[0] & 0x04:
            pos[:n] = [s ^ 0x07 for s in pos[:n]]
        others = sorted(pos[1:lead], key=lambda s: PTWIST[s], reverse=True)
        pos[1:lead] = others
        idx = PAWNIDX[lead - 1][FLAP[pos[0]]]
        for k, square in enumerate(reversed(others)):
            idx += binom(PTWIST[square], k + 1)
        return idx * factor[0] + self._encode_groups(norm, pos, factor, lead, self.pawns[1])

    def _encode_groups(self, norm: List[int], pos: List[int], factor: List[int], i: int, pawn_group: int) -> int:
        """The index of the groups after the leading one: each a combination of the squares
        the earlier pieces leave (the other side's pawns, first when `pawn_group`, among the
        48 squares of ranks 2-7)."""
        idx = 0
        while i < self.num:
            length = norm[i]
            group = sorted(pos[i : i + length])
            pos[i : i + length] = group
            below = 8 if pawn_group and i == self.pawns[0] else 0
            combination = 0
            for k, square in enumerate(group):
                skipped = sum(1 for earlier in pos[:i] if square > earlier)
                combination += binom(square - skipped - below, k + 1)
            idx += combination * factor[i]
            i += length
        return idx

    def decompress_pairs(self, d: PairsData, idx: int) -> int:
        """The value at index `idx` of a stream."""
        if not d.idxbits:
            return d.min_len
        data = self._bytes()
        u16 = UINT16.unpack_from  # locals: this is the reader's inner loop
        # The sparse index gives a block and an offset for every 2^idxbits values, counted
        # from the middle of the span; walk the block lengths from there to idx's block.
        entry = d.indextable + 6 * (idx >> d.idxbits)
        block = UINT32.unpack_from(data, entry)[0]
        offset = (idx & ((1 << d.idxbits) - 1)) - (1 << (d.idxbits - 1)) + u16(data, entry + 4)[0]
        sizetable = d.sizetable
        while offset < 0:
            block -= 1
            offset += u16(data, sizetable + 2 * block)[0] + 1
        while offset > (size := u16(data, sizetable + 2 * block)[0]):
            offset -= size + 1
            block += 1
        # Read the block's codes until the symbol that holds the value.
        ptr = d.data + (block << d.blocksize)
        code = UINT64_BE.unpack_from(data, ptr)[0]
        ptr += 8
        used = 0
        min_len, base, symlen, sym_offset = d.min_len, d.base, d.symlen, d.offset
        while True:
            length = min_len
            while code < base[length - min_len]:
                length += 1
            sym = u16(data, sym_offset + 2 * length)[0] + ((code - base[length - min_len]) >> (64 - length))
            if offset <= symlen[sym]:
                break
            offset -= symlen[sym] + 1
            code = (code << length) & _MASK64
            used += length
            if used >= 32:
                used -= 32
                code |= UINT32_BE.unpack_from(data, ptr)[0] << used
                ptr += 4
        # Expand the pairs down to the value.
        sympat = d.sympat
        while symlen[sym]:
            w = sympat + 3 * sym
            left = ((data[w + 1] & 0x0F) << 8) | data[w]
            if offset <= symlen[left]:
                sym = left
            else:
                offset -= symlen[left] + 1
                sym = (data[w + 2] << 4) | (data[w + 1] >> 4)
        w = d.sympat + 3 * sym
        return self._leaf(data, w)

    def _leaf(self, data: mmap.mmap, w: int) -> int:
        return ((data[w + 1] & 0x0F) << 8) | data[w]


class WdlTable(Table):
    """A win/draw/loss table (``.rtbw``); ``probe_wdl_table(board)`` reads the stored value
    (-2 to 2) without looking at captures."""

    def init_table_wdl(self) -> None:
        """Maps the file and reads its header (once); ``OSError`` for a file that is not
        a WDL table."""
        with self.write_lock:
            self.init_mmap()
            if self.initialized:
                return
            self.check_magic(*self._magics(True))
            data = self._bytes()
            split = data[4] & 0x01
            files = 4 if data[4] & 0x02 else 1
            ptr = 5
            sides = (0, 1) if split else (0,)
            streams: List[PairsData] = []
            if not self.has_pawns:
                self.pieces: Dict[int, List[int]] = {}
                self.norm: List[List[int]] = [[0] * self.num, [0] * self.num]
                self.factor: List[List[int]] = [[0] * TBPIECES, [0] * TBPIECES]
                self.tb_size = [0, 0]
                for side in (0, 1):
                    layout = self._pieceless_layout(ptr, 4 * side)
                    self.pieces[side], self.norm[side], self.factor[side], self.tb_size[side] = layout
                ptr += self.num + 1
                ptr += ptr & 1
                self.precomp: Dict[int, PairsData] = {}
                for side in sides:
                    self.precomp[side], ptr = self._read_pairs(ptr, self.tb_size[side], True)
                    streams.append(self.precomp[side])
                self._place_streams(streams, ptr)
                # The file's piece order tells which colour it stores first (for some
                # tables not the one the name puts first).
                self.key = recalc_key(self.pieces[0])
                self.mirrored_key = recalc_key(self.pieces[0], mirror=True)
            else:
                self.files = [PawnFileData() for _ in range(4)]
                sizes: Dict[Tuple[int, int], int] = {}
                for f in range(4):
                    for side in (0, 1):
                        pieces, norm, factor, size = self._pawn_layout(ptr, 4 * side, f)
                        fd = self.files[f]
                        fd.pieces[side], fd.norm[side], fd.factor[side] = pieces, norm, factor
                        sizes[f, side] = size
                    ptr += self.num + 1 + (self.pawns[1] > 0)
                ptr += ptr & 1
                for f in range(files):
                    for side in sides:
                        self.files[f].precomp[side], ptr = self._read_pairs(ptr, sizes[f, side], True)
                        streams.append(self.files[f].precomp[side])
                self._place_streams(streams, ptr)
            self.initialized = True

    def probe_wdl_table(self, board: Any) -> int:
        """The stored WDL (-2 to 2) of the board's position for the side to move."""
        with self.write_lock:
            self.init_table_wdl()
            self._check_material(board)
            flip, mirror, side = self._orientation(board)
            if not self.has_pawns:
                pos = [0] * TBPIECES
                self._fill(board, self.pieces[side], flip, 0, pos, 0)
                idx = self.encode_piece(self.norm[side], pos, self.factor[side])
                return self.decompress_pairs(self.precomp[side], idx) - 2
            pos, f = self._lead_pawns(board, self.files[0].pieces[0][0] ^ flip, mirror)
            fd = self.files[f]
            self._fill(board, fd.pieces[side], flip, mirror, pos, self.pawns[0])
            idx = self.encode_pawn(fd.norm[side], pos, fd.factor[side])
            return self.decompress_pairs(fd.precomp[side], idx) - 2

    def _leaf(self, data: mmap.mmap, w: int) -> int:
        return data[w]


class DtzTable(Table):
    """A distance-to-zeroing table (``.rtbz``), which stores one side to move;
    ``probe_dtz_table(board, wdl)`` reads the stored distance: ``(dtz, 1)``, or ``(0, -1)``
    when the file stores the other side to move."""

    def init_table_dtz(self) -> None:
        """Maps the file and reads its header (once); ``OSError`` for a file that is not
        a DTZ table."""
        with self.write_lock:
            self.init_mmap()
            if self.initialized:
                return
            self.check_magic(*self._magics(False))
            data = self._bytes()
            files = 4 if data[4] & 0x02 else 1
            ptr = 5
            streams: List[PairsData] = []
            if not self.has_pawns:
                self.pieces, self.norm, self.factor, size = self._pieceless_layout(ptr, 0)
                ptr += self.num + 1
                ptr += ptr & 1
                self.precomp, ptr = self._read_pairs(ptr, size, False)
                streams.append(self.precomp)
                flags = [self.precomp.flags]
                self.flags: Union[int, List[int]] = flags[0]
            else:
                self.files = [PawnFileDataDtz() for _ in range(4)]
                sizes = []
                for f in range(4):
                    fd = self.files[f]
                    fd.pieces, fd.norm, fd.factor, size = self._pawn_layout(ptr, 0, f)
                    sizes.append(size)
                    ptr += self.num + 1 + (self.pawns[1] > 0)
                ptr += ptr & 1
                for f in range(files):
                    fd = self.files[f]
                    fd.precomp, ptr = self._read_pairs(ptr, sizes[f], False)
                    streams.append(fd.precomp)
                flags = [d.flags for d in streams]
                self.flags = flags
            # The value maps: four per mapped stream (win, loss, cursed win, blessed loss),
            # of bytes, or of 16-bit words (flag 16, word-aligned).
            self.p_map = ptr
            self.map_idx: List[List[int]] = []
            for stream_flags in flags:
                indexes = []
                if stream_flags & 2:
                    if not stream_flags & 16:
                        for _ in range(4):
                            indexes.append(ptr + 1 - self.p_map)
                            ptr += 1 + data[ptr]
                    else:
                        ptr += ptr & 1
                        for _ in range(4):
                            indexes.append((ptr + 2 - self.p_map) // 2)
                            ptr += 2 + 2 * self.read_uint16(ptr)
                self.map_idx.append(indexes)
            ptr += ptr & 1
            self._place_streams(streams, ptr)
            if not self.has_pawns:
                self.key = recalc_key(self.pieces)
                self.mirrored_key = recalc_key(self.pieces, mirror=True)
            self.initialized = True

    def probe_dtz_table(self, board: Any, wdl: int) -> Tuple[int, int]:
        """``(stored DTZ, 1)`` for the board's position, whose WDL is `wdl`; ``(0, -1)``
        when the file stores the other side to move."""
        with self.write_lock:
            self.init_table_dtz()
            self._check_material(board)
            flip, mirror, side = self._orientation(board)
            if not self.has_pawns:
                assert isinstance(self.flags, int)
                if (self.flags & 1) != side and not self.symmetric:
                    return 0, -1
                pos = [0] * TBPIECES
                self._fill(board, self.pieces, flip, 0, pos, 0)
                idx = self.encode_piece(self.norm, pos, self.factor)
                res = self.decompress_pairs(self.precomp, idx)
                return self._map_value(self.flags, self.map_idx[0], res, wdl), 1
            assert isinstance(self.flags, list)
            pos, f = self._lead_pawns(board, self.files[0].pieces[0] ^ flip, mirror)
            if self.flags[f] & 1 != side:
                return 0, -1
            fd = self.files[f]
            self._fill(board, fd.pieces, flip, mirror, pos, self.pawns[0])
            idx = self.encode_pawn(fd.norm, pos, fd.factor)
            res = self.decompress_pairs(fd.precomp, idx)
            return self._map_value(self.flags[f], self.map_idx[f], res, wdl), 1

    def _map_value(self, flags: int, map_idx: List[int], res: int, wdl: int) -> int:
        if flags & 2:
            start = map_idx[WDL_TO_MAP[wdl + 2]]
            if not flags & 16:
                res = self._bytes()[self.p_map + start + res]
            else:
                res = self.read_uint16(self.p_map + 2 * (start + res))
        if not flags & PA_FLAGS[wdl + 2] or wdl & 1:
            res *= 2  # stored in moves
        return res
