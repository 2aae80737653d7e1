"""Executor of modify_user_address_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_write as t
from skills.retail.executors import WriteExecutor, user_scoped_risk

EXECUTOR = WriteExecutor(a.UserAddressArgs, t.modify_user_address, user_scoped_risk("high"))
