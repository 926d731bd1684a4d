"""The field's LLM judges, each read at run time from its own source: what it is shown, how its request is
built, and how its reply is read into a label and a score.

A :class:`Judge` is a name, its templates (by the question type they serve), the sha256 of those templates,
how one reply becomes a request (``build``: the messages and the body's fields) and how the judge's text
becomes a label and a score (``parse``: a ValueError when no label can be read, a failed attempt).  The
templates and the request's literal settings are read from the judge's source as text (Python through
``ast``, YAML as data): the kit ships none of them and runs none.  The parse rules are the kit's, each a
port of its source's own rule at the pinned commit (the sha256 pins the source it was written against).

The sources are pinned by commit and sha256 (:data:`SOURCES`) and fetched once from raw.githubusercontent.com
into the cache (``${XDG_CACHE_HOME:-~/.cache}/locomo-repro/judges/<owner>/<repo>/<path>``), or read from a
copy laid out the same way under ``$LOCOMO_JUDGE_SOURCES``; a file whose sha256 is not the pinned one is
refused.  ``refined`` reads LoCoMo-Refined's ``src/llm_judge.py`` from the user's checkout (Refined's
licence keeps it out of any fetch), and ``--prompt FILE`` is a template of the user's own.

Judges and what they judge (LoCoMo's categories: 1 multi hop, 2 temporal, 3 open domain, 4 single hop,
5 adversarial):

* ``mem0`` (mem0ai/mem0 ``evaluation/metrics/llm_judge.py``): ``ACCURACY_PROMPT`` filled by ``str.format``
  with question, gold and reply, one user message, the body's ``response_format`` and ``temperature`` as
  its ``create`` call writes them; the label is ``json.loads(extract_json(reply))["label"]``, 1 when it is
  ``CORRECT``, else 0.  Categories 1-4 (its harness skips 5).
* ``longmemeval`` (xiaowu0162/LongMemEval ``src/evaluation/evaluate_qa.py``): ``get_anscheck_prompt``'s
  template of the question's type, filled positionally with question, answer and reply; the body's ``n``,
  ``temperature`` and ``max_tokens`` as its ``kwargs`` literal writes them; 1 when ``yes`` is in the
  lowercased reply.  LoCoMo's categories are mapped onto its types (:data:`LONGMEMEVAL_TYPES`): single hop
  onto ``single-session-user`` (a fact one speaker said once), multi hop and open domain onto
  ``multi-session`` (facts gathered across sessions; the same template's text), temporal onto
  ``temporal-reasoning`` (its off-by-one leniency for counted days), and adversarial onto its abstention
  template, whose explanation is LoCoMo's own right answer to a category-5 question, "Not mentioned in the
  conversation" (snap-research/locomo ``task_eval``'s category-5 prompt).  ``knowledge-update`` and
  ``single-session-preference`` serve no LoCoMo question (none updates a fact, none has a rubric).
* ``evermemos`` (EverMemOS's ``evaluation/config/prompts.yaml`` as dial481/locomo-audit pins it):
  ``llm_judge.system_prompt`` and ``llm_judge.user_prompt`` (its fields replaced, not formatted), a
  system and a user message, temperature 0, and the label read by EverMemOS's ``_extract_json`` and
  ``label.strip().upper() == "CORRECT"`` (EverMemOS's ``llm_judge.py`` as locomo-audit's ``fc_eval.py``
  ports it).  Categories 1-4 (both skip 5).
* ``locomo-plus`` (xjtuleeyf/Locomo-Plus ``evaluation_framework/task_eval/``): ``PROMPT_TEMPLATES`` of the
  category's name (``LOCOMO_CATEGORY_NAMES`` of ``data/unified_input.py``) filled with gold, reply and the
  evidence turns as ``Speaker：text`` lines, sent as ``call_llm`` sends it (``CONV_START_PROMPT`` with the
  names A and B before it, one user message) with ``llm_as_judge.py``'s default temperature and max
  tokens; the label is ``_parse_judge_response``'s, scored by ``LABEL_TO_SCORE`` (correct 1, partial 0.5,
  wrong 0).  All five categories, and LoCoMo-Plus's sixth (cognitive) with its own template.
* ``refined``: Refined's ``JUDGE_PROMPTS["refined"]``, one user message, temperature 0 and
  ``enable_thinking: false`` while the server takes it; 1 when the first JSON object says ``CORRECT``.
  Categories 1-4 (Refined gives category 5 no gold answer).
* ``--prompt FILE``: ``{question}``, ``{gold_answer}``, ``{generated_answer}`` filled, one user message,
  temperature 0; the first JSON object's ``label``: ``CORRECT`` 1, ``PARTIAL`` 0.5, ``WRONG`` 0, any other a
  failed judgement.  Categories 1-4.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import string
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..data import dataset, jsonio
from ..data.categories import COGNITIVE, LOCOMO
from ..data.dataset import ANSWERABLE

ENV = "LOCOMO_JUDGE_SOURCES"

#: The fields a mem0-style template (Refined's, mem0's, a user's) is filled with.
FIELDS = ("question", "gold_answer", "generated_answer")

#: What LoCoMo's own prompts give as the right answer to a category-5 question (snap-research/locomo task_eval).
NOT_MENTIONED = "Not mentioned in the conversation"

#: LongMemEval's question type for each LoCoMo category (see the module's docstring).
LONGMEMEVAL_TYPES = {4: "single-session-user", 1: "multi-session", 3: "multi-session",
                     2: "temporal-reasoning", 5: "abstention"}


class PromptError(jsonio.InputError):
    """A judge that cannot be had: an unknown name, a source missing, not the pinned one, or a template
    without its fields; one line naming the file."""


@dataclass(frozen=True)
class Source:
    """One pinned file of a judge's source: repository, commit, path and sha256."""

    repo: str
    commit: str
    path: str
    sha256: str

    @property
    def url(self) -> str:
        return f"https://raw.githubusercontent.com/{self.repo}/{self.commit}/{self.path}"

    @property
    def local(self) -> str:
        """Where it lives under the cache or ``$LOCOMO_JUDGE_SOURCES``: ``<owner>/<repo>/<path>``."""
        return f"{self.repo}/{self.path}"

    def __str__(self) -> str:
        return f"{self.repo}@{self.commit[:8]}:{self.path}"


