-- Trust boundaries: approvals verified where they act, ledger leases.

-- An approval names the exact call it covers and who decided it; `used_by`
-- is the idempotency key of the one call that consumed it (a re-executed
-- node replays under the same key, so it may present the approval again).
ALTER TABLE approvals ADD COLUMN IF NOT EXISTS task_id    text;
ALTER TABLE approvals ADD COLUMN IF NOT EXISTS args_hash  text;
ALTER TABLE approvals ADD COLUMN IF NOT EXISTS user_id    text;
ALTER TABLE approvals ADD COLUMN IF NOT EXISTS decided_by text;
ALTER TABLE approvals ADD COLUMN IF NOT EXISTS decided_hash text;
ALTER TABLE approvals ADD COLUMN IF NOT EXISTS used_by    text;
ALTER TABLE approvals ADD COLUMN IF NOT EXISTS used_at    timestamptz;

-- A claim is a lease: a `started` row whose lease ran out belongs to a
-- process that died. `transactional` says whether the effect commits in the
-- same transaction as the ledger completion (then a started row proves the
-- effect absent) or leaves the database (then its outcome is unknown).
ALTER TABLE idempotency_ledger ADD COLUMN IF NOT EXISTS lease_until timestamptz;
ALTER TABLE idempotency_ledger ADD COLUMN IF NOT EXISTS transactional boolean NOT NULL DEFAULT true;
ALTER TABLE idempotency_ledger DROP CONSTRAINT IF EXISTS idempotency_ledger_state_check;
ALTER TABLE idempotency_ledger ADD CONSTRAINT idempotency_ledger_state_check
    CHECK (state IN ('started', 'succeeded', 'failed', 'unknown'));
