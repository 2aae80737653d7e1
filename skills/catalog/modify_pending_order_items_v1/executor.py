"""Executor of modify_pending_order_items_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_write as t
from skills.retail.executors import WriteExecutor

EXECUTOR = WriteExecutor(a.SwapArgs, t.modify_pending_order_items)