_MEM0 = ("mem0ai/mem0", "b3ede5b7c0ac0e847b03786a603c107ac943b3ee")
_LME = ("xiaowu0162/LongMemEval", "d6dc8b50a2d9ac0c99485ea28fa5755c62414c34")
_AUDIT = ("dial481/locomo-audit", "9493fb4b4af4256ed17a18e8fd0b3cfdeec29539")
_PLUS = ("xjtuleeyf/Locomo-Plus", "059f4e3d38f7f1f96765e8e2cb7de3097551bffb")

#: Every pinned source, by judge.
SOURCES: dict[str, tuple[Source, ...]] = {
    "mem0": (Source(*_MEM0, "evaluation/metrics/llm_judge.py",
                    "ac2e242f6ea0b817ba1b229ff9e5271f6846b7b8a9aefa8a5a5a81ea58df3b3c"),),
    "longmemeval": (Source(*_LME, "src/evaluation/evaluate_qa.py",
                           "ecce9c4c79dc89d99534ac17b383a5cbb5b9f0c69ee98adaf0684742e3d95251"),),
    "evermemos": (Source(*_AUDIT, "evaluation/config/prompts.yaml",
                         "ba4f668e72c3fba74a58b8ee56064568fb9c6aae1441e4f0f7a8f5edba498ee9"),),
    "locomo-plus": (
        Source(*_PLUS, "evaluation_framework/task_eval/prompt.py",
               "e43e3ee7115a30938e727fe0eab16694186c08e3f9619f9d8dd5e603d96fc2b1"),
        Source(*_PLUS, "evaluation_framework/task_eval/llm_as_judge.py",
               "9ca4997392b1e97a03635379ca601ec5fadfe09ead471542f10433f9af071a33"),
        Source(*_PLUS, "evaluation_framework/task_eval/utils.py",
               "55fb916e46ac10a521670f96594abd117dfc63b1342ca67e81a2fab6780233a5"),
        Source(*_PLUS, "data/unified_input.py",
               "cb0614d72c897834cc41e9f62c8c2d528ec8dd4f38c3fafcda061a60ab51beac"),
    ),
}

