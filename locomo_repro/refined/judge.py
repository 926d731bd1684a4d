"""LoCoMo-Refined's LLM judge over an OpenAI-compatible endpoint.

Matches Refined's src/llm_judge.py and src/llm_judge_runtime.py: one user
message (the prompt template filled with question, gold answer and generated
answer), temperature 0, ``enable_thinking: false`` in the request body until
the server refuses that field (then the same request without it, and never
again for this judge); the label is ``CORRECT`` when the first JSON object of
the reply has ``label`` equal to it (case and spaces ignored), else wrong. Any
failure, an unreadable reply included, is retried: up to 10 attempts, 1 s
apart, or 20-60 s (uniformly random) when the failure mentions a rate limit.

The prompt is not part of this kit: it is read from the user's copy of
Refined (``src/llm_judge.py``, without running it) or from a template file.
"""

from __future__ import annotations

import ast
import json
import os
import random
import re
import string
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..data import jsonio
from ..read.chat import DEFAULT_BASE_URL, ChatClient, ChatError, retry, user_message
from .files import InputError

#: The judge model Refined's scores are reported with, as Refined names it by default.
OFFICIAL_MODEL = "qwen3-14b"
#: The prompt Refined uses unless told otherwise; "original" is its other one.
DEFAULT_JUDGE = "refined"
#: The fields a prompt template is filled with.
FIELDS = ("question", "gold_answer", "generated_answer")

_MODEL_ENV = ("EVALUATOR_MODEL",)
_BASE_ENV = ("EVALUATOR_API_BASE", "EVALUATOR_BASE_URL", "OPENAI_API_BASE", "OPENAI_BASE_URL")
_KEY_ENV = ("EVALUATOR_API_KEY", "OPENAI_API_KEY")

_RATE_LIMIT_WORDS = ("tpm", "limit", "rate limit", "429")
_REFUSAL_WORDS = ("unknown", "unsupported", "unexpected", "unrecognized", "not allowed", "not permit",
                  "extra inputs", "additional properties", "invalid parameter")


class PromptError(InputError):
    """A judge prompt that cannot be found or used."""


class JudgeError(Exception):
    """A judgement that failed after every attempt."""


class JudgeCancelled(JudgeError):
    """A judgement abandoned because the run is stopping."""

    cancelled_run = True


# --- configuration -------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    """Where the judge runs: model, base URL and optional key."""

    model: str
    base_url: str
    api_key: str | None = None


def _first_env(names: tuple[str, ...], env: Mapping[str, str]) -> str:
    return next((env[n].strip() for n in names if env.get(n, "").strip()), "")


def resolve_endpoint(model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                     env: Mapping[str, str] | None = None) -> Endpoint:
    """Flags first, then Refined's environment variables, then the defaults
    (model qwen3-14b, the OpenAI base URL, no key)."""
    env = os.environ if env is None else env
    return Endpoint(
        model=(model or "").strip() or _first_env(_MODEL_ENV, env) or OFFICIAL_MODEL,
        base_url=(base_url or "").strip() or _first_env(_BASE_ENV, env) or DEFAULT_BASE_URL,
        api_key=(api_key or "").strip() or _first_env(_KEY_ENV, env) or None,
    )


def is_official_model(model: str) -> bool:
    """Whether a model name is Qwen3-14B: lowercased alphanumerics ending in ``qwen314b``
    (so ``Qwen/Qwen3-14B``, ``qwen3_14b`` and vendor prefixes all pass)."""
    return re.sub(r"[^a-z0-9]+", "", model.strip().lower()).endswith("qwen314b")


def model_warning(model: str) -> str | None:
    """A one-line warning when the judge model is not Refined's official one."""
    if not model.strip() or is_official_model(model):
        return None
    return (f"warning: judge model {model!r} is not Qwen3-14B, the model LoCoMo-Refined's "
            "published scores use; the numbers may not be comparable")


# --- prompts -------------------------------------------------------------------------------


