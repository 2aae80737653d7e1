"""Executor of send_notification_v1 (README.md); logic in domains.library.tools."""

from domains.library.tools.notify import NotificationExecutor

EXECUTOR = NotificationExecutor()
