"""Delivery of the notifications outbox: settings, one SMTP attempt, the worker."""
