"""Executor of list_all_product_types_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_read as t
from skills.retail.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.NoArgs, t.list_all_product_types)
