"""Executor of modify_user_address_v1 (README.md); logic in domains.retail.tools."""

from domains.retail import results as r
from domains.retail.tools import arguments as a
from domains.retail.tools import tools_write as t
from domains.retail.tools.executors import WriteExecutor, user_scoped_risk

EXECUTOR = WriteExecutor(a.UserAddressArgs, t.modify_user_address, r.User, user_scoped_risk("high"))
