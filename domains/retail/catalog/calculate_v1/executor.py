"""Executor of calculate_v1 (README.md); logic in domains.retail.tools."""

from domains.retail import results as r
from domains.retail.tools import arguments as a
from domains.retail.tools import tools_pure as t
from domains.retail.tools.executors import PureExecutor

EXECUTOR = PureExecutor(a.ExpressionArgs, t.calculate, r.Text)
