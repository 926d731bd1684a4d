"""Speed and memory of a benchmark command, measured as ``/usr/bin/time -v`` measures it.

``locomo-repro bench [--runs N] -- FLAGS…`` runs
``python -m locomo_repro FLAGS…`` in child processes, reads each child's resource usage (user + system CPU
seconds and peak resident memory) from ``wait4``, and prints the median and
the best run.

With no flags it measures the rows of the README's speed section instead (every
published command that prints a table, ``score.reference.FILES``, and the default
table over the dataset ten times over, made in a temporary folder with each copy's
sample ids suffixed) and prints a Markdown table of medians; with ``--vs CMD`` the
reference command (a built binary, say) is run on the same flags, alternating with
the kit run by run, and the table gives the ratios and names the worst row (the
highest share of the reference's CPU); ``--proof-runs N`` adds a table of
the commands that check every published number (the main test lane, the
claims, the report, ``pytest -k reach``), each run N times from the kit's
checkout, whole process tree; ``--judge-runs N`` adds the judge's row (``judge run`` over 1,540 replies
twice, ``-concurrency 32``, against a loopback judge answering in 200 ms, with the ideal wall time beside it);
``--readme FILE`` writes the tables between the file's ``<!-- bench -->`` and ``<!-- /bench -->`` lines.

The kit is measured as an installed kit runs, with its modules' bytecode cached: its children run with a
bytecode cache of their own (``steady``), whatever the caller's environment says (``PYTHONDONTWRITEBYTECODE``
would have every run compile the kit's modules again, some 0.06 s), and every command of the speed table is
run once, unmeasured, before it is measured.  The proof's commands run as the caller runs them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import cast

from ..go import flags as goflags
from ..data import jsonio
from ..data.atomic import unwritable, write_atomic
from ..data.dataset import items
from ..score.reference import FILES
from ..data.records import record

#: The kit's benchmark command.
KIT: tuple[str, ...] = (sys.executable, "-m", "locomo_repro")
#: The rows of the speed table: a label, whether it reads the dataset ten times over, and its flags: every
#: published command that prints a table (none that writes or reads a file), then the default table ten times over.
ROWS: tuple[tuple[str, bool, tuple[str, ...]], ...] = (
    *((f"`{' '.join(o.flags)}`" if o.flags else "default table", False, o.flags) for o in FILES
      if not o.command and not {"-out", "-stats"} & set(o.flags)),
    ("locomo10 ×10 (100 conversations)", True, ()),
)
#: The proof rows: the commands that check every published number, each run from the kit's checkout (its tests
#: and manifests) by this interpreter: a label and the arguments after the interpreter ("{out}": a temporary folder).
PROOF: tuple[tuple[str, tuple[str, ...]], ...] = (
    ('`tox` main lane (`pytest -q -m "not browser"`)', ("-m", "pytest", "-q", "-m", "not browser")),
    ("`locomo-repro claims`", ("-m", "locomo_repro", "claims")),
    ("`locomo-repro report`", ("-m", "locomo_repro", "report", "-o", "{out}/report.html")),
    ("`pytest -k reach`", ("-m", "pytest", "-q", "-k", "reach")),
)
#: The judge's row: replies judged, repeats, the loopback judge's answering time (s), requests at once.
JUDGE_REPLIES, JUDGE_REPEATS, JUDGE_DELAY, JUDGE_CONCURRENCY = 1540, 2, 0.2, 32
#: The lines around the table in the README.
BEGIN, END = "<!-- bench -->", "<!-- /bench -->"


@record
class Usage:
    """One run: CPU seconds (user + system), wall seconds, peak resident set in MiB."""

    cpu: float
    wall: float
    rss_mib: float


def steady(cache: str) -> dict[str, str]:
    """The environment a measured child runs in: this process's, with the bytecode the child compiles kept in
    the folder ``cache`` (``PYTHONPYCACHEPREFIX``) and ``PYTHONDONTWRITEBYTECODE`` left out, so that a run after
    the first reads its modules compiled."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


def _last_line(file) -> str:
    """The last line of ``file`` that is not blank, stripped ("" when there is none)."""
    file.seek(0)
    lines = file.read().decode("utf-8", "replace").splitlines()
    return next((line.strip() for line in reversed(lines) if line.strip()), "")


