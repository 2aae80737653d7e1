"""Executor of get_product_details_v1 (README.md); logic in domains.retail.tools."""

from domains.retail import results as r
from domains.retail.tools import arguments as a
from domains.retail.tools import tools_read as t
from domains.retail.tools.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.ProductArgs, t.get_product_details, r.Product)
