"""The report's figures drawn with matplotlib (the optional ``report`` extra) as inline SVG text.

Each function returns an ``<svg>`` element ready to inline in HTML: no XML
prolog, no date, element ids salted with the figure's own name so that several
figures on one page never share an id, and text drawn as paths (no font is
needed to open the page).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

import matplotlib

matplotlib.use("svg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from .figures import Difference, Estimate, Point, Spending  # noqa: E402

#: Size of one panel, inches.
PANEL = (5.2, 3.6)


def _svg(fig, name: str) -> str:
    """The figure as an inline ``<svg>`` element, deterministic for the same data and name."""
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": name, "svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :].replace("<svg ", f'<svg data-figure="{name}" role="img" ', 1)


def tradeoff(points: Sequence[Point], name: str, title: str) -> str:
    """Two panels: answerable F1 and adversarial F1 against the share declined, one line per arm over the floors."""
    arms = sorted({p.arm for p in points})
    fig, axes = plt.subplots(1, 2, figsize=(2 * PANEL[0], PANEL[1]), sharex=True, layout="constrained")
    for arm in arms:
        mine = sorted((p for p in points if p.arm == arm), key=lambda p: p.floor)
        quiet = [100 * p.quiet for p in mine]
        axes[0].plot(quiet, [p.answerable for p in mine], marker=".", label=_plain(arm))
        axes[1].plot(quiet, [p.adversarial for p in mine], marker=".", label=_plain(arm))
    for ax, what in zip(axes, ("answerable F1 (categories 1-4)", "adversarial F1 (category 5)")):
        ax.set_xlabel("questions declined (%)")
        ax.set_ylabel(what)
        ax.set_xlim(-2, 102)
        ax.grid(alpha=0.3)
    axes[1].legend(fontsize="small", loc="best")
    fig.suptitle(_plain(title))
    return _svg(fig, name)


def intervals(estimates: Sequence[Estimate], name: str, title: str) -> str:
    """F1 per row, every arm a marker with its 95% interval, rows side by side."""
    rows = list(dict.fromkeys(e.label for e in estimates))
    arms = list(dict.fromkeys(e.arm for e in estimates))
    width = 0.8 / max(len(arms), 1)
    fig, ax = plt.subplots(figsize=(max(PANEL[0], 1.4 * len(rows)), PANEL[1]), layout="constrained")
    for j, arm in enumerate(arms):
        mine = {e.label: e for e in estimates if e.arm == arm}
        xs = [i - 0.4 + width * (j + 0.5) for i, row in enumerate(rows) if row in mine]
        got = [mine[row] for row in rows if row in mine]
        ax.errorbar(
            xs, [e.point for e in got],
            yerr=[[e.point - e.low for e in got], [e.high - e.point for e in got]],
            fmt="o", markersize=4, capsize=2, label=_plain(arm),
        )
    ax.set_xticks(range(len(rows)), [_plain(_wrap(r)) for r in rows], fontsize="small")
    ax.set_ylabel("F1, 95% bootstrap interval")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize="small", ncol=min(len(arms), 4), loc="upper left")
    ax.set_title(_plain(title))
    return _svg(fig, name)


def differences(diffs: Sequence[Difference], name: str, title: str) -> str:
    """Every pair's paired difference on each half, with its 95% interval; a line at zero."""
    halves = list(dict.fromkeys(d.half for d in diffs))
    pairs = list(dict.fromkeys(f"{d.one} - {d.two}" for d in diffs))
    fig, axes = plt.subplots(
        1, len(halves), figsize=(2 * PANEL[0], max(1.5, 0.3 * len(pairs) + 1)), sharey=True, squeeze=False,
        layout="constrained",
    )
    for ax, half in zip(axes[0], halves):
        mine = {f"{d.one} - {d.two}": d for d in diffs if d.half == half}
        got = [mine[p] for p in pairs]
        ax.errorbar(
            [d.point for d in got], range(len(pairs)),
            xerr=[[d.point - d.low for d in got], [d.high - d.point for d in got]],
            fmt="o", markersize=4, capsize=2,
        )
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_title(_plain(half), fontsize="medium")
        ax.set_xlabel("difference of mean F1")
        ax.grid(axis="x", alpha=0.3)
    axes[0][0].set_yticks(range(len(pairs)), [_plain(p) for p in pairs], fontsize="small")
    axes[0][0].invert_yaxis()
    fig.suptitle(_plain(title))
    return _svg(fig, name)


