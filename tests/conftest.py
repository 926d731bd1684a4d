"""The test summary shows what the suite measured and reported without judging it.

A test that measures a figure of the machine (a claim of status ``reported``,
such as a timing) records it as the user property ``reported``; those lines are
printed in a section of their own at the end of the run.
"""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter) -> None:
    lines = [
        value
        for report in terminalreporter.stats.get("passed", [])
        for name, value in getattr(report, "user_properties", ())
        if name == "reported"
    ]
    if lines:
        terminalreporter.section("measured here and reported, not asserted")
        for line in lines:
            terminalreporter.write_line(line)
