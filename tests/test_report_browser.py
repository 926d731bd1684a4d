"""The report opened in headless Chromium: every plot shown, no console error, no request beyond the file, and
the numbers read from the page equal those the command line prints for the same run.

Runs with ``tox -e browser`` (the report and browser extras): Playwright drives Debian's ``/usr/bin/chromium``
(Playwright never downloads a browser here).  Three conversations keep it short; the page and the command line
are asked for the same run (``--only 3`` / ``-only 3``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser  # plain tox leaves it out (-m "not browser"): nothing below is imported there

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
ONLY = "3"
#: The table's row names and the page's row keys.
ROW_KEYS = {"multi hop": "1", "temporal": "2", "open domain": "3", "single hop": "4", "adversarial": "5",
            "answerable": "answerable", "overall": "overall"}


def kit(*argv: str) -> tuple[str, str]:
    """Run the command line in a fresh interpreter: (stdout, stderr); it must succeed."""
    done = subprocess.run([sys.executable, "-m", "locomo_repro", *argv], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def signature_of(err: str) -> str:
    (line,) = [x for x in err.splitlines() if x.startswith("signature: ")]
    return line.removeprefix("signature: ")


@pytest.fixture(scope="module")
def made(samples, tmp_path_factory):
    """The report and, for the same run, the command line's table, floor sweep and -stats of both arm sets."""
    pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
    folder = tmp_path_factory.mktemp("report")
    html = folder / "report.html"
    out, _ = kit("report", "--only", ONLY, "-o", str(html))
    assert out == f"{html}\n"
    cli = {}
    for arms in ("main", "walk"):
        answers = folder / f"answers-{arms}.json"
        table, table_err = kit("-only", ONLY, "-quiet", "-arms", arms, "-out", str(answers))
        sweep, sweep_err = kit("-only", ONLY, "-arms", arms, "-sweep", "floor")
        stats, _ = kit("-stats", str(answers))
        cli[arms] = {"table": table, "sweep": sweep, "stats": stats,
                     "run_signature": signature_of(table_err), "sweep_signature": signature_of(sweep_err)}
    return html, cli


@pytest.fixture(scope="module")
def page(made):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser extra (playwright) is not installed")
    if not CHROMIUM.is_file():
        pytest.skip(f"{CHROMIUM} not found (apt-get install chromium)")
    html, _ = made
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        problems: list[str] = []
        requests: list[str] = []
        tab.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        tab.on("request", lambda r: requests.append(r.url))
        tab.goto(html.as_uri(), wait_until="load")
        svgs = tab.locator("svg[data-figure]")
        shown = []
        for i in range(svgs.count()):
            svg = svgs.nth(i)
            svg.scroll_into_view_if_needed()
            box = svg.bounding_box()
            shown.append((svg.get_attribute("data-figure"), svg.is_visible(), box["width"], box["height"]))
        read = tab.evaluate(
            """() => {
              const rows = sel => [...document.querySelectorAll(sel)].map(r => ({...r.dataset,
                  cells: [...r.querySelectorAll('td')].map(td => td.textContent)}));
              return {
                points: Object.fromEntries(['main', 'walk'].map(a =>
                    [a, rows(`table.points[data-figure="tradeoff-${a}"] tr[data-arm]`)])),
                estimates: Object.fromEntries(['main', 'walk'].map(a =>
                    [a, rows(`table.estimates[data-source="${a}"] tr[data-arm]`)])),
                differences: Object.fromEntries(['main', 'walk'].map(a =>
                    [a, rows(`table.differences[data-source="${a}"] tr[data-one]`)])),
                signatures: Object.fromEntries([...document.querySelectorAll('[data-signature]')].map(
                    e => [e.dataset.figure, e.dataset.signature])),
                statuses: rows('#claims-status tr[data-status]'),
              };
            }"""
        )
        browser.close()
    return {"shown": shown, "problems": problems, "requests": requests, "read": read}