#: The judges ``judge run --judge`` knows, in the order help lists them.
NAMES = ("mem0", "longmemeval", "evermemos", "locomo-plus", "refined")


@dataclass(frozen=True)
class Item:
    """What a judge is shown of one reply: the question, its gold answer, the reply, the question's category
    and its evidence turns as ``Speaker：text`` lines (only ``locomo-plus`` shows them)."""

    question: str
    gold: str
    reply: str
    category: int
    evidence: str = ""


@dataclass(frozen=True)
class Request:
    """One judgement's request: the messages and the body's other fields."""

    messages: tuple[dict[str, str], ...]
    params: dict[str, Any]


@dataclass(frozen=True)
class Judge:
    """One judge, read from its source (see the module's docstring)."""

    name: str
    source: str
    templates: Mapping[str, str]
    build: Callable[[Item], Request]
    parse: Callable[[str], tuple[str, float]]
    categories: tuple[int, ...] = ANSWERABLE
    #: Body fields sent only while the server takes them (``ask.Asker`` drops one it refuses).
    optional: tuple[str, ...] = ()
    prompt_sha256: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "prompt_sha256", templates_sha256(self.templates))


def templates_sha256(templates: Mapping[str, str]) -> str:
    """The sha256 of a judge's prompt: of its one template's UTF-8 text, or, for a judge with several, of the
    JSON object of them by key (keys sorted, UTF-8, no spaces)."""
    if len(templates) == 1:
        body = next(iter(templates.values())).encode()
    else:
        body = json.dumps(dict(templates), sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    return hashlib.sha256(body).hexdigest()


# --- sources -----------------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where fetched sources are kept: ``judges/`` beside the dataset's cached copy."""
    return dataset.cache_path().parent / "judges"


def _fetch(source: Source, timeout: float = 30.0) -> bytes:
    print(f"fetching {source.url}", file=sys.stderr)
    try:
        with urllib.request.urlopen(source.url, timeout=timeout) as response:
            return response.read()
    except (urllib.error.URLError, OSError) as err:
        why = " ".join(str(getattr(err, "reason", None) or err).split())
        raise PromptError(f"{source.url}: cannot download ({why}); point {ENV} at a copy "
                          f"(<folder>/{source.local})") from None


def source_texts(name: str) -> dict[str, str]:
    """The text of each pinned file of judge ``name``, by path: from ``$LOCOMO_JUDGE_SOURCES`` when set, else
    the cache, fetched there (every file verified, then each written atomically) when missing or stale."""
    folder = Path(os.environ[ENV]) if os.environ.get(ENV) else None
    bodies: dict[Source, bytes] = {}
    fetched: dict[Path, bytes] = {}
    for source in SOURCES[name]:
        where = (folder or cache_dir()) / source.local
        body = None
        if folder is not None or where.is_file():
            try:
                body = jsonio.read(where).raw
            except jsonio.InputError as err:
                if folder is not None:
                    raise PromptError(f"{err} (judge {name}'s source {source}, from {ENV})") from None
        if body is not None and (got := hashlib.sha256(body).hexdigest()) != source.sha256:
            if folder is not None:
                raise PromptError(f"{where}: sha256 {got}, expected {source.sha256} (not the pinned {source})")
            body = None  # a stale cache is fetched again
        if body is None:
            body = _fetch(source)
            if (got := hashlib.sha256(body).hexdigest()) != source.sha256:
                raise PromptError(f"{source.url}: sha256 {got}, expected {source.sha256}; nothing written")
            fetched[where] = body
        bodies[source] = body
    for where, body in fetched.items():
        dataset.write_atomic(where, body)
    texts = {}
    for source, body in bodies.items():
        try:
            texts[source.path] = body.decode("utf-8")
        except UnicodeDecodeError:
            raise PromptError(f"{source}: not UTF-8") from None
    return texts


# --- reading Python sources as data ------------------------------------------------------------


def _tree(text: str, where: str) -> ast.Module:
    try:
        return ast.parse(text)
    except SyntaxError as exc:
        raise PromptError(f"{where}: not valid Python (line {exc.lineno})") from None


def assigned(tree: ast.AST, name: str, where: str) -> Any:
    """The literal value assigned to ``name`` at the top of a module (read with ``ast.literal_eval``, never run)."""
    for node in getattr(tree, "body", []):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and node.value is not None:
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                raise PromptError(f"{where}: {name} is not a literal") from None
    raise PromptError(f"{where}: no {name}")


def _function(tree: ast.Module, name: str, where: str) -> ast.FunctionDef:
    found = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if found is None:
        raise PromptError(f"{where}: no function {name}")
    return found


def _literal_keywords(call: ast.Call) -> dict[str, Any]:
    """The keyword arguments of a call whose values are literals."""
    out = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            continue
        try:
            out[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError:
            continue
    return out


# --- templates ---------------------------------------------------------------------------------


def _named_fields(template: str, where: str) -> set[str]:
    """The ``str.format`` fields of ``template``, each a plain ``{name}`` (a conversion or a format spec would
    fail or blow up on the judge's text)."""
    try:
        parsed = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(template)
                  if name is not None]
    except ValueError as exc:
        raise PromptError(f"{where}: not a usable prompt template ({exc})") from None
    for name, spec, conversion in parsed:
        if spec or conversion:
            shown = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            shown = shown if len(shown) <= 40 else shown[:40] + "…"
            raise PromptError(f"{where}: placeholder {shown} has a conversion or format spec; "
                              "the judge fills plain {question}, {gold_answer}, {generated_answer}")
    return {name for name, _, _ in parsed}


def check_template(template: str, origin: str, fields: tuple[str, ...] = FIELDS,
                   needed: tuple[str, ...] | None = None) -> str:
    """``template`` if its ``str.format`` fields are among ``fields`` and hold every one of ``needed`` (all of
    ``fields`` unless said), each a plain ``{name}``; PromptError otherwise."""
    names = _named_fields(template, origin)
    extra = names - set(fields)
    missing = set(fields if needed is None else needed) - names
    if extra:
        raise PromptError(f"{origin}: unknown placeholder(s) {', '.join('{%s}' % n for n in sorted(extra))}")
    if missing:
        raise PromptError(f"{origin}: missing placeholder(s) {', '.join('{%s}' % n for n in sorted(missing))}")
    return template


def _positional(template: str, count: int, where: str) -> str:
    """``template`` if it has exactly ``count`` plain ``{}`` fields (LongMemEval's positional format)."""
    try:
        parsed = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(template) if name is not None]
    except ValueError as exc:
        raise PromptError(f"{where}: not a usable prompt template ({exc})") from None
    if len(parsed) != count or any(name or spec or conv for name, spec, conv in parsed):
        raise PromptError(f"{where}: expected {count} plain {{}} fields, found {len(parsed)}")
    return template


