"""Executor of search_policy_v1 (README.md); logic in domains.library.tools."""

from domains.library.tools.policy import PolicySearch

EXECUTOR = PolicySearch()
