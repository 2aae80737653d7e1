from collections.abc import Iterator

import pytest

from tests.integration.tracing.receiver import Receiver, otlp_receiver
from tests.support_fixtures import retail_db, support

__all__ = ["retail_db", "support"]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A local OTLP/HTTP receiver on 127.0.0.1, empty at the start of the test."""
    with otlp_receiver() as found:
        yield found
