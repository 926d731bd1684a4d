"""LoCoMo-Refined's LLM judge over an OpenAI-compatible endpoint: a front for the kit's one judge machinery.

Matches Refined's src/llm_judge.py and src/llm_judge_runtime.py: one user
message (the prompt template filled with question, gold answer and generated
answer), temperature 0, ``enable_thinking: false`` in the request body until
the server refuses that field (then the same request without it, and never
again for this judge); the label is ``CORRECT`` when the first JSON object of
the reply has ``label`` equal to it (case and spaces ignored), else wrong. Any
failure, an unreadable reply included, is retried: up to 10 attempts, 1 s
apart, or 20-60 s (uniformly random) when the failure mentions a rate limit.
The judge is ``locomo_repro.judge.prompts.refined`` asked by ``locomo_repro.judge.ask``
(``locomo-repro judge run --judge refined`` asks the same one).

The prompt is not part of this kit: it is read from the user's copy of
Refined (``src/llm_judge.py``, without running it) or from a template file.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..judge import prompts
from ..judge.ask import Asker, Backoff, JudgeError, is_rate_limited, log_line, refuses_field
from ..judge.prompts import (FIELDS, PromptError, check_template, first_json_object, parse_label, prompt_from_file,
                             prompt_from_refined)
from ..read.chat import DEFAULT_BASE_URL, ChatClient, ChatReply

__all__ = ["FIELDS", "Backoff", "JudgeError", "PromptError", "check_template",
           "first_json_object", "is_rate_limited", "parse_label", "prompt_from_file", "prompt_from_refined"]

#: The judge model Refined's scores are reported with, as Refined names it by default.
OFFICIAL_MODEL = "qwen3-14b"
#: The prompt Refined uses unless told otherwise; "original" is its other one.
DEFAULT_JUDGE = "refined"

_MODEL_ENV = ("EVALUATOR_MODEL",)
_BASE_ENV = ("EVALUATOR_API_BASE", "EVALUATOR_BASE_URL", "OPENAI_API_BASE", "OPENAI_BASE_URL")
_KEY_ENV = ("EVALUATOR_API_KEY", "OPENAI_API_KEY")


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


def refuses_thinking_field(message: str) -> bool:
    """Whether an error says the server does not accept the ``enable_thinking`` field."""
    return refuses_field(message, "enable_thinking")


# --- the judge -----------------------------------------------------------------------------


@dataclass
class Judge:
    """Callable ``(question, gold, generated) -> 1.0 | 0.0``; safe to share between threads."""

    client: ChatClient
    prompt: str
    backoff: Backoff = field(default_factory=Backoff)
    log: Callable[[str], None] = log_line
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        self._asker = Asker(self.client, self.backoff, self.log, self.rng)
        self._judge = prompts.refined(self.prompt, "refined")

    def cancel(self) -> None:
        """Make judgements in progress give up at their next pause."""
        self._asker.cancel()

    def __call__(self, question: str, gold: str, generated: str) -> float:
        return float(self.label(question, gold, generated))

    def label(self, question: str, gold: str, generated: str) -> int:
        """1 for CORRECT, 0 for WRONG; JudgeError when every attempt failed."""
        request = self._judge.build(prompts.Item(question, gold, generated, 0))

        def parse(reply: ChatReply) -> int:
            return parse_label(reply.content)

        return self._asker.ask(request.messages, request.params, parse, f"question {question[:60]!r}",
                               self._judge.optional)
