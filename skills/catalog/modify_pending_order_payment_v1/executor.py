"""Executor of modify_pending_order_payment_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_write as t
from skills.retail.executors import WriteExecutor

EXECUTOR = WriteExecutor(a.PaymentArgs, t.modify_pending_order_payment)
