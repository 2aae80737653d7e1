"""Executor of get_user_details_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_read as t
from skills.retail.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.UserArgs, t.get_user_details)