# --- replies -----------------------------------------------------------------------------------


def _strip_fence(text: str) -> str:
    """The inside of a reply wrapped whole in a ``` code fence; other text stripped, unchanged."""
    text = (text or "").strip()
    if not text.startswith("```"):
        return text
    lines = text.splitlines()
    if len(lines) >= 2 and lines[-1].strip() == "```":
        return "\n".join(lines[1:-1]).strip()
    return text


def first_json_object(text: str) -> str:
    """The first balanced ``{…}`` of a reply, braces inside JSON strings ignored (Refined's rule).

    As in Refined, a backslash escapes the next character even outside a string.
    """
    body = _strip_fence(text).strip()
    in_string = escaped = False
    depth = 0
    start = None
    for index, ch in enumerate(body):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            in_string = not in_string
        elif in_string:
            continue
        elif ch == "{":
            if depth == 0:
                start = index
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0 and start is not None:
                return body[start:index + 1]
    raise ValueError("no JSON object in the judge's reply")


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("the judge's reply nests too deeply") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"the judge's reply is not JSON ({exc.msg})") from None


def _label_of(text: str) -> str:
    """The ``label`` of the reply's first JSON object, as text (``""`` when there is none)."""
    payload = _json(first_json_object(text))
    return str(payload.get("label", "")) if isinstance(payload, dict) else ""


