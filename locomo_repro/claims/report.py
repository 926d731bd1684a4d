"""Verdicts and the report: each claim measured and judged by its status; the summary table; the command line.

    locomo-repro claims [--manifest claims.yaml] [--data PATH] [--markdown PATH]

prints the count of claims per status and every claim that is not simply
reproduced, with the published and the measured value; exit 1 when any claim
fails.  Progress goes to stderr (``data.progress``): a line per measurement
the lab makes (each build with the runs asked of it, the official scorer's
table, reach, the timed default run), and the claims measured: a bar on a
terminal, else a line every ten seconds.
"""

from __future__ import annotations

import math
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabulate import tabulate

from ..go import flags
from ..data import dataset
from ..data import jsonio
from ..data.atomic import unwritable_all, write_files
from ..data.progress import Progress
from .agree import agrees, agrees_recorded, expected, show
from .lab import Lab, NotAtHand
from .manifest import MANIFESTS, REFUTING, STATUSES, Claim, Manifest, ManifestError, default_path, load
from .measures import Unverifiable, measure, runs

DESCRIPTION = "Every number the published README states, measured with the kit."
#: What the other manifests check, for their summary's title.
PUBLISHED = {"audit": "locomo-audit's documents", "plus": "LoCoMo-Plus's README and judge summary"}


@dataclass(frozen=True)
class Verdict:
    """One claim measured: the value, as printed, and whether it is what the entry says it is."""

    claim: Claim
    value: Any = None
    shown: str = ""
    holds: bool | None = None  # None: reported (nothing asserted), unverifiable, or skipped
    problem: str = ""
    missing: str = ""  # skipped: what the claim needs that is not on this machine

    @property
    def ok(self) -> bool:
        return self.holds is not False and not self.problem


def verdict(claim: Claim, lab: Lab, manifest: Manifest) -> Verdict:
    """Measure a claim and judge it by its status.

    reproduced: the measurement must agree with the published value; refuted
    and refuted-by-reconstruction: with the recorded ``measured`` and not with
    the published value; reported: a measurement (a finite, non-negative number
    of seconds for a timing) shown beside the published one, its size never
    judged; unverifiable: no number.  A claim needing what is not at hand
    (:class:`NotAtHand`) is skipped: ``missing`` names it.
    """
    try:
        got = measure(claim, lab, manifest)
    except NotAtHand as why:
        return Verdict(claim, shown="—", missing=str(why))
    except Unverifiable as why:
        if claim.status == "unverifiable":
            return Verdict(claim, shown="—", holds=None)
        return Verdict(claim, shown="—", holds=False, problem=f"cannot be measured: {why}")
    except (ValueError, KeyError, IndexError) as err:
        return Verdict(claim, shown="—", holds=False, problem=f"{type(err).__name__}: {err}")
    shown = show(claim, got)
    if claim.status == "unverifiable":
        return Verdict(claim, got, shown, False, "status unverifiable, yet the kit measured it")
    if claim.status == "reported":
        fine = isinstance(got, (int, float)) and not isinstance(got, bool) and math.isfinite(got) and got >= 0
        return Verdict(claim, got, shown, None, "" if fine else f"not a duration in seconds: {got!r}")
    if claim.status in REFUTING:
        if agrees(claim, got, expected(claim)):
            return Verdict(claim, got, shown, False, "recorded as refuted, yet the measurement agrees with the publication")
        holds = agrees_recorded(claim, got)
        return Verdict(claim, got, shown, holds, "" if holds else f"measured {shown}, the entry records {claim.measured}")
    holds = agrees(claim, got, expected(claim))
    return Verdict(claim, got, shown, holds, "" if holds else f"measured {shown}, published {claim.published}")


# --- the report -------------------------------------------------------------------------------


def summary(verdicts: Sequence[Verdict], markdown: bool = False) -> str:
    """Counts per status, then every claim that is not simply reproduced, published against measured.

    Unverifiable claims sharing a reason are one row; reproduced claims that
    carry a note (a reading of an imprecise phrase, a reconstruction) are
    listed too.
    """
    fmt = "github" if markdown else "simple"

    def title(text: str) -> str:
        return f"### {text}" if markdown else text

    counts = Counter(v.claim.status for v in verdicts)
    rows = [[s, counts.get(s, 0)] for s in STATUSES] + [["total", len(verdicts)]]
    parts = [tabulate(rows, headers=["status", "claims"], tablefmt=fmt)]
    for status in ("refuted", "refuted-by-reconstruction", "reported"):
        chosen = [v for v in verdicts if v.claim.status == status]
        if chosen:
            parts.append(title(f"{status} ({len(chosen)})"))
            table: list[list[Any]] = [
                [v.claim.id, v.claim.published, v.shown, _one_line(v.claim.reason)] for v in chosen
            ]
            parts.append(tabulate(table, headers=["claim", "published", "measured", "why"], tablefmt=fmt))
    unverifiable = [v for v in verdicts if v.claim.status == "unverifiable"]
    if unverifiable:
        groups: dict[str, list[Verdict]] = {}
        for v in unverifiable:
            groups.setdefault(_one_line(v.claim.reason), []).append(v)
        parts.append(title(f"unverifiable ({len(unverifiable)})"))
        table = [
            [len(vs), _ids(vs), " ".join(v.claim.published for v in vs), why]
            for why, vs in groups.items()
        ]
        parts.append(tabulate(table, headers=["claims", "ids", "published", "why"], tablefmt=fmt))
    noted = [v for v in verdicts if v.claim.status == "reproduced" and v.claim.note]
    if noted:
        parts.append(title(f"reproduced, with a note ({len(noted)})"))
        table = [[v.claim.id, v.claim.published, v.shown, _one_line(v.claim.note)] for v in noted]
        parts.append(tabulate(table, headers=["claim", "published", "measured", "note"], tablefmt=fmt))
    skipped = [v for v in verdicts if v.missing]
    if skipped:
        parts.append(title(f"not measured here ({len(skipped)})"))
        needs: dict[str, list[Verdict]] = {}
        for v in skipped:
            needs.setdefault(v.missing, []).append(v)
        table = [[len(vs), _ids(vs), need] for need, vs in needs.items()]
        parts.append(tabulate(table, headers=["claims", "ids", "needs"], tablefmt=fmt))
    failing = [v for v in verdicts if not v.ok]
    if failing:
        parts.append(title(f"FAILING ({len(failing)})"))
        parts.append(tabulate([[v.claim.id, v.problem] for v in failing], headers=["claim", "problem"], tablefmt=fmt))
    return "\n\n".join(parts) + "\n"


