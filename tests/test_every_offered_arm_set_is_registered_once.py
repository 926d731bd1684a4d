"""The arm sets: one registry, ``experiment.ARMS``, filled by ``@arm_set`` where each set is defined.

It holds exactly the names the command line offers (``names.ARM_SETS``, kept apart so that ``--help``
imports no memory), in that order; a name registered twice or not offered is refused, and so is
building a set that is not registered; each set builds the arms ``-arms list`` names for it.
"""

from __future__ import annotations

import pytest

from locomo_repro.arms.plugin import PluginError
from locomo_repro.bench import experiment, names


def test_every_offered_arm_set_is_registered_in_the_offered_order():
    assert list(experiment.ARMS) == list(names.ARM_SETS)


@pytest.mark.parametrize("name", ["main", "everything"])
def test_an_arm_set_registered_twice_or_not_offered_is_refused(name):
    with pytest.raises(ValueError, match="not offered by names.ARM_SETS, or is registered twice"):
        experiment.arm_set(name)(lambda sample, vocab, vector, graph: [])
    assert list(experiment.ARMS) == list(names.ARM_SETS)


def test_building_an_arm_set_that_is_not_registered_nor_a_plugin_is_refused_naming_it():
    with pytest.raises(PluginError, match="-arms everything: no such arm set or installed plug-in"):
        experiment.build([], "everything")


def test_each_arm_set_builds_the_arms_the_command_line_lists_for_it(samples):
    for name, arms in names.ARM_SETS.items():
        (case,) = experiment.build(samples[:1], name)
        assert tuple(a.name for a in case.arms) == arms
