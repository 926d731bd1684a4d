"""Plug-ins written as a careless or hostile user might write them: each does one thing to the run around it."""

from __future__ import annotations

import os
import sys

from locomo_repro.arms.plugin import Conversation


class Wanders:
    """A memory whose factory changes the working folder (to ``$WANDER_TO``) before it recalls the first turn."""

    name = "wanders"

    def __init__(self, conversation: Conversation) -> None:
        os.chdir(os.environ["WANDER_TO"])
        self.first = conversation.turns[0].id

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        return [(self.first, 1.0)]


class Exits:
    """A memory whose recall calls ``sys.exit``."""

    name = "exits"

    def __init__(self, conversation: Conversation) -> None:
        pass

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        sys.exit(0)
