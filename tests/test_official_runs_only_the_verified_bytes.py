"""The official evaluation.py runs as exactly the bytes whose sha256 was checked.

A bytecode cache planted beside the file (``__pycache__/evaluation.cpython-3x.pyc``
built from other source, its header carrying the genuine file's mtime and size,
so the import system would take it as fresh) must never be executed, neither
for a file given by path nor for the kit's default cache copy.
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import struct

import pytest

from locomo_repro.score import official

GENUINE = '''\
GENUINE = True

def normalize_answer(s):
    return s

def eval_question_answering(qas, eval_key='prediction', metric='f1'):
    return [1.0 for _ in qas], 0.0, [1.0 for _ in qas]
'''

PLANTED = '''\
PLANTED = True

def normalize_answer(s):
    return "planted"

def eval_question_answering(qas, eval_key='prediction', metric='f1'):
    return [0.0 for _ in qas], 0.0, [0.0 for _ in qas]
'''


def plant(path) -> None:
    """A pyc of ``PLANTED`` where the import system looks for ``path``'s cache, stamped as fresh for ``path``."""
    stat = os.stat(path)
    header = importlib.util.MAGIC_NUMBER + struct.pack("<III", 0, int(stat.st_mtime) & 0xFFFFFFFF, stat.st_size)
    pyc = importlib.util.cache_from_source(str(path))
    os.makedirs(os.path.dirname(pyc), exist_ok=True)
    with open(pyc, "wb") as out:
        out.write(header + marshal.dumps(compile(PLANTED, str(path), "exec")))


def check(module) -> None:
    assert getattr(module, "GENUINE", False) is True
    assert not hasattr(module, "PLANTED")
    assert module.normalize_answer("x") == "x"


@pytest.fixture
def clean(tmp_path, monkeypatch):
    monkeypatch.delenv(official.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    official._LOADED.clear()
    yield
    official._LOADED.clear()


def test_a_planted_bytecode_cache_beside_a_given_file_is_not_executed(tmp_path, clean):
    path = tmp_path / "evaluation.py"
    path.write_text(GENUINE)
    plant(path)
    check(official.load_evaluation(path, sha256=hashlib.sha256(GENUINE.encode()).hexdigest()))


def test_a_planted_bytecode_cache_in_the_default_cache_folder_is_not_executed(clean, monkeypatch):
    cached = official.cache_path()
    cached.parent.mkdir(parents=True)
    cached.write_text(GENUINE)
    plant(cached)
    monkeypatch.setattr(official.urllib.request, "urlopen", lambda *a, **k: pytest.fail("no download expected"))
    check(official.load_evaluation(sha256=hashlib.sha256(GENUINE.encode()).hexdigest()))
