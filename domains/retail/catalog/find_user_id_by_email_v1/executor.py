"""Executor of find_user_id_by_email_v1 (README.md); logic in domains.retail.tools."""

from domains.retail import results as r
from domains.retail.tools import arguments as a
from domains.retail.tools import tools_read as t
from domains.retail.tools.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.EmailArgs, t.find_user_id_by_email, r.Text)