def parse_label(text: str) -> int:
    """Refined's label: 1 when the reply's first JSON object says ``"label": "CORRECT"`` (case and spaces
    ignored), else 0; ValueError when there is no readable object."""
    return 1 if _label_of(text).strip().upper() == "CORRECT" else 0


def _refined_parse(text: str) -> tuple[str, float]:
    score = parse_label(text)
    return ("CORRECT" if score else "WRONG"), float(score)


_GRADED = {"CORRECT": 1.0, "PARTIAL": 0.5, "WRONG": 0.0}


def _user_parse(text: str) -> tuple[str, float]:
    label = _label_of(text).strip().upper()
    if label not in _GRADED:
        raise ValueError(f"the judge's label {label[:40]!r} is none of CORRECT, PARTIAL, WRONG")
    return label, _GRADED[label]


def mem0_extract_json(text: str) -> str:
    """mem0's ``extract_json`` (mem0/memory/utils.py): a fenced block's inside, else the first ``{`` to the
    last ``}``, else the text, stripped."""
    text = text.strip()
    match = re.search(r"```(?:json)?\s*(.*?)\s*```", text, re.DOTALL)
    if match:
        return match.group(1)
    start, end = text.find("{"), text.rfind("}")
    return text[start:end + 1] if start != -1 and end != -1 and end > start else text


def _mem0_parse(text: str) -> tuple[str, float]:
    payload = _json(mem0_extract_json(text))
    if not isinstance(payload, dict) or "label" not in payload:
        raise ValueError("the judge's reply has no label")
    label = payload["label"]
    return str(label), 1.0 if label == "CORRECT" else 0.0


def evermemos_extract_json(text: str) -> str:
    """EverMemOS's ``_extract_json``: a fenced ``{…}``, else a flat object holding ``"label"``, else the text."""
    fenced = re.search(r"```(?:json)?\s*(\{[^`]*\})\s*```", text, re.DOTALL)
    if fenced:
        return fenced.group(1).strip()
    flat = re.search(r'\{[^{}]*"label"\s*:\s*"[^"]*"[^{}]*\}', text)
    return flat.group(0) if flat else text.strip()


def _evermemos_parse(text: str) -> tuple[str, float]:
    if not text:
        raise ValueError("the judge's reply is empty")
    payload = _json(evermemos_extract_json(text))
    label = payload.get("label", "") if isinstance(payload, dict) else ""
    if not isinstance(label, str) or not label.strip():
        raise ValueError("the judge's reply has no label")
    return label, 1.0 if label.strip().upper() == "CORRECT" else 0.0


def _longmemeval_parse(text: str) -> tuple[str, float]:
    said = text.strip()
    if not said:
        raise ValueError("the judge's reply is empty")
    return said, 1.0 if "yes" in said.lower() else 0.0


