"""CLI command groups the library pack adds to `rolegraph`."""
