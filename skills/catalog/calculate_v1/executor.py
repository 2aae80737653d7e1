"""Executor of calculate_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_pure as t
from skills.retail.executors import PureExecutor

EXECUTOR = PureExecutor(a.ExpressionArgs, t.calculate)
