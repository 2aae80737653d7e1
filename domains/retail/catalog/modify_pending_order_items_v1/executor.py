"""Executor of modify_pending_order_items_v1 (README.md); logic in domains.retail.tools."""

from domains.retail import results as r
from domains.retail.tools import arguments as a
from domains.retail.tools import tools_write as t
from domains.retail.tools.executors import WriteExecutor

EXECUTOR = WriteExecutor(a.SwapArgs, t.modify_pending_order_items, r.Order)
