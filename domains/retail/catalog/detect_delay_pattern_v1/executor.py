"""Executor of detect_delay_pattern_v1 (README.md); logic in domains.retail.tools."""

from domains.retail import results as r
from domains.retail.tools import arguments as a
from domains.retail.tools import tools_shipping as t
from domains.retail.tools.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.DelayArgs, t.detect_delay_pattern, r.DelayReport)
