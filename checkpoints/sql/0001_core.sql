-- rolegraph's own operational tables. Filled by the skill runtime and graph.

CREATE TABLE IF NOT EXISTS audit_events (
    id            bigserial PRIMARY KEY,
    audit_id      text        NOT NULL,
    thread_id     text,
    step          integer     NOT NULL DEFAULT 0,
    node          text,
    role          text,
    skill         text,
    version       text,
    args_hash     text,
    status        text        NOT NULL,
    error_code    text,
    retries       integer     NOT NULL DEFAULT 0,
    duration_ms   integer     NOT NULL DEFAULT 0,
    breaker_state text,
    approval_id   text,
    detail        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at    timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX IF NOT EXISTS audit_events_audit_id_idx ON audit_events (audit_id, id);
CREATE INDEX IF NOT EXISTS audit_events_thread_idx ON audit_events (thread_id, id);

-- One row per side-effecting call: the key is (run, task, skill, args hash),
-- so a re-executed node or a second process returns the recorded result.
CREATE TABLE IF NOT EXISTS idempotency_ledger (
    key          text PRIMARY KEY,
    run_id       text        NOT NULL,
    task_id      text        NOT NULL,
    skill        text        NOT NULL,
    args_hash    text        NOT NULL,
    state        text        NOT NULL CHECK (state IN ('started', 'succeeded', 'failed')),
    result       jsonb,
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz
);

CREATE TABLE IF NOT EXISTS token_ledger (
    id            bigserial PRIMARY KEY,
    thread_id     text,
    node          text        NOT NULL,
    role          text,
    model         text        NOT NULL,
    input_tokens  integer     NOT NULL CHECK (input_tokens >= 0),
    output_tokens integer     NOT NULL CHECK (output_tokens >= 0),
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS token_ledger_day_idx ON token_ledger (created_at);
CREATE INDEX IF NOT EXISTS token_ledger_node_idx ON token_ledger (node, created_at);

-- Pending and decided approvals across threads, so `rolegraph inbox` does not
-- have to scan every checkpoint.
CREATE TABLE IF NOT EXISTS approvals (
    request_id  text PRIMARY KEY,
    thread_id   text        NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('approval', 'escalation')),
    skill       text,
    risk        text,
    args        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    reason      text,
    audit_id    text,
    status      text        NOT NULL DEFAULT 'pending'
                            CHECK (status IN ('pending', 'approved', 'rejected', 'edited', 'answered')),
    decided_args jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    decided_at  timestamptz
);
CREATE INDEX IF NOT EXISTS approvals_pending_idx ON approvals (created_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS approvals_thread_idx ON approvals (thread_id);
