from tests.integration.server.served import served
from tests.support_fixtures import retail_db, support

__all__ = ["retail_db", "served", "support"]