def forest(rows: Sequence[tuple[str, float, float | None, float | None, int]], name: str, title: str) -> str:
    """The leaderboard as a forest plot: each row ``(label, F1, low, high, group)`` a marker with its 95%
    interval, best first, and each group of two rows or more (adjacent differences holding 0) bracketed on
    the right as tied."""
    fig, ax = plt.subplots(figsize=(PANEL[0] * 1.4, max(1.8, 0.32 * len(rows) + 1)), layout="constrained")
    ys = range(len(rows))
    lows = [point if low is None else low for _, point, low, _, _ in rows]
    highs = [point if high is None else high for _, point, _, high, _ in rows]
    ax.errorbar([r[1] for r in rows], ys, xerr=[[r[1] - lo for r, lo in zip(rows, lows)],
                                                 [hi - r[1] for r, hi in zip(rows, highs)]],
                fmt="o", markersize=4, capsize=2)
    edge = max(highs, default=1.0) + 0.02
    groups: dict[int, list[int]] = {}
    for y, row in zip(ys, rows):
        groups.setdefault(row[4], []).append(y)
    for members in groups.values():
        if len(members) > 1:
            top, bottom = min(members), max(members)
            ax.plot([edge, edge + 0.01, edge + 0.01, edge], [top, top, bottom, bottom], color="grey", linewidth=1)
            ax.text(edge + 0.015, (top + bottom) / 2, "tied", va="center", fontsize="small", color="grey")
    ax.set_yticks(list(ys), [_plain(r[0]) for r in rows], fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("answerable F1 (categories 1-4), 95% bootstrap interval")
    ax.set_xlim(-0.02, max(1.02, edge + 0.08))
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(_plain(title))
    return _svg(fig, name)


def spending(points: Sequence[Spending], name: str, title: str) -> str:
    """Quality against cost: answerable F1 (top) and overall F1 (bottom) against the words of evidence handed
    to the reader a question (left) and the median seconds of one call (right, a log scale), one labelled point
    per arm; an arm without that cost measured is left out of its panel."""
    fig, axes = plt.subplots(2, 2, figsize=(2 * PANEL[0], 2 * PANEL[1]), sharey="row", layout="constrained")
    for row, (what, f1) in enumerate((("answerable F1 (categories 1-4)", lambda s: s.answerable),
                                      ("overall F1", lambda s: s.overall))):
        for col, (cost, axis) in enumerate((("evidence handed to the reader a question (words)", lambda s: s.words),
                                            ("one call, median (seconds)", lambda s: s.p50))):
            ax = axes[row][col]
            shown = [(axis(s), f1(s), s.label) for s in points if axis(s) is not None and (col == 0 or axis(s) > 0)]
            for x, y, label in shown:
                ax.plot([x], [y], "o", markersize=5)
                ax.annotate(_plain(label), (x, y), textcoords="offset points", xytext=(4, 4), fontsize="small")
            if col == 1 and shown:
                ax.set_xscale("log")
                ax.minorticks_off()  # a narrow range would label its minor ticks over each other
            ax.set_xlabel(cost)
            ax.set_ylabel(what)
            ax.grid(alpha=0.3)
    fig.suptitle(_plain(title))
    return _svg(fig, name)


def _wrap(label: str) -> str:
    """A row label on two lines at its first space after the number."""
    return re.sub(r"^(\S+) ", r"\1\n", label, count=1)


def _plain(text: str) -> str:
    """``text`` as matplotlib shows it verbatim: a ``$`` escaped, so that an arm or file name holding ``$…$``
    is not read as mathtext (which fails on most such names)."""
    return text.replace("$", r"\$")
