-- An outbox that delivers: rows are claimed by a delivery worker with a
-- lease, retried with backoff, and a send whose outcome is unknown is held
-- for an operator instead of being sent again.
--
--   pending  waiting for next_attempt_at
--   sending  claimed by claimed_by until claimed_until (a lease)
--   sent     the SMTP server accepted it (250 after DATA)
--   failed   given up: NOTIFY_MAX_ATTEMPTS reached, rejected, withdrawn or dropped
--   unknown  DATA was sent and no answer came back: it may have been delivered;
--            kept claimed until an operator retries or drops it
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_status_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_status_check
    CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'unknown'));

ALTER TABLE notifications ADD COLUMN IF NOT EXISTS next_attempt_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS claimed_by      text;
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS claimed_at      timestamptz;
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS claimed_until   timestamptz;
-- Set just before DATA: from then on a lost worker leaves an unknown outcome,
-- before it the message provably never left.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS data_started_at timestamptz;
-- Stable per row (derived from the idempotency key), so a receiving system
-- can recognise a duplicate and an operator can search the mail logs for it.
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS message_id      text;
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS updated_at      timestamptz NOT NULL DEFAULT now();
-- Same derivation as checkpoints.outbox.message_id_for.
UPDATE notifications SET message_id = '<' || left(encode(sha256(convert_to(idempotency_key, 'UTF8')),
    'hex'), 32) || '@rolegraph.outbox>' WHERE message_id IS NULL;
ALTER TABLE notifications ALTER COLUMN message_id SET NOT NULL;

ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_claim_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_claim_check
    CHECK (status NOT IN ('sending', 'unknown') OR claimed_by IS NOT NULL);

DROP INDEX IF EXISTS notifications_pending_idx;
CREATE INDEX IF NOT EXISTS notifications_due_idx ON notifications (next_attempt_at, id)
    WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS notifications_lease_idx ON notifications (claimed_until)
    WHERE status = 'sending';