def check_template(template: str, origin: str) -> str:
    """``template`` if it fills with exactly the three judge fields (``str.format`` syntax), each a plain
    ``{name}``: a conversion (``{question!r}``) or a format spec (``{question:d}``, ``{question:>99999999999}``)
    would fail or blow up on the judge's text."""
    try:
        fields = [(name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(template)
                  if name is not None]
    except ValueError as exc:
        raise PromptError(f"{origin}: not a usable prompt template ({exc})") from None
    for name, spec, conversion in fields:
        if spec or conversion:
            shown = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            shown = shown if len(shown) <= 40 else shown[:40] + "…"
            raise PromptError(f"{origin}: placeholder {shown} has a conversion or format spec; "
                              "the judge fills plain {question}, {gold_answer}, {generated_answer}")
    names = {name for name, _, _ in fields}
    extra = names - set(FIELDS)
    missing = set(FIELDS) - names
    if extra:
        raise PromptError(f"{origin}: unknown placeholder(s) {', '.join('{%s}' % n for n in sorted(extra))}")
    if missing:
        raise PromptError(f"{origin}: missing placeholder(s) {', '.join('{%s}' % n for n in sorted(missing))}")
    return template


def prompt_from_refined(root: Path, name: str = DEFAULT_JUDGE) -> str:
    """The named prompt of a Refined checkout: the ``JUDGE_PROMPTS`` literal of its
    ``src/llm_judge.py``, read as data (the module is not imported)."""
    path = root / "src" / "llm_judge.py"
    try:
        source = jsonio.read_text(path)
    except jsonio.InputError as exc:
        raise PromptError(f"{exc} (is --refined-root a LoCoMo-Refined checkout?)") from None
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as exc:
        raise PromptError(f"{path}: not valid Python (line {exc.lineno})") from None
    prompts = None
    for node in tree.body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(isinstance(t, ast.Name) and t.id == "JUDGE_PROMPTS" for t in targets) and node.value is not None:
            try:
                prompts = ast.literal_eval(node.value)
            except ValueError:
                raise PromptError(f"{path}: JUDGE_PROMPTS is not a literal") from None
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


# --- replies -------------------------------------------------------------------------------


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
    """The first balanced ``{…}`` of a reply, braces inside JSON strings ignored.

    As in the reference, a backslash escapes the next character even outside a string.
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


def parse_label(text: str) -> int:
    """1 when the reply's first JSON object says ``"label": "CORRECT"``, else 0; ValueError when
    there is no readable object."""
    try:
        payload = json.loads(first_json_object(text))
    except RecursionError:
        raise ValueError("the judge's reply nests too deeply") from None
    return 1 if str(payload.get("label", "")).strip().upper() == "CORRECT" else 0


def refuses_thinking_field(message: str) -> bool:
    """Whether an error says the server does not accept the ``enable_thinking`` field."""
    low = message.lower()
    return "enable_thinking" in low and any(word in low for word in _REFUSAL_WORDS)


def _message(exc: BaseException) -> str:
    return exc.detail if isinstance(exc, ChatError) else str(exc)


def is_rate_limited(exc: BaseException) -> bool:
    """Whether a failure reads like a rate limit (the reference's word test, endpoint address excluded)."""
    low = _message(exc).lower()
    return any(word in low for word in _RATE_LIMIT_WORDS)


# --- the judge -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Backoff:
    """Attempts per judgement and the pauses between them, in seconds."""

    attempts: int = 10
    wait: float = 1.0
    rate_limit_wait: tuple[float, float] = (20.0, 60.0)


def _stderr(line: str) -> None:
    """One line to stderr in a single write, so lines from worker threads do not interleave."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


@dataclass
class Judge:
    """Callable ``(question, gold, generated) -> 1.0 | 0.0``; safe to share between threads."""

    client: ChatClient
    prompt: str
    backoff: Backoff = field(default_factory=Backoff)
    log: Callable[[str], None] = _stderr
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._send_thinking_field = True
        self._stop = threading.Event()

    def cancel(self) -> None:
        """Make judgements in progress give up at their next pause."""
        self._stop.set()

    def __call__(self, question: str, gold: str, generated: str) -> float:
        return float(self.label(question, gold, generated))

    def label(self, question: str, gold: str, generated: str) -> int:
        """1 for CORRECT, 0 for WRONG; JudgeError when every attempt failed."""
        messages = user_message(self.prompt.format(
            question=question, gold_answer=gold, generated_answer=generated))
        where = f"question {question[:60]!r}"

        def attempt() -> int:
            if self._stop.is_set():
                raise JudgeCancelled("run stopped")
            return parse_label(self._ask(messages).content)

        def delay(exc: BaseException, _: int) -> float:
            if is_rate_limited(exc):
                low, high = self.backoff.rate_limit_wait
                return low + self.rng.random() * (high - low)
            return self.backoff.wait

        def note(exc: BaseException, number: int, seconds: float) -> None:
            self.log(f"judge: attempt {number}/{self.backoff.attempts} failed ({exc}); "
                     f"retrying in {seconds:.2f}s; {where}")

        def pause(seconds: float) -> None:
            if self._stop.wait(seconds):
                raise JudgeCancelled("run stopped")

        try:
            return retry(attempt, attempts=self.backoff.attempts, delay=delay,
                         retry_on=(ChatError, ValueError), on_retry=note, sleep=pause)
        except JudgeCancelled:
            raise
        except (ChatError, ValueError) as exc:
            raise JudgeError(f"no verdict after {self.backoff.attempts} attempt(s): {exc}; {where}") from exc

    def _ask(self, messages: list[dict[str, str]]):
        send = self._send_thinking_field
        params: dict[str, object] = {"temperature": 0.0}
        if send:
            params["enable_thinking"] = False
        try:
            return self.client.complete(messages, **params)
        except ChatError as exc:
            if not (send and refuses_thinking_field(exc.detail)):
                raise
            with self._lock:
                if self._send_thinking_field:
                    self._send_thinking_field = False
                    self.log(f"judge: the server refuses enable_thinking for {self.client.model}; "
                             "sending requests without it")
            params.pop("enable_thinking")
            return self.client.complete(messages, **params)
