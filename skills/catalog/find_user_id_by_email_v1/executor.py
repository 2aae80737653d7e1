"""Executor of find_user_id_by_email_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_read as t
from skills.retail.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.EmailArgs, t.find_user_id_by_email)
