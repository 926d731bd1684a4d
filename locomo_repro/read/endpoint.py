"""The model reader's endpoint as a run names it before anything is asked: the reference's URL, the variables
the API key is read from, the folder the answers are kept in, and an endpoint as the kit shows it.

Kept apart from ``model`` and ``chat`` so that the command line's flags, a run's plan and every signature
name them without importing the HTTP client (sockets, threads): a run without ``-model`` opens no model.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Mapping

#: The reference's endpoint (Hanzo's OpenAI-compatible gateway).
DEFAULT_BASE_URL = "https://api.hanzo.ai/v1"
#: Environment variables holding the API key, the first one set wins.
KEY_VARIABLES = ("HANZO_API_KEY", "OPENAI_API_KEY")
#: Where answers are kept unless ``-memo`` says otherwise (relative to the working folder).
DEFAULT_MEMO = "out/said"


def api_key(environ: Mapping[str, str] = os.environ) -> str | None:
    """The key from the first of ``KEY_VARIABLES`` that is set and not empty."""
    return next((environ[v] for v in KEY_VARIABLES if environ.get(v)), None)


def endpoint(url: str) -> str:
    """An endpoint URL as the kit shows it anywhere: scheme, host and path, without credentials, query or
    fragment."""
    split = urllib.parse.urlsplit(url)
    host = split.hostname or ""
    if split.port is not None:
        host = f"{host}:{split.port}"
    return urllib.parse.urlunsplit((split.scheme, host, split.path.rstrip("/"), "", ""))
