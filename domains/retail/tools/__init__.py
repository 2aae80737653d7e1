"""Retail domain logic shared by the retail skill packages.

Pure tau2 semantics (`documents`, `lookups`, `order_ops`, `calculator`,
`shipping`) work on tau2-shaped documents and know nothing of the database;
`executors` binds them to the data layer; `replay` runs tau2 tasks through the
skill runtime.
"""
