"""How many examples a property test draws: all of them in the full suite (CI), a sixth in the fast tier
(`-m "not slow ..."`, scripts/test.sh --fast), where a change is checked in about a minute. The guarantee is the
full suite's; the fast tier only runs the same properties on fewer drawn inputs."""

from __future__ import annotations

import os

FAST_TIER_ENV = "HR_TESTS_TIER"


def examples(full: int) -> int:
    """`full` examples, or a sixth of them (at least 20) in the fast tier."""
    return max(20, full // 6) if os.environ.get(FAST_TIER_ENV) == "fast" else full
