"""Other memory systems' published LoCoMo answers: read their files, score them like with like, check their tables.

Layer: beside ``refined`` (it may import go, text, data, memory, read, score, judge and bench).

* ``formats``: the shapes systems publish (mem0's harness, zep-papers, Backboard, the official
  predictions shape, Refined JSONL), read into one list of replies per system;
* ``convert``: each reply matched to its locomo10 question, written as one official-shape file;
* ``fetch``: the pinned public files, downloaded and checked into the cache;
* ``table``: several systems side by side under each metric, with paired bootstrap differences;
* ``manifest``: peers.yaml, the published tables' cells recomputed from each system's file;
* ``leaderboard``: every answer file and the kit's arms in one ranked table (``locomo-repro leaderboard``);
* ``locomo-repro peers import|fetch|table`` (also ``locomo-repro import``).
"""
