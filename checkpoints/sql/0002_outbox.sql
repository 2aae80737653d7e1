-- The harness's notification outbox (skills/outbox). It names the customer by
-- id only: the harness owns no domain table, so there is no foreign key.

-- Outbox: a notification is written in the same transaction as the change
-- it reports and delivered later; the idempotency key makes a re-executed
-- node enqueue it once.
CREATE TABLE IF NOT EXISTS notifications (
    id              bigserial   PRIMARY KEY,
    user_id         text        NOT NULL,
    channel         text        NOT NULL CHECK (channel IN ('email', 'sms', 'push')),
    recipient       text        NOT NULL,
    subject         text        NOT NULL,
    body            text        NOT NULL,
    status          text        NOT NULL DEFAULT 'pending'
                                CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error      text,
    idempotency_key text        NOT NULL UNIQUE,
    created_at      timestamptz NOT NULL DEFAULT now(),
    sent_at         timestamptz,
    CHECK (status <> 'sent' OR sent_at IS NOT NULL)
);
CREATE INDEX IF NOT EXISTS notifications_user_idx ON notifications (user_id);
