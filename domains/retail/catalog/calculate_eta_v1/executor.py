"""Executor of calculate_eta_v1 (README.md); logic in domains.retail.tools."""

from domains.retail import results as r
from domains.retail.tools import arguments as a
from domains.retail.tools import tools_shipping as t
from domains.retail.tools.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.ShipmentArgs, t.calculate_eta, r.Eta)
