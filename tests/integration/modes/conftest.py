from tests.support_fixtures import retail_db, support

__all__ = ["retail_db", "support"]