def measure(flags: Sequence[str], command: Sequence[str] = KIT, env: dict[str, str] | None = None) -> Usage:
    """Run ``command`` (the kit's benchmark unless told) once with ``flags`` in a child process, in the
    environment ``env`` (this process's unless told), and account for it.

    The child's stdout and stderr go to temporary files (a pipe could fill
    and stall the child while ``wait4`` waits); when the child fails, the
    last line of its stderr (of its stdout when its stderr is empty: a test
    session's summary, say) is part of the error.  CPU counts the child's own
    children that it waited for (worker processes); peak memory is the
    largest process's.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen([*command, *flags], stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            last = _last_line(err) or _last_line(out)
            name = "locomo-repro" if tuple(command) == KIT else shlex.join(command)
            raise SystemExit(f"{name} {' '.join(flags)} exited with status {child.returncode}"
                             + (f": {last}" if last else ""))
    return Usage(usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024)


def tenfold(source: Path, folder: Path) -> Path:
    """The dataset ten times over, written in ``folder``: copy ``r`` of a sample has ``-r`` after its id.

    It is written a sample at a time, so that this process stays small: the
    peak memory ``wait4`` reports for a child counts the image the child was
    started from, which is this process's.
    """
    out = folder / "locomo10x10.json"
    with out.open("w", encoding="utf-8") as f:
        for r in range(10):
            for i, s in enumerate(cast(Iterator[dict], items(source))):
                f.write("[" if r == i == 0 else ", ")
                f.write(json.dumps({**s, "sample_id": f"{s['sample_id']}-{r}"}))
        f.write("]")
    return out


@record
class Row:
    """One row of the speed table: the kit's runs and the reference's (none without ``--vs``)."""

    label: str
    kit: list[Usage]
    ref: list[Usage]


def rows(runs: int, vs: Sequence[str], data: Path, only: int = 0, env: dict[str, str] | None = None) -> list[Row]:
    """Every row of ``ROWS`` measured ``runs`` times, the kit and ``vs`` alternating (``vs`` first every
    other run), both given ``-data`` and the row's flags (and ``-only``, when above 0) and run in ``env``;
    each command is run once, unmeasured, before its row is measured."""
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for label, ten, flags in ROWS:
            given = ["-data", str(tenfold(data, Path(folder)) if ten else data), *flags]
            given += ["-only", str(only)] if only else []
            kit: list[Usage] = []
            ref: list[Usage] = []
            for command in (KIT, vs):
                if command:
                    measure(given, command, env)  # a warm start: its bytecode compiled, its files read once
            for run in range(runs):
                turns = [(kit, KIT), (ref, vs)] if run % 2 == 0 else [(ref, vs), (kit, KIT)]
                for into, command in turns:
                    if command:
                        into.append(measure(given, command, env))
            out.append(Row(label, kit, ref))
    return out


def proof(runs: int) -> list[Row]:
    """Every row of ``PROOF`` measured ``runs`` times, run from the current folder (the kit's checkout)."""
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for label, words in PROOF:
            given = [w.replace("{out}", folder) for w in words]
            out.append(Row(label, [measure(given, (sys.executable,)) for _ in range(runs)], []))
    return out


@contextlib.contextmanager
def slow_judge(delay: float) -> Iterator[str]:
    """A chat-completions endpoint on 127.0.0.1 (its base URL) that answers every request ``{"label":
    "CORRECT"}`` after ``delay`` seconds, a thread per request, for as long as the block runs."""
    reply = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": '{"label": "CORRECT"}'}}]})

    class Judge(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            time.sleep(delay)
            body = reply.encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        request_queue_size = 4 * JUDGE_CONCURRENCY  # every request at once waits in the queue, none refused
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Judge)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def judge_ideal() -> float:
    """The judge row's ideal wall time: every judgement's answering time, ``JUDGE_CONCURRENCY`` at once."""
    return JUDGE_REPLIES * JUDGE_REPEATS * JUDGE_DELAY / JUDGE_CONCURRENCY


def judged(runs: int, env: dict[str, str] | None = None) -> Row:
    """``judge run`` over ``JUDGE_REPLIES`` replies (ten conversations, one arm, a template of the bench's own)
    ``JUDGE_REPEATS`` times against :func:`slow_judge`, measured ``runs`` times in ``env``, each with a memo
    folder of its own (a second run would ask nothing)."""
    qa = [{"question": f"Question {i}?", "answer": f"gold {i}", "category": 1 + i % 4, "evidence": [],
           "bench_prediction": f"reply {i}"} for i in range(JUDGE_REPLIES)]
    per = -(-JUDGE_REPLIES // 10)
    with tempfile.TemporaryDirectory() as folder, slow_judge(JUDGE_DELAY) as base:
        answers, template = Path(folder) / "answers.json", Path(folder) / "judge.txt"
        answers.write_text(json.dumps([{"sample_id": f"conv-{c}", "qa": qa[c * per:(c + 1) * per]} for c in range(10)]))
        template.write_text("Q: {question}\nGOLD: {gold_answer}\nGEN: {generated_answer}\n")
        kit = [measure(["judge", "run", str(answers), "-prompt", str(template), "-model", "bench", "-base", base,
                        "-o", f"{folder}/judged.json", "-memo", f"{folder}/memo-{run}", "-repeats", str(JUDGE_REPEATS),
                        "-concurrency", str(JUDGE_CONCURRENCY)], KIT, env) for run in range(runs)]
    return Row(f"`judge run`: {JUDGE_REPLIES * JUDGE_REPEATS:,} judgements, {JUDGE_DELAY * 1000:.0f} ms each, "
               f"`-concurrency {JUDGE_CONCURRENCY}` (ideal {judge_ideal():.2f} s)", kit, [])


def markdown(measured: Sequence[Row], runs: int, vs: Sequence[str]) -> str:
    """The speed table: medians per row, and with a reference the kit's share of its CPU and wall time."""
    med = statistics.median
    head = f"Median of {runs} run{'s' if runs > 1 else ''} on {os.cpu_count()} cores, whole process (workers included)"
    if not vs:
        lines = [head + ".", "", "| run | CPU | wall | peak |", "|---|---|---|---|"]
        lines += [f"| {r.label} | {med(u.cpu for u in r.kit):.2f} s | {med(u.wall for u in r.kit):.2f} s | "
                  f"{med(u.rss_mib for u in r.kit):,.0f} MiB |" for r in measured]
        return "\n".join(lines) + "\n"
    lines = [f"{head}, alternating with `{shlex.join(vs)}`.", "",
             "| run | kit CPU | ref CPU | ratio | kit wall / ref wall | kit peak | ref peak |",
             "|---|---|---|---|---|---|---|"]
    shares = []
    for r in measured:
        kit_cpu, ref_cpu = med(u.cpu for u in r.kit), med(u.cpu for u in r.ref)
        wall = med(u.wall for u in r.kit) / med(u.wall for u in r.ref)
        shares.append((kit_cpu / ref_cpu, wall, r.label))
        lines.append(f"| {r.label} | {kit_cpu:.2f} s | {ref_cpu:.2f} s | {kit_cpu / ref_cpu:.2f}× | {wall:.2f}× | "
                     f"{med(u.rss_mib for u in r.kit):,.0f} MiB | {med(u.rss_mib for u in r.ref):,.0f} MiB |")
    if shares:
        cpu, wall, label = max(shares, key=lambda share: share[0])  # the first of equal shares
        lines += ["", f"The worst row is {label}: {cpu:.2f}× the reference's CPU, {wall:.2f}× its wall time."]
    return "\n".join(lines) + "\n"


def readme_block(readme: Path) -> tuple[list[str], int, int]:
    """The lines of ``readme`` and where its ``BEGIN`` and ``END`` lines stand; SystemExit with one line naming
    the file when it cannot be read or has no such lines in that order (checked before anything is measured)."""
    try:
        lines = jsonio.read_text(readme).splitlines(keepends=True)
    except jsonio.InputError as err:
        raise SystemExit(str(err)) from None
    try:
        start, stop = lines.index(BEGIN + "\n"), lines.index(END + "\n")
    except ValueError:
        raise SystemExit(f"{readme}: no {BEGIN} … {END} lines to write the table between") from None
    if stop < start:
        raise SystemExit(f"{readme}: {END} comes before {BEGIN}")
    if problem := unwritable(readme):
        raise SystemExit(f"{readme}: {problem}")
    return lines, start, stop


def into_readme(readme: Path, text: str) -> None:
    """Put ``text`` between the ``BEGIN`` and ``END`` lines of ``readme``, in place of what was there."""
    lines, start, stop = readme_block(readme)
    write_atomic(readme, "".join([*lines[: start + 1], text, *lines[stop:]]).encode("utf-8"))


def parser() -> goflags.Parser:
    """This command's flags (the docs' commands are parsed with it)."""
    p = goflags.Parser(prog="locomo-repro bench", description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5, help="how many runs (default 5)")
    p.add_argument("--vs", metavar="CMD", default="",
                   help="with no flags: also run this reference command (a built binary, say), alternating")
    p.add_argument("--readme", metavar="FILE", type=Path,
                   help=f"with no flags: write the table between the {BEGIN} and {END} lines of FILE")
    p.add_argument("--only", type=int, default=0, metavar="N",
                   help="with no flags: give every command -only N (a quick look)")
    p.add_argument("--proof-runs", type=int, default=0, metavar="N",
                   help="with no flags: also run the main test lane, the claims, the report and pytest -k reach "
                        "N times each, from the kit's checkout (the current folder)")
    p.add_argument("--judge-runs", type=int, default=0, metavar="N",
                   help="with no flags: also run judge run against a loopback judge answering in 200 ms N times")
    p.add_argument("flags", nargs=argparse.REMAINDER,
                   help="flags for locomo-repro, after --; none: the speed table's rows")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    args = p.parse(argv)
    if args.runs < 1 or args.proof_runs < 0 or args.judge_runs < 0:
        which = f"--runs must be at least 1, got {args.runs}" if args.runs < 1 else \
            f"--proof-runs takes a count of 0 or more, got {args.proof_runs}" if args.proof_runs < 0 else \
            f"--judge-runs takes a count of 0 or more, got {args.judge_runs}"
        print(f"{p.prog}: error: {which}", file=sys.stderr)
        return 2
    flags = [f for f in args.flags if f != "--"]
    if not flags:
        from ..data.dataset import resolve

        vs = shlex.split(args.vs)
        if vs and shutil.which(vs[0]) is None:
            print(f"{p.prog}: error: --vs {args.vs}: no such command", file=sys.stderr)
            return 2
        if args.readme:
            try:
                readme_block(args.readme)  # before minutes of measuring
            except SystemExit as err:
                print(f"{p.prog}: error: {err.code}", file=sys.stderr)
                return 2
        if args.proof_runs and not (Path("tests").is_dir() and Path("claims.yaml").is_file()):
            print(f"{p.prog}: error: --proof-runs runs the kit's tests: run it from the kit's checkout "
                  f"(tests/ and claims.yaml in the current folder)", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory() as cache:
            env = steady(cache)
            text = markdown(rows(args.runs, vs, resolve(), args.only, env), args.runs, vs)
            if args.proof_runs:
                text += "\nThe proof, from the kit's checkout:\n\n" + markdown(proof(args.proof_runs), args.proof_runs, ())
            if args.judge_runs:
                text += ("\nThe judge, against a loopback judge:\n\n"
                         + markdown([judged(args.judge_runs, env)], args.judge_runs, ()))
        print(text, end="")
        if args.readme:
            into_readme(args.readme, text)
        return 0
    with tempfile.TemporaryDirectory() as cache:
        env = steady(cache)
        measure(flags, KIT, env)  # a warm start, as each row of the table has
        runs = [measure(flags, KIT, env) for _ in range(args.runs)]
    label = " ".join(["locomo-repro", *flags])
    print(f"{label}: {len(runs)} runs")
    for name, pick in (("median", statistics.median), ("best", min)):
        print(
            f"  {name:<6}  cpu {pick(r.cpu for r in runs):5.2f} s   wall {pick(r.wall for r in runs):5.2f} s   "
            f"peak rss {pick(r.rss_mib for r in runs):6.1f} MiB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
