"""peers.yaml: the tables other systems publish, each cell recomputed from that system's own file.

``load`` reads and checks the manifest; ``measure`` imports each system's file (the importer's rules) and
computes its figures (``score.figures``: judge accuracy, mem0's F1 and BLEU-1 per category);
``printed`` gives a figure the way the cell prints it, so that a verdict compares what is printed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..data import jsonio, shipped
from ..data.dataset import Sample
from ..go.json import dumps
from ..score.figures import figures
from ..score.official import kit_eval_question_answering
from ..score.predictions import read as read_predictions
from ..score import convert
from ..score.formats import FORMATS, PeersError, read

STATUSES = ("reproduced", "refuted")
METRICS = ("judge", "mem0_f1", "mem0_bleu")
UNITS = ("percent", "number")
CATEGORIES = ("1", "2", "3", "4", "5", "overall")


@dataclass(frozen=True)
class Cell:
    """One published cell: where it is, what it measures, the value printed and the verdict."""

    id: str
    system: str
    where: str
    metric: str
    category: str
    published: str
    unit: str
    status: str
    measured: str | None = None
    found_under: str | None = None
    reason: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Row:
    """One row of a published table: its label, its cells (claim ids) in the table's column order, and the
    columns recorded as holding another category than the table's first row (``unlike``)."""

    label: str
    cells: tuple[str, ...]
    unlike: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    """One published table, judged as a table: where it is, its column names and its rows that have a file."""

    id: str
    where: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Manifest:
    """The systems' files (format and path under the peers folder), the cells, and the tables they form."""

    systems: dict[str, tuple[str, str]]
    cells: tuple[Cell, ...]
    tables: tuple[Table, ...] = ()


def default_path() -> Path:
    """peers.yaml: the kit's own (``data.shipped``), wherever the command runs."""
    try:
        return shipped.path("peers.yaml")
    except shipped.ShippedError as err:
        raise PeersError(str(err)) from None


def load(path: Path) -> Manifest:
    """Read and check peers.yaml; a malformed entry is a one-line :class:`PeersError` naming it."""
    try:
        raw = yaml.safe_load(jsonio.read_text(path))
    except jsonio.InputError as err:
        raise PeersError(str(err)) from None
    except yaml.YAMLError as err:
        raise PeersError(f"{path}: cannot read: {' '.join(str(err).split())}") from None
    systems = {}
    for name, entry in (raw.get("systems") or {}).items():
        if entry.get("format") not in FORMATS or not isinstance(entry.get("path"), str):
            raise PeersError(f"{path}: system {name}: needs a format ({', '.join(FORMATS)}) and a path")
        systems[name] = (entry["format"], entry["path"])
    cells = []
    for entry in raw.get("claims") or []:
        entry = {k: str(v) for k, v in entry.items()}
        where = f"{path}: {entry.get('id', '?')}"
        try:
            cell = Cell(**entry)
        except TypeError as err:
            raise PeersError(f"{where}: {err}") from None
        checks = (
            (cell.system in systems, f"system {cell.system} is not under systems"),
            (cell.metric in METRICS, f"metric {cell.metric} is not one of {', '.join(METRICS)}"),
            (cell.category in CATEGORIES, f"category {cell.category} is not 1-5 or overall"),
            (cell.unit in UNITS, f"unit {cell.unit} is not percent or number"),
            (cell.status in STATUSES, f"status {cell.status} is not one of {', '.join(STATUSES)}"),
            (cell.status != "refuted" or (cell.measured and cell.reason), "a refuted cell needs measured and reason"),
        )
        for ok, problem in checks:
            if not ok:
                raise PeersError(f"{where}: {problem}")
        cells.append(cell)
    known = {c.id for c in cells}
    return Manifest(systems, tuple(cells), tuple(_table(t, known, path) for t in raw.get("tables") or []))


def _table(entry: dict, known: set[str], path: Path) -> Table:
    """One entry of ``tables``, checked: every row a cell per column, each cell a claim, ``unlike`` columns."""
    where = f"{path}: table {entry.get('id', '?')}"
    columns = tuple(str(c) for c in entry.get("columns") or ())
    if not entry.get("id") or not entry.get("where") or not columns or not entry.get("rows"):
        raise PeersError(f"{where}: needs id, where, columns and rows")
    rows = []
    for row in entry["rows"]:
        label, ids, unlike = str(row.get("row", "?")), tuple(row.get("cells") or ()), tuple(row.get("unlike") or ())
        if len(ids) != len(columns):
            raise PeersError(f"{where}: row {label}: {len(ids)} cells for {len(columns)} columns")
        if missing := [i for i in ids if i not in known]:
            raise PeersError(f"{where}: row {label}: {missing[0]} is not a cell of claims")
        if others := [c for c in unlike if c not in columns]:
            raise PeersError(f"{where}: row {label}: unlike names {others[0]}, not a column")
        rows.append(Row(label, ids, unlike))
    return Table(str(entry["id"]), " ".join(str(entry["where"]).split()), columns, tuple(rows))


def measure(manifest: Manifest, root: Path, samples: Sequence[Sample]) -> dict[str, dict[str, dict[str, object]]]:
    """Every system's figures by category (``score.figures``), each from its own file under ``root``."""
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, (format, path) in manifest.systems.items():
            matched = convert.match(name, read(name, str(root / path), format), samples)
            converted = Path(folder) / f"{name}.json"
            converted.write_text(dumps(convert.predictions([matched], samples)), encoding="utf-8")
            out[name] = figures(read_predictions(converted), kit_eval_question_answering)[name]
    return out


def printed(cell: Cell, figures_of: dict[str, dict[str, object]], category: str | None = None) -> str:
    """The system's figure for the cell's metric (under ``category``, default the cell's), printed as the cell is:
    the published value's decimals, times 100 for a percent."""
    value = figures_of[category or cell.category][cell.metric]
    if not isinstance(value, (int, float)):
        return "absent"
    decimals = len(cell.published.partition(".")[2])
    return f"{float(value) * (100 if cell.unit == 'percent' else 1):.{decimals}f}"


def agrees(cell: Cell, figures_of: dict[str, dict[str, object]]) -> bool:
    """Whether the file gives what the cell's entry says: the published value when reproduced; when refuted,
    the recorded ``measured`` (not the published value), and the published value under ``found_under``."""
    got = printed(cell, figures_of)
    if cell.status == "reproduced":
        return got == cell.published
    return got == cell.measured != cell.published and (
        not cell.found_under or printed(cell, figures_of, cell.found_under) == cell.published)