_PLUS_LABEL = re.compile(r'\{[^{}]*"label"\s*:\s*["\']([^"\']+)["\'][^{}]*"reason"\s*:\s*["\']([^"\']*)["\']',
                         re.DOTALL)


def plus_label(raw: str) -> str:
    """LoCoMo-Plus's ``_parse_judge_response`` label: the label of a ``{"label": …, "reason": …}`` object, else
    the ``label`` of the reply read as JSON, else (the reply no JSON object) the first of "correct", "wrong",
    "partial" found in the lowercased reply (so "incorrect" reads "correct", as in the source)."""
    raw = (raw or "").strip()
    match = _PLUS_LABEL.search(raw)
    if match:
        return match.group(1).strip()
    try:
        payload = json.loads(raw)
        return (payload.get("label") or "").strip()
    except Exception:  # noqa: BLE001 - the source's own rule: any failure falls back to the word search
        low = raw.lower()
        return next((word for word in ("correct", "wrong", "partial") if word in low), "")


# --- the judges --------------------------------------------------------------------------------


def _one_user(text: str) -> tuple[dict[str, str], ...]:
    return ({"role": "user", "content": text},)


def _mem0(texts: dict[str, str]) -> Judge:
    (source,) = SOURCES["mem0"]
    where = str(source)
    tree = _tree(texts[source.path], where)
    template = check_template(assigned(tree, "ACCURACY_PROMPT", where), f"{where} [ACCURACY_PROMPT]")
    create = next((n for n in ast.walk(_function(tree, "evaluate_llm_judge", where))
                   if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "create"), None)
    if create is None:
        raise PromptError(f"{where}: evaluate_llm_judge makes no create call")
    params = {k: v for k, v in _literal_keywords(create).items() if k not in ("model", "messages")}  # the kit's

    def build(item: Item) -> Request:
        return Request(_one_user(template.format(question=item.question, gold_answer=item.gold,
                                                 generated_answer=item.reply)), dict(params))

    return Judge("mem0", where, {"ACCURACY_PROMPT": template}, build, _mem0_parse)


def _longmemeval(texts: dict[str, str]) -> Judge:
    (source,) = SOURCES["longmemeval"]
    where = str(source)
    tree = _tree(texts[source.path], where)
    function = _function(tree, "get_anscheck_prompt", where)
    templates: dict[str, str] = {}

    def template_in(body: list[ast.stmt]) -> str | None:
        for node in body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "template" for t in node.targets):
                value = ast.literal_eval(node.value)
                return value if isinstance(value, str) else None
        return None

    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
                and isinstance(node.test.left, ast.Name) and node.test.left.id == "task"):
            continue
        kinds = ast.literal_eval(node.test.comparators[0])
        text = template_in(node.body)
        for kind in [kinds] if isinstance(kinds, str) else kinds:
            if text is not None:
                templates[kind] = text
    top = next((n for n in function.body if isinstance(n, ast.If)), None)
    if top is not None and (text := template_in(top.orelse)) is not None:
        templates["abstention"] = text
    missing = sorted(set(LONGMEMEVAL_TYPES.values()) - set(templates))
    if missing:
        raise PromptError(f"{where}: get_anscheck_prompt has no template for {', '.join(missing)}")
    templates = {kind: _positional(text, 3, f"{where} [{kind}]") for kind, text in templates.items()}
    params: dict[str, Any] = {}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "kwargs" for t in node.targets)
                and isinstance(node.value, ast.Dict)):
            for key, value in zip(node.value.keys, node.value.values):
                try:
                    params[ast.literal_eval(key)] = ast.literal_eval(value)  # type: ignore[arg-type]
                except ValueError:
                    continue  # model and messages: the kit's own
    if not params:
        raise PromptError(f"{where}: no kwargs literal of the request")

    def build(item: Item) -> Request:
        kind = LONGMEMEVAL_TYPES[item.category]
        answer = NOT_MENTIONED if kind == "abstention" else item.gold
        return Request(_one_user(templates[kind].format(item.question, answer, item.reply)), dict(params))

    return Judge("longmemeval", where, templates, build, _longmemeval_parse, categories=LOCOMO)


