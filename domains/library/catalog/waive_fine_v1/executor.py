"""Executor of waive_fine_v1 (README.md); logic in domains.library.tools."""

from domains.library.tools import arguments as a
from domains.library.tools import loans as t
from domains.library.tools.executors import WriteExecutor
from domains.library.tools.results import LoanResult

EXECUTOR = WriteExecutor(a.WaiveArgs, t.waive_fine, LoanResult)