def test_every_plot_is_shown(page):
    figures = [name for name, *_ in page["shown"]]
    assert figures == ["tradeoff-main", "tradeoff-walk", "intervals-main", "differences-main",
                       "intervals-walk", "differences-walk"]
    for name, visible, width, height in page["shown"]:
        assert visible and width > 200 and height > 100, name


def test_the_page_logs_no_error_and_asks_for_nothing_but_itself(page, made):
    assert page["problems"] == []
    assert page["requests"] == [made[0].as_uri()]


@pytest.mark.parametrize("arms", ["main", "walk"])
def test_per_category_f1_on_the_page_is_the_table_the_run_prints(page, made, arms):
    table = made[1][arms]["table"].splitlines()
    at = next(i for i, line in enumerate(table) if line.startswith("k=5 "))
    names = table[at + 2].split()
    printed = {}
    for line in table[at + 4 : at + 4 + len(ROW_KEYS)]:
        row, cells = line[:14].strip(), line[14:].split()
        for i, arm in enumerate(names):
            printed[arm, ROW_KEYS[row]] = cells[1 + 3 * i]
    on_page = {(r["arm"], r["row"]): r["cells"][3] for r in page["read"]["estimates"][arms]}
    assert on_page == printed


@pytest.mark.parametrize("arms", ["main", "walk"])
def test_the_tradeoff_on_the_page_holds_the_floor_sweep_the_command_line_prints(page, made, arms):
    sweep = made[1][arms]["sweep"].splitlines()
    at = next(i for i, line in enumerate(sweep) if line.split()[:1] == ["floor"])
    names = sweep[at - 1].split()
    points = {(r["arm"], float(r["floor"])): r for r in page["read"]["points"][arms]}
    rows = sweep[at + 1 :]
    assert len(rows) == 8
    for line in rows:
        floor, *cells = line.split()
        for i, arm in enumerate(names):
            answerable, adversarial, _, quiet = cells[4 * i : 4 * i + 4]
            p = points[arm, float(floor)]
            assert (p["cells"][3], p["cells"][4]) == (answerable, adversarial)
            assert f"{100 * float(p['quiet']):.0f}%" == quiet


@pytest.mark.parametrize("arms", ["main", "walk"])
def test_paired_differences_on_the_page_are_those_stats_prints(page, made, arms):
    stats = made[1][arms]["stats"].split("paired difference", 1)[1].splitlines()[2:]
    number = r"([+-]\S+) \[([+-]\S+), ([+-]\S+)\]"
    printed = {}
    for line in stats:
        one, two, rest = re.fullmatch(r"(\S+)\s+- (\S+)\s+(.*)", line).groups()
        for half, cell in zip(("adversarial", "answerable"), re.findall(number, rest)):
            printed[one, two, half] = f"{cell[0]} [{cell[1]}, {cell[2]}]"
    on_page = {(r["one"], r["two"], r["half"]): f"{r['cells'][2]} {r['cells'][3]}" for r in page["read"]["differences"][arms]}
    assert on_page == printed


@pytest.mark.parametrize("arms", ["main", "walk"])
def test_each_figure_carries_the_signature_the_command_line_prints_for_its_run(page, made, arms):
    signatures = page["read"]["signatures"]
    assert signatures[arms] == made[1][arms]["run_signature"] + "|bootstrap:exact-95"
    assert signatures[f"tradeoff-{arms}"] == made[1][arms]["sweep_signature"] + "|floors:0:1:0.05"
    assert signatures["claims"].startswith("locomo-repro:")


def test_the_claims_summary_counts_every_claim(page):
    from locomo_repro import claims

    counts = {r["status"]: int(r["cells"][1]) for r in page["read"]["statuses"]}
    manifest = claims.load()
    assert counts.pop("total") == len(manifest.claims) == sum(counts.values())
    assert list(counts) == list(claims.STATUSES)
