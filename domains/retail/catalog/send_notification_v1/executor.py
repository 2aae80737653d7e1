"""Executor of send_notification_v1 (README.md); logic in domains.retail.tools."""

from domains.retail.tools.notify import NotificationExecutor

EXECUTOR = NotificationExecutor()
