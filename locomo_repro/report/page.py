"""The report as one self-contained HTML page: inline SVG figures, tables of their numbers, a signature each.

Every number sits in an element with stable data attributes holding its full
value (``data-f1``, ``data-low``, ...), beside the text shown rounded as the
command line prints it, so a test can read the page and compare.  The page
loads nothing: no script, no stylesheet, no font, no image from anywhere.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from .. import __version__
from ..peers.leaderboard import Placed
from ..score.stats import go_f
from .figures import Claims, Difference, Estimate, Point, Rejudged, Spending
from ..data.records import record

STYLE = """
body { font-family: sans-serif; max-width: 72rem; margin: 1rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.85rem; }
td, th { border-bottom: 1px solid #ddd; padding: 0.15rem 0.5rem; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.signature { font-family: monospace; font-size: 0.8rem; color: #555; overflow-wrap: anywhere; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }
.failing { color: #b00; }
"""


@record
class Source:
    """One set of arms shown per category: the kit's run of an arm set, or a predictions file (``title``
    names it by its base name and digest, never by a folder of the machine that made the page)."""

    name: str
    title: str
    signature: str
    estimates: tuple[Estimate, ...]
    differences: tuple[Difference, ...]
    intervals_svg: str
    differences_svg: str
    rejudged: Rejudged | None = None


@record
class Tradeoff:
    """The trade-off of one arm set."""

    name: str
    title: str
    signature: str
    points: tuple[Point, ...]
    svg: str


@record
class Costs:
    """Quality against cost for one run: a results file given with ``--results`` (``title`` names it by its base
    name and digest) or the report's own run of an arm set."""

    name: str
    title: str
    signature: str
    points: tuple[Spending, ...]
    svg: str


#: The mark of a claim whose measurement disagrees with its entry.
FAILING = ' class="failing"'


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _full(x: float) -> str:
    """A float in a data attribute: every digit (``repr``), so tests compare exact values."""
    return repr(float(x))


def signature(figure: str, text: str) -> str:
    return f'<p class="signature" data-figure="{esc(figure)}" data-signature="{esc(text)}">signature: {esc(text)}</p>'


def claims_section(view: Claims, sig: str) -> str:
    how = (
        "as <code>locomo-repro claims</code> measured them"
        if view.measured
        else "as claims.yaml records them (each record is checked against a fresh measurement by the claims tests; "
        "<code>--claims measure</code> measures them all again here, in minutes)"
    )
    rows = "".join(
        f'<tr data-status="{esc(s)}"><td>{esc(s)}</td><td class="num" data-count="{n}">{n}</td></tr>'
        for s, n in view.counts
    )
    total = sum(n for _, n in view.counts)
    groups = view.groups()
    refuted = "".join(
        f'<tr data-status="{esc(status)}" data-claims="{len(rows)}"><td class="num">{len(rows)}</td>'
        f"<td>{esc(status)}</td><td><ul>"
        + "".join(
            f'<li data-claim="{esc(r.id)}" data-published="{esc(r.published)}" data-measured="{esc(r.measured)}"'
            f'{"" if r.holds else FAILING}>{esc(r.id)}: {esc(r.published)} → {esc(r.measured)}</li>'
            for r in rows
        )
        + f'</ul></td><td data-field="why">{esc(why)}</td></tr>'
        for status, why, rows in groups
    )
    failing = ""
    if view.failing:
        failing = (
            f'<p class="failing" id="claims-failing" data-count="{len(view.failing)}">'
            f"{len(view.failing)} claims disagree with their entry: {esc(', '.join(view.failing))}</p>"
        )
    return (
        f'<section id="claims" data-measured="{str(view.measured).lower()}">'
        "<h2>The reproduction at a glance</h2>"
        f"<p>Every number of the published README, {how}.</p>"
        f'<table id="claims-status"><tr><th>status</th><th>claims</th></tr>{rows}'
        f'<tr data-status="total"><td>total</td><td class="num" data-count="{total}">{total}</td></tr></table>'
        f"{failing}"
        f"<h3>Refuted and reconstructed claims ({len(view.refuted)}, for {len(groups)} reasons)</h3>"
        '<table id="claims-refuted"><tr><th>claims</th><th>status</th><th>claim: published → measured</th>'
        f"<th>why</th></tr>{refuted}</table>"
        f"{signature('claims', sig)}</section>"
    )


def tradeoff_section(parts: Sequence[Tradeoff]) -> str:
    out = [
        '<section id="tradeoff"><h2>The trade-off: what each arm says against how often it is right</h2>',
        "<p>Each arm's answerable F1 (categories 1-4) and adversarial F1 (category 5) against the share of all "
        "questions it declines, as the confidence floor goes from 0 to 1 in steps of 0.05; other settings at "
        "their defaults.</p>",
    ]
    for t in parts:
        rows = "".join(
            f'<tr data-arm="{esc(p.arm)}" data-floor="{_full(p.floor)}" data-quiet="{_full(p.quiet)}" '
            f'data-answerable="{_full(p.answerable)}" data-adversarial="{_full(p.adversarial)}">'
            f'<td>{esc(p.arm)}</td><td class="num">{p.floor:.2f}</td><td class="num">{100 * p.quiet:.0f}%</td>'
            f'<td class="num">{p.answerable:.3f}</td><td class="num">{p.adversarial:.3f}</td></tr>'
            for p in t.points
        )
        out.append(
            f'<figure id="figure-{esc(t.name)}">{t.svg}<figcaption>{esc(t.title)}</figcaption></figure>'
            f"{signature(t.name, t.signature)}"
            f"<details><summary>the numbers</summary>"
            f'<table class="points" data-figure="{esc(t.name)}"><tr><th>arm</th><th>floor</th><th>declined</th>'
            f"<th>answerable F1</th><th>adversarial F1</th></tr>{rows}</table></details>"
        )
    out.append("</section>")
    return "".join(out)


def _judge(e: Estimate) -> str:
    """The judge cell of a file's row: the share true as ``peers table`` prints it, ``-`` without verdicts."""
    if e.judge is None:
        return '<td class="num">-</td>'
    return f'<td class="num" data-judge="{_full(e.judge)}">{e.judge:.3f}</td>'


def _j(e: Estimate) -> str:
    """The J cells of a file's row re-judged: J, the questions with a verdict (its denominator) and its
    interval, ``-`` where there is none."""
    if e.j is None or e.j.value is None:
        return '<td class="num">-</td><td class="num">0</td><td class="num">-</td>'
    bounds = "-" if e.j.low is None or e.j.high is None else f"[{e.j.low:.3f}, {e.j.high:.3f}]"
    full = "" if e.j.low is None or e.j.high is None else f' data-j-low="{_full(e.j.low)}" data-j-high="{_full(e.j.high)}"'
    return (f'<td class="num" data-j="{_full(e.j.value)}" data-j-n="{e.j.n}"{full}>{e.j.value:.3f}</td>'
            f'<td class="num">{e.j.n}</td><td class="num">{bounds}</td>')


def _share(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _kappa(x: float | None) -> str:
    return "" if x is None else f' data-kappa="{_full(x)}"'


def rejudged_note(r: Rejudged) -> str:
    """What the page says of a judged file beside a file's F1: the judge, its denominators, its leniency over the
    probes it holds and each arm's agreement with the file's own verdicts, every figure in a data attribute."""
    leniency = "; ".join(
        f'<span data-leniency="{esc(arm)}" data-value="{_full(got.value)}" data-n="{got.n}">'
        f"{esc(arm)} {got.value:.3f} of {got.n}</span>" for arm, got in r.leniency if got.value is not None)
    agree = "; ".join(
        f'<span data-agreement="{esc(a.arm)}" data-n="{a.n}" data-value="{_full(a.agreement)}"{_kappa(a.kappa)}>'
        f"{esc(a.arm)} {a.agreement:.3f} of {a.n} (Cohen's kappa {_share(a.kappa)})</span>"
        for a in r.agreements if a.agreement is not None)
    return (
        f'<p class="rejudged" data-judge="{esc(r.judge)}" data-model="{esc(r.model)}" data-failed="{r.failed}">'
        f"J: the verdicts of {esc(r.source)} on these very replies, judge {esc(r.judge)} ({esc(r.model)}), one "
        "judge for every arm; the mean score of a question's judged repeats over the questions with a verdict "
        f"(J n: the answerable (1-4) row's denominator leaves category 5 out, overall's holds it), with the exact "
        f"95% bootstrap interval over conversations; {r.failed} failed judgements left out, never counted "
        f"correct. Leniency (acceptance of answers known wrong, answerable probes): {leniency or 'no probes'}. "
        f"Agreement with the file's own judge: {agree or 'no shared verdicts'}.</p>"
    )


def source_section(s: Source, lead: bool = False) -> str:
    """One source per category; ``lead``: one of the user's files, its numbers shown open."""
    judged = any(e.judge is not None for e in s.estimates)
    again = any(e.j is not None for e in s.estimates)
    rows = "".join(
        f'<tr data-arm="{esc(e.arm)}" data-row="{esc(e.row)}" data-n="{e.n}" data-f1="{_full(e.point)}" '
        f'data-low="{_full(e.low)}" data-high="{_full(e.high)}"><td>{esc(e.arm)}</td><td>{esc(e.label)}</td>'
        f'<td class="num">{e.n}</td><td class="num">{e.point:.3f}</td>'
        f'<td class="num">[{e.low:.3f}, {e.high:.3f}]</td>{_judge(e) if judged else ""}{_j(e) if again else ""}</tr>'
        for e in s.estimates
    )
    diffs = "".join(
        f'<tr data-one="{esc(d.one)}" data-two="{esc(d.two)}" data-half="{esc(d.half)}" data-diff="{_full(d.point)}" '
        f'data-low="{_full(d.low)}" data-high="{_full(d.high)}"><td>{esc(d.one)} - {esc(d.two)}</td>'
        f'<td>{esc(d.half)}</td><td class="num">{go_f(d.point, 0, 3, True)}</td>'
        f'<td class="num">[{go_f(d.low, 0, 3, True)}, {go_f(d.high, 0, 3, True)}]</td></tr>'
        for d in s.differences
    )
    name = esc(s.name)
    paired = ""
    if s.differences:  # two arms or more
        paired = (
            f'<figure id="figure-differences-{name}">{s.differences_svg}<figcaption>paired differences between '
            "arms (the first minus the second), 95% bootstrap intervals</figcaption></figure>"
            f"<details><summary>the numbers</summary>"
            f'<table class="differences" data-source="{name}"><tr><th>pair</th><th>half</th><th>difference</th>'
            f"<th>95% interval</th></tr>{diffs}</table></details>"
        )
    judge_head = ("<th>judge (the file's own)</th>" if judged else "") + (
        "<th>J (re-judged)</th><th>J n</th><th>J 95% interval</th>" if again else "")
    judge_note = (
        "<p>judge: the share of the file's own judge verdicts that are true (its own model and prompt: two "
        "systems' judge figures are not one metric), beside the official F1.</p>" if judged else ""
    )
    return (
        f'<section class="source" data-source="{name}"><h3>{esc(s.title)}</h3>'
        f'<figure id="figure-intervals-{name}">{s.intervals_svg}<figcaption>F1 per category with 95% percentile '
        "bootstrap intervals over conversations</figcaption></figure>"
        f"{judge_note}{rejudged_note(s.rejudged) if s.rejudged else ''}"
        f"<details{' open' if lead else ''}><summary>the numbers</summary>"
        f'<table class="estimates" data-source="{name}"><tr><th>arm</th><th>category</th><th>n</th><th>F1</th>'
        f"<th>95% interval</th>{judge_head}</tr>{rows}</table></details>"
        f"{paired}{signature(s.name, s.signature)}</section>"
    )


def files_section(files: Sequence[Source]) -> str:
    """The user's predictions files, each per category: what the page leads with when it is given some."""
    return (
        '<section id="files"><h2>Your files, per category</h2><p>Each file named by its base name and the digest '
        "of its bytes, scored with the official metric (F1) and 95% bootstrap intervals over its conversations; "
        "a category the file has no question of is left out.</p>"
        + "".join(source_section(f, lead=True) for f in files)
        + "</section>"
    )


def _cost(value: float | None, places: str) -> str:
    return "-" if value is None else format(value, places)


def cost_section(parts: Sequence[Costs]) -> str:
    """Quality against cost: per run, each arm's F1 against the evidence it handed its reader and against the
    median of one call (measured on the machine that ran it), then the numbers."""
    out = [
        '<section id="cost"><h2>Quality against cost</h2>',
        "<p>Each arm's answerable F1 (categories 1-4) and overall F1 against the evidence handed to its reader "
        "a question (words, on average) and against the median wall seconds of one call (its memory's recall, "
        "its answerer's answer or its model's read), one point per arm. Costs are measured on the machine that "
        "ran the arms, so they differ from run to run; an arm without a cost measured has no point there.</p>",
    ]
    for c in parts:
        rows = "".join(
            f'<tr{_data("label", s.label)}{_data("answerable", s.answerable)}{_data("overall", s.overall)}'
            f'{_data("words", s.words)}{_data("p50", s.p50)}{_data("calls", s.calls)}><td>{esc(s.label)}</td>'
            f'<td class="num">{s.answerable:.3f}</td><td class="num">{s.overall:.3f}</td>'
            f'<td class="num">{_cost(s.words, ".0f")}</td><td class="num">{_cost(s.p50, ".4g")}</td>'
            f'<td class="num">{s.calls}</td></tr>'
            for s in c.points
        )
        out.append(
            f'<figure id="figure-cost-{esc(c.name)}">{c.svg}<figcaption>{esc(c.title)}</figcaption></figure>'
            f"{signature(f'cost-{c.name}', c.signature)}"
            "<details><summary>the numbers</summary>"
            f'<table class="spending" data-source="{esc(c.name)}"><tr><th>arm</th><th>answerable F1</th>'
            "<th>overall F1</th><th>evidence words</th><th>call p50 (s)</th><th>calls</th></tr>"
            f"{rows}</table></details>"
        )
    out.append("</section>")
    return "".join(out)


def _num(value: float | None, signed: bool = False) -> str:
    return "-" if value is None else f"{value:+.3f}" if signed else f"{value:.3f}"


def _data(name: str, value: object) -> str:
    """A data attribute holding a value exactly (``repr`` of a float, ``null`` for none)."""
    shown = "null" if value is None else _full(value) if isinstance(value, float) else str(value).lower() \
        if isinstance(value, bool) else str(value)
    return f' data-{name}="{esc(shown)}"'


def leaderboard_section(table: Sequence[Placed], svg: str, sig: str, conversations: int) -> str:
    """The leaderboard (``locomo-repro leaderboard``'s rows): the forest plot, then every row's figures."""
    rows = []
    for p in table:
        r = p.row
        fields = {"place": p.place or None, "name": r.name, "source": r.source, "n": r.n, "f1": r.f1, "low": r.low,
                  "high": r.high, "rank-low": p.rank_low, "rank-high": p.rank_high, "diff": p.diff,
                  "diff-low": p.diff_low, "diff-high": p.diff_high, "tied": p.tied, "group": p.group,
                  "overall-f1": r.overall_f1, "j": None if r.j is None else r.j.value}
        attributes = "".join(_data(k, v) for k, v in fields.items())
        if r.missing:
            rows.append(f'<tr{attributes} data-missing="{esc(r.missing)}"><td>-</td><td>{esc(r.name)}</td>'
                        f'<td>{esc(r.source)}</td><td colspan="9">missing: {esc(r.missing)}</td></tr>')
            continue
        rank = "-" if p.rank_low is None else f"{p.rank_low}-{p.rank_high}"
        diff = "-" if p.diff is None else (f"{_num(p.diff, True)} [{_num(p.diff_low, True)}, "
                                           f"{_num(p.diff_high, True)}]{' tied' if p.tied else ''}")
        said = f"published {r.published}, the kit {r.kit}: {r.verdict}" if r.published else "-"
        rows.append(
            f"<tr{attributes}><td class=\"num\">{p.place or '-'}</td><td>{esc(r.name)}</td><td>{esc(r.source)}</td>"
            f'<td class="num">{r.n}</td><td class="num">{_num(r.f1)}</td>'
            f'<td class="num">[{_num(r.low)}, {_num(r.high)}]</td><td class="num">{rank}</td>'
            f'<td class="num">{diff}</td><td class="num">{_num(r.adversarial_f1)}</td>'
            f'<td class="num">{_num(r.overall_f1)}</td><td class="num">{_num(None if r.j is None else r.j.value)}</td>'
            f"<td>{esc(said)}</td></tr>")
    return (
        '<section id="leaderboard"><h2>The leaderboard: every answer file like with like</h2>'
        "<p>Every system of peers.yaml, locomo-audit's and LoCoMo-Plus's runs, your files and the kit's main arms, "
        "graded alike: the official F1 over the answerable questions (categories 1-4), with its exact 95% bootstrap interval over "
        f"{conversations} conversations, ranked; a bracket joins rows whose adjacent paired difference holds 0 "
        "(tied). The rank interval is the 2.5-97.5% range of the row's rank over the same resamples; J is the "
        "file's own judge (its own model and prompt).</p>"
        f'<figure id="figure-leaderboard">{svg}<figcaption>answerable F1 with 95% intervals, tied rows '
        "bracketed</figcaption></figure>"
        '<details open><summary>the numbers</summary><table id="leaderboard-rows"><tr><th>#</th><th>system</th>'
        "<th>source</th><th>n</th><th>F1 1-4</th><th>95% interval</th><th>rank</th><th>difference from the next"
        "</th><th>adversarial F1</th><th>overall F1</th><th>J (own)</th><th>headline</th></tr>"
        f'{"".join(rows)}</table></details>{signature("leaderboard", sig)}</section>'
    )


def render(claims_view: Claims, claims_signature: str, tradeoffs: Sequence[Tradeoff], sources: Sequence[Source],
           files: Sequence[Source] = (), leaderboard: str = "", costs: Sequence[Costs] = ()) -> str:
    """The whole page: the user's ``files`` first when there are any, then the claims, the trade-off, the
    kit's own arm sets (``sources``) per category, the ``leaderboard`` section when there is one, and quality
    against cost (``costs``) when there is any."""
    body = [
        "<h1>LoCoMo reproduction report</h1>",
        f'<p id="kit" data-version="{esc(__version__)}">locomo-repro {esc(__version__)}. Categories by number '
        "and official name: 1 multi hop, 2 temporal, 3 open domain, 4 single hop, 5 adversarial. Every figure "
        "carries the signature of the settings and files that produced it.</p>",
        files_section(files) if files else "",
        claims_section(claims_view, claims_signature),
        tradeoff_section(tradeoffs),
        '<section id="categories"><h2>Per category, with bootstrap intervals</h2>',
        *(source_section(s) for s in sources),
        "</section>",
        leaderboard,
        cost_section(costs) if costs else "",
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>locomo-repro report</title>'
        f'<link rel="icon" href="data:,"><style>{STYLE}</style></head><body>{"".join(body)}</body></html>\n'
    )
