"""Executor of send_notification_v1 (README.md); logic in skills.retail."""

from skills.retail.notify import NotificationExecutor

EXECUTOR = NotificationExecutor()
