"""Executor of track_shipment_v1 (README.md); logic in skills.retail."""

from skills.retail import arguments as a
from skills.retail import tools_shipping as t
from skills.retail.executors import ReadExecutor

EXECUTOR = ReadExecutor(a.ShipmentArgs, t.track_shipment)