def _evermemos(texts: dict[str, str]) -> Judge:
    import yaml

    (source,) = SOURCES["evermemos"]
    where = str(source)
    try:
        config = yaml.safe_load(texts[source.path])
        system, user = config["llm_judge"]["system_prompt"], config["llm_judge"]["user_prompt"]
    except (yaml.YAMLError, KeyError, TypeError):
        raise PromptError(f"{where}: no llm_judge.system_prompt and user_prompt") from None
    if not isinstance(system, str) or not isinstance(user, str):
        raise PromptError(f"{where}: llm_judge's prompts are not text")
    missing = [f for f in ("{question}", "{golden_answer}", "{generated_answer}") if f not in user]
    if missing:
        raise PromptError(f"{where} [llm_judge.user_prompt]: missing placeholder(s) {', '.join(missing)}")

    def build(item: Item) -> Request:
        filled = (user.replace("{question}", item.question).replace("{golden_answer}", item.gold)
                  .replace("{generated_answer}", item.reply))
        return Request(({"role": "system", "content": system}, {"role": "user", "content": filled}),
                       {"temperature": 0})

    return Judge("evermemos", where, {"system_prompt": system, "user_prompt": user}, build, _evermemos_parse)


def _argparse_default(tree: ast.Module, flag: str, where: str) -> Any:
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == flag):
            keywords = _literal_keywords(node)
            if "default" in keywords:
                return keywords["default"]
    raise PromptError(f"{where}: no default for {flag}")


def _locomo_plus(texts: dict[str, str]) -> Judge:
    prompt, judge, utils, unified = SOURCES["locomo-plus"]
    templates = assigned(_tree(texts[prompt.path], str(prompt)), "PROMPT_TEMPLATES", str(prompt))
    judge_tree = _tree(texts[judge.path], str(judge))
    scores = assigned(judge_tree, "LABEL_TO_SCORE", str(judge))
    utils_tree = _tree(texts[utils.path], str(utils))
    start = assigned(utils_tree, "CONV_START_PROMPT", str(utils))
    prefix = _function(utils_tree, "_prepend_conv_prefix", str(utils))
    names = [ast.literal_eval(d) for d in prefix.args.defaults]
    unified_tree = _tree(texts[unified.path], str(unified))
    names_by_category = assigned(unified_tree, "LOCOMO_CATEGORY_NAMES", str(unified))
    sixth = assigned(unified_tree, "CATEGORY_SIXTH", str(unified))  # its cognitive items' template
    temperature = _argparse_default(judge_tree, "--temperature", str(judge))
    max_tokens = _argparse_default(judge_tree, "--max-tokens", str(judge))
    if not (isinstance(templates, dict) and isinstance(scores, dict) and isinstance(start, str)
            and isinstance(names_by_category, dict) and isinstance(sixth, str) and len(names) == 2):
        raise PromptError(f"{prompt}: PROMPT_TEMPLATES, LABEL_TO_SCORE, CONV_START_PROMPT or the category names "
                          "are not what the judge reads")
    names_by_category = {**names_by_category, COGNITIVE.number: sixth}
    for category in (*LOCOMO, COGNITIVE.number):
        kind = names_by_category.get(category)
        if kind not in templates:
            raise PromptError(f"{prompt}: no template for category {category} ({kind!r})")
    checked = {kind: check_template(text, f"{prompt} [{kind}]", ("gold", "pred", "evidence"), ("pred",))
               for kind, text in templates.items() if kind in names_by_category.values()}
    head = start.format(*names)

    def build(item: Item) -> Request:
        filled = checked[names_by_category[item.category]].format(gold=item.gold or "", pred=item.reply or "",
                                                                  evidence=item.evidence or "")
        content = head + filled.strip() if filled.strip() else head.strip()
        return Request(_one_user(content), {"temperature": float(temperature), "max_tokens": int(max_tokens)})

    def parse(text: str) -> tuple[str, float]:
        label = plus_label(text)
        score = scores.get(label.strip().lower())
        if score is None:
            raise ValueError(f"the judge's label {label[:40]!r} is none of {', '.join(scores)}")
        return label, float(score)

    return Judge("locomo-plus", ", ".join(map(str, SOURCES["locomo-plus"])), checked, build, parse,
                 categories=(*LOCOMO, COGNITIVE.number))


