"""Driver exceptions by what they mean, for code outside the persistence layer.

Only `checkpoints` and a domain's storage import the driver; the skill
runtime, the outbox worker and the CLI classify failures with these tuples.
"""

from __future__ import annotations

import psycopg
import psycopg_pool

CONNECTION_LOST: tuple[type[Exception], ...] = (psycopg.OperationalError, psycopg_pool.PoolTimeout)
"""The server or the pool is unreachable right now: transient, worth a retry."""
CLIENT_FAULTS: tuple[type[psycopg.Error], ...] = (psycopg.OperationalError, psycopg.InterfaceError)
"""A connection terminated or unusable mid-command: nothing the user typed."""
DATABASE_ERROR: type[psycopg.Error] = psycopg.Error
"""Any error the driver raises."""
