"""A conversation, once asked, is let go (``bench.stream.conversation``): none of its memories stays alive
and the memos of its texts are empty, so a run's memory does not grow with its number of conversations.
The last one a run asks in a process keeps its memos: nothing follows to need the room."""

from __future__ import annotations

import gc

from locomo_repro.bench import experiment as bench
from locomo_repro.bench import stream
from locomo_repro.read.reader import Options
from locomo_repro.text import reduce


def alive_cases() -> int:
    gc.collect()
    return sum(isinstance(o, bench.Case) for o in gc.get_objects())


def test_no_memory_of_a_conversation_outlives_it(samples):
    before = alive_cases()
    got = stream.conversation(samples[1], stream.Settings(Options()))
    assert got.questions == len(samples[1].questions) > 0
    assert sum(len(r) for r in got.records[0].values()) > 0
    gc.disable()  # count what the conversation left, not what a collection here would free
    try:
        assert sum(isinstance(o, bench.Case) for o in gc.get_objects()) == before
    finally:
        gc.enable()
    for memo in (reduce.normalised, reduce.stems, reduce.terms, reduce.words, reduce.sentences):
        assert memo.cache_info().currsize == 0, memo.__name__


def test_the_last_conversation_keeps_its_memos_but_none_of_its_memories(samples):
    before = alive_cases()
    got = stream.conversation(samples[1], stream.Settings(Options()), last=True)
    assert got.questions == len(samples[1].questions)
    gc.disable()
    try:
        assert sum(isinstance(o, bench.Case) for o in gc.get_objects()) == before  # freed without a collection
    finally:
        gc.enable()
    assert reduce.stems.cache_info().currsize > 0
    reduce.forget()


def test_a_one_job_run_lets_go_every_conversation_but_its_last(samples, monkeypatch):
    asked: list[tuple[str, bool]] = []
    real = stream.conversation

    def conversation(sample, settings, *, last=False):
        asked.append((sample.id, last))
        return real(sample, settings, last=last)

    monkeypatch.setattr(stream, "conversation", conversation)
    got = list(stream.outcomes(iter(samples[:3]), stream.Settings(Options(), arm_set="read")))
    assert [o.sample for o in got] == [s.id for s in samples[:3]]
    assert asked == [(samples[0].id, False), (samples[1].id, False), (samples[2].id, True)]
    reduce.forget()


def test_forget_keeps_the_stems_of_words():
    reduce.stems("Caroline went running")
    assert reduce.stems.cache_info().currsize > 0
    reduce.forget()
    assert reduce.stems.cache_info().currsize == 0
    assert reduce._STEM["running"] == "run"


def test_the_collector_is_left_as_it_was_found(samples):
    settings = stream.Settings(Options())
    assert gc.isenabled()
    stream.conversation(samples[0], settings)
    assert gc.isenabled()
    gc.disable()
    try:
        stream.conversation(samples[0], settings)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_kits_memories_of_a_conversation_are_freed_without_a_collection(samples):
    """The graph of a conversation with derived facts (conv-26 has one) leaves no reference cycle: with the
    collector off, its rule engine's model is gone as soon as the graph is (``Model.why`` once walked with a
    nested function calling itself, a cycle that kept every conversation's model until a collection)."""
    import weakref

    from locomo_repro.arms.graph import Knowledge
    from locomo_repro.memory import reason
    from locomo_repro.memory.terms import Vocabulary

    made: list[weakref.ref] = []
    real = reason.Engine.run

    def run(self, triples):
        model = real(self, triples)
        made.append(weakref.ref(model))
        return model

    sample = samples[0]
    gc.disable()
    try:
        reason.Engine.run = run  # type: ignore[method-assign]
        graph = Knowledge(sample, Vocabulary([t.text for t in sample.turns]))
        assert graph.derived > 0 and made and made[0]() is None  # the model is let go with __init__'s end
        del graph
    finally:
        reason.Engine.run = real  # type: ignore[method-assign]
        gc.enable()