def _mem0_style(name: str, template: str, source: str, parse: Callable[[str], tuple[str, float]],
                thinking: bool) -> Judge:
    """A judge of one user message filled with question, gold and reply, at temperature 0 (Refined's, a user's)."""

    def build(item: Item) -> Request:
        params: dict[str, Any] = {"temperature": 0.0}
        if thinking:
            params["enable_thinking"] = False
        return Request(_one_user(template.format(question=item.question, gold_answer=item.gold,
                                                 generated_answer=item.reply)), params)

    return Judge(name, source, {name: template}, build, parse, optional=("enable_thinking",) if thinking else ())


def refined(template: str, source: str) -> Judge:
    """Refined's judge over ``template`` (read by ``refined.judge.prompt_from_refined`` or from a file)."""
    return _mem0_style("refined", template, source, _refined_parse, thinking=True)


def prompt_from_refined(root: Path, name: str = "refined") -> str:
    """The named prompt of a LoCoMo-Refined checkout: the ``JUDGE_PROMPTS`` literal of its ``src/llm_judge.py``,
    read as data (the module is not imported)."""
    path = root / "src" / "llm_judge.py"
    try:
        text = jsonio.read_text(path)
    except jsonio.InputError as exc:
        raise PromptError(f"{exc} (is --refined-root a LoCoMo-Refined checkout?)") from None
    tree = _tree(text, str(path))
    try:
        prompts = assigned(tree, "JUDGE_PROMPTS", str(path))
    except PromptError as exc:
        if str(exc).endswith("is not a literal"):
            raise
        prompts = None
    if not isinstance(prompts, dict):
        raise PromptError(f"{path}: no JUDGE_PROMPTS dictionary")
    key = name.strip().lower()
    if not isinstance(prompts.get(key), str):
        known = ", ".join(sorted(str(k) for k in prompts))
        raise PromptError(f"{path}: no judge prompt named {name!r} (has: {known})")
    return check_template(prompts[key], f"{path} [{key}]")


def prompt_from_file(path: Path) -> str:
    """A prompt template file (UTF-8, ``{question}``, ``{gold_answer}``, ``{generated_answer}``)."""
    try:
        text = jsonio.read_text(path)
    except jsonio.InputError as exc:
        raise PromptError(str(exc)) from None
    return check_template(text, str(path))


def user(path: Path) -> Judge:
    """A judge of the user's own template file (see the module's docstring)."""
    return _mem0_style("prompt", prompt_from_file(path), str(path), _user_parse, thinking=False)


_READERS: dict[str, Callable[[dict[str, str]], Judge]] = {
    "mem0": _mem0, "longmemeval": _longmemeval, "evermemos": _evermemos, "locomo-plus": _locomo_plus,
}


def load(name: str, refined_root: Path | None = None) -> Judge:
    """The judge ``name``, read from its pinned source (``refined`` from ``refined_root``, a Refined checkout)."""
    if name == "refined":
        if refined_root is None:
            raise PromptError("the refined judge reads its prompt from a LoCoMo-Refined checkout: "
                              "pass --refined-root DIR")
        return refined(prompt_from_refined(refined_root), str(refined_root / "src" / "llm_judge.py"))
    if name not in _READERS:
        raise PromptError(f"unknown judge {name!r} (known: {', '.join(NAMES)}; or --prompt FILE)")
    return _READERS[name](source_texts(name))
