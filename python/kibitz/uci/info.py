"""The UCI ``info`` line of a search report."""

from __future__ import annotations

from typing import Any

__all__ = ["INFO_FIELDS", "format_info"]

# What format_info reads of a search report.
INFO_FIELDS = (
    "depth",
    "seldepth",
    "multipv",
    "mate",
    "score_cp",
    "bound",
    "wdl",
    "nodes",
    "nps",
    "hashfull",
    "tbhits",
    "time_ms",
)


def format_info(info: Any, *, show_wdl: bool = False) -> str:
    """The UCI ``info`` line of one search report (with ``wdl W D L`` after the score when
    ``show_wdl``: the UCI_ShowWDL option)."""
    parts = ["info"]

    def get(name: str) -> Any:
        return getattr(info, name, None)

    for name in ("depth", "seldepth", "multipv"):
        v = get(name)
        if v is not None:
            parts += [name, str(int(v))]
    mate, cp = get("mate"), get("score_cp")
    if mate is not None:
        parts += ["score", "mate", str(int(mate))]
    elif cp is not None:
        parts += ["score", "cp", str(int(cp))]
    bound = get("bound")
    if (mate is not None or cp is not None) and bound in ("lower", "upper"):
        parts.append(f"{bound}bound")
    wdl = get("wdl")
    if show_wdl and wdl is not None and (mate is not None or cp is not None):
        parts += ["wdl", *(str(int(v)) for v in wdl)]
    for name, key in (
        ("nodes", "nodes"),
        ("nps", "nps"),
        ("hashfull", "hashfull"),
        ("tbhits", "tbhits"),
        ("time", "time_ms"),
    ):
        v = get(key)
        if v is not None:
            parts += [name, str(int(v))]
    pv = get("pv")
    if pv:
        parts += ["pv", *pv]
    return " ".join(parts)
