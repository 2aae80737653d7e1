-- Honest accounting: a row names the request (audit id) it was spent in, how
-- the call ended, and whether its counts are estimates (a failed or timed-out
-- call reports none: its input is estimated and a timed-out call's output is
-- counted as the max_tokens it was allowed).
ALTER TABLE token_ledger ADD COLUMN IF NOT EXISTS audit_id text;
ALTER TABLE token_ledger ADD COLUMN IF NOT EXISTS outcome text NOT NULL DEFAULT 'replied'
    CHECK (outcome IN ('replied', 'failed', 'timed_out'));
ALTER TABLE token_ledger ADD COLUMN IF NOT EXISTS estimated boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS token_ledger_request_idx ON token_ledger (thread_id, audit_id);
