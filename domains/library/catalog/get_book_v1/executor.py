"""Executor of get_book_v1 (README.md); logic in domains.library.tools."""

from domains.library.tools import arguments as a
from domains.library.tools import loans as t
from domains.library.tools.executors import ReadExecutor
from domains.library.tools.results import BookResult

EXECUTOR = ReadExecutor(a.BookArgs, t.get_book, BookResult)