def as_json(verdicts: Sequence[Verdict]) -> str:
    """Every verdict as JSON, one object per claim in manifest order: id, status, published, measured (as the
    summary shows it), ok (the measurement agrees with the entry), problem, reason.  ``locomo-repro report
    --verdicts`` reads it."""
    rows = [
        {"id": v.claim.id, "status": v.claim.status, "published": v.claim.published, "measured": v.shown,
         "ok": v.ok, "problem": v.problem, "reason": _one_line(v.claim.reason)}
        for v in verdicts
    ]
    return jsonio.dumps({"verdicts": rows}, ensure_ascii=False, indent=1) + "\n"


def _ids(verdicts: Sequence[Verdict]) -> str:
    """Claim ids for a table cell: all of them when few, else the first and last."""
    ids = [v.claim.id for v in verdicts]
    return ", ".join(ids) if len(ids) <= 5 else f"{ids[0]}, {ids[1]} … {ids[-1]} ({len(ids)})"


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def measured(manifest: Manifest, samples: Sequence[Any], data: str | os.PathLike[str] | None,
             progress: Progress | None = None, lab: Lab | None = None) -> list[Verdict]:
    """Every claim of ``manifest`` measured and judged, in manifest order, by a lab planned for all their runs
    (``lab``: one made already, planned here too).  ``progress`` counts the claims and says each measurement
    the lab makes (a new lab's; one given says them where it was told to)."""
    if lab is None:
        lab = Lab(samples, data, progress=progress.say if progress else None)
    for run in runs(manifest):
        lab.plan(run.settings)
    verdicts = []
    for claim in manifest.claims:
        verdicts.append(verdict(claim, lab, manifest))
        if progress is not None:
            progress.advance()
    return verdicts


def parser() -> flags.Parser:
    """This command's flags (the docs' commands are parsed with it)."""
    p = flags.Parser(prog="locomo-repro claims", description=DESCRIPTION)
    p.add_argument("--manifest", metavar="PATH", help="claims.yaml (default: $LOCOMO_CLAIMS, else the kit's own)")
    p.add_argument("--of", choices=list(MANIFESTS), default="readme",
                   help="the kit's manifest of a publication: readme (claims.yaml, the default), audit "
                        "(claims-audit.yaml: locomo-audit), plus (claims-plus.yaml: LoCoMo-Plus)")
    p.add_argument("--data", metavar="PATH", help="the dataset (default: LOCOMO_DATA, else the cache)")
    p.add_argument("--markdown", metavar="PATH", help="also write the summary as markdown to PATH")
    p.add_argument("--json", metavar="PATH", help="also write every verdict as JSON to PATH (for locomo-repro report)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro claims``: measure every claim, print the status table; exit 1 if any fails."""
    p = parser()
    args = p.parse(argv)
    outputs = [(flag, path) for flag, path in (("--markdown", args.markdown), ("--json", args.json)) if path]
    inputs = [("--manifest", args.manifest), ("--data", args.data or os.environ.get("LOCOMO_DATA"))]
    if problem := unwritable_all(outputs, inputs):  # refused before minutes of measuring; never over an input
        print(f"locomo-repro: {problem}", file=sys.stderr)
        return 2
    try:
        manifest = load(args.manifest or default_path(args.of))
        samples = dataset.load(args.data)
    except (ManifestError, dataset.DatasetError) as err:
        print(f"locomo-repro: {err}", file=sys.stderr)
        return 2
    with Progress("claims", len(manifest.claims), verb="measured") as progress:
        verdicts = measured(manifest, samples, args.data, progress)
    sys.stdout.write(summary(verdicts))
    others = sum(n.count for n in manifest.not_claims)
    head = (
        "# Claims of the published README, measured\n\n"
        f"Generated by `locomo-repro claims` from claims.yaml: {len(manifest.claims)} claims, and "
        f"{others} further numbers of the README listed as not claims (flag values, labels, figures of speech), "
        "each with its reason.\n\n"
    ) if args.of == "readme" or args.manifest else (
        f"# Claims of {PUBLISHED[args.of]}, measured\n\n"
        f"Generated by `locomo-repro claims --of {args.of}` from {MANIFESTS[args.of]}: {len(manifest.claims)} "
        f"claims, and {others} further numbers listed as not claims, each with its reason.\n\n"
    )
    try:
        files = [(args.markdown, (head + summary(verdicts, markdown=True)).encode("utf-8"))] if args.markdown else []
        files += [(args.json, as_json(verdicts).encode("utf-8"))] if args.json else []
        write_files(files)  # both or neither
    except OSError as err:
        print(f"locomo-repro: {err}", file=sys.stderr)
        return 2
    return 0 if all(v.ok for v in verdicts) else 1

