from tests.integration.jobs.conftest import queue
from tests.support_fixtures import retail_db, support

__all__ = ["queue", "retail_db", "support"]
