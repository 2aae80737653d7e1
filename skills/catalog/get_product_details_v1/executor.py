"""Executor of get_product_details_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_read as t
from skills.retail.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.ProductArgs, t.get_product_details)
