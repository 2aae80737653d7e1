"""Executor of detect_delay_pattern_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_shipping as t
from skills.retail.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.DelayArgs, t.detect_delay_pattern)
