"""The peers' published tables judged as tables: ``locomo-repro peers check``.

Each cell of ``peers.yaml`` is recomputed from its system's own file (``manifest.measure``) and judged on its
own (``manifest.agrees``).  A table is judged as a whole too: the category a row's column *holds* is the one
whose figure, printed as the cell prints it, is the published value (the cell's own category first, then
1 to 5 and overall; none when no category gives it, as for Zep's Overall, 75.14 where the file gives
75.13).  A column holding another category in one row than in the table's first row compares different
questions across the two rows, whatever the column is named: in Memobase's and Backboard's tables the Zep
row holds categories 1 to 4 in number order where the table's own rows hold 1, 3, 4, 2, so three of its
four category columns compare different questions with the rows above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..data.dataset import CATEGORIES as NAMES
from .manifest import CATEGORIES, Cell, Manifest, Row, Table, agrees, printed

#: Ceilings by category key (``"1"``…``"4"``, ``overall`` for the answerable questions), as fractions.
Ceilings = dict[str, float]


def holds(cell: Cell, figures_of: dict[str, dict[str, object]]) -> str | None:
    """The category whose figure from the file, printed as the cell prints it, is the published value."""
    for category in (cell.category, *(c for c in CATEGORIES if c != cell.category)):
        if printed(cell, figures_of, category) == cell.published:
            return category
    return None


def name(category: str | None) -> str:
    """A category by number and official name (``4 single hop``), ``overall``, or ``-`` for none."""
    if category is None:
        return "-"
    return category if category == "overall" else f"{category} {NAMES[int(category)]}"


@dataclass(frozen=True)
class Unlike:
    """One column of a row holding another category than the table's first row: the two cells and categories."""

    column: str
    cell: str
    held: str
    first_cell: str
    first_held: str


@dataclass(frozen=True)
class RowVerdict:
    """One row of a table judged against the table's first row."""

    row: Row
    held: tuple[str | None, ...]
    unlike: tuple[Unlike, ...]
    categories: int  # the row's columns that stand for one category (not overall)

    @property
    def agrees(self) -> bool:
        """Whether the columns found unlike are those peers.yaml records for the row."""
        return tuple(u.column for u in self.unlike) == self.row.unlike


def judge(table: Table, manifest: Manifest, measured: dict[str, dict[str, dict[str, object]]]) -> list[RowVerdict]:
    """Every row of ``table``: the category each column holds, and the columns unlike the first row's."""
    cells = {c.id: c for c in manifest.cells}
    out: list[RowVerdict] = []
    first: tuple[str | None, ...] = ()
    for at, row in enumerate(table.rows):
        mine = [cells[i] for i in row.cells]
        held = tuple(holds(c, measured[c.system]) for c in mine)
        if at == 0:
            first = held
        unlike = tuple(
            Unlike(column, cell, h, first_cell, f)
            for column, cell, h, first_cell, f in zip(table.columns, row.cells, held, table.rows[0].cells, first)
            if h is not None and f is not None and h != f
        )
        out.append(RowVerdict(row, held, unlike, sum(c.category != "overall" for c in mine)))
    return out


def verdict(table: Table, v: RowVerdict) -> str:
    """One row's verdict in a line, naming the cells compared under different categories."""
    first = table.rows[0].label
    if v.row is table.rows[0]:
        return f"{v.row.label}: the table's first row; the others are compared with it"
    if not v.unlike:
        return f"{v.row.label}: every column holds what it holds in {first}'s row: like with like"
    each = "; ".join(f"{u.column} {name(u.held)} ({u.cell}) against {name(u.first_held)} ({u.first_cell})"
                     for u in v.unlike)
    return (f"{v.row.label}: {len(v.unlike)} of its {v.categories} category columns hold another category than "
            f"in {first}'s row, so they compare different questions: {each}")


def above(cells: Sequence[Cell], ceilings: Ceilings) -> list[str]:
    """The published judge accuracies above the ceiling of the category they hold (the one whose questions
    give the figure: ``found_under`` where the table names it otherwise; overall: the answerable questions'),
    one line each: a score no system reaches while grading against gold that is wrong."""
    out = []
    for cell in cells:
        held = cell.found_under or cell.category
        ceiling = ceilings.get(held)
        if cell.metric != "judge" or cell.unit != "percent" or ceiling is None:
            continue
        if float(cell.published) > 100 * ceiling:
            out.append(f"  {cell.id}: published {cell.published} is above {name(held)}'s ceiling {100 * ceiling:.2f}")
    return out


def render(manifest: Manifest, measured: dict[str, dict[str, dict[str, object]]],
           ceilings: Ceilings | None = None) -> tuple[str, bool]:
    """Every table judged as a table, then every cell on its own: the text, and whether all agree with
    peers.yaml (each cell's status, each row's recorded ``unlike``); with ``ceilings`` (the audited key's),
    the published figures above their category's ceiling named after them."""
    ok = True
    lines: list[str] = []
    for table in manifest.tables:
        verdicts = judge(table, manifest, measured)
        width = max(len("row"), *(len(r.label) for r in table.rows)) + 2
        lines += [f"{table.id}: {table.where}",
                  "which category each column holds (whose figure, from the row's file, is the published value):",
                  f"  {'row':<{width}}" + "".join(f"{c:<16}" for c in table.columns).rstrip()]
        lines += [f"  {v.row.label:<{width}}" + "".join(f"{name(h):<16}" for h in v.held).rstrip() for v in verdicts]
        if any(h is None for v in verdicts for h in v.held):
            lines.append("  (-: no category's figure is the published value; the cell's verdict below says what the file gives)")
        lines.append("verdict per row:")
        for v in verdicts:
            ok &= v.agrees
            lines.append(f"  {verdict(table, v)}" + ("" if v.agrees else
                                                     f"  [FAILING: peers.yaml records {', '.join(v.row.unlike) or 'none'}]"))
        lines.append("")
    lines.append("verdict per cell (under the category its column names):")
    width = max(len(c.id) for c in manifest.cells) + 2
    for cell in manifest.cells:
        figures_of = measured[cell.system]
        good = agrees(cell, figures_of)
        ok &= good
        found = f", {cell.published} is {name(cell.found_under)}'s figure" if cell.found_under else ""
        lines.append(f"  {cell.id:<{width}}{cell.status:<11}published {cell.published}, the file gives "
                     f"{printed(cell, figures_of)} under {name(cell.category)}{found}" + ("" if good else "  [FAILING]"))
    if ceilings is not None:
        lines.append("")
        lines.append("published above the category's ceiling under the audited key (locomo-repro key):")
        lines += above(manifest.cells, ceilings) or ["  none"]
    return "\n".join(lines) + "\n", ok
