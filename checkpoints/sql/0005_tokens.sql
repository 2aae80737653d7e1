-- Bearer tokens of the served graph. Only the sha256 of the secret is kept:
-- a database dump cannot be replayed as credentials.
CREATE TABLE IF NOT EXISTS auth_tokens (
    token_id     text PRIMARY KEY,
    token_hash   text        NOT NULL UNIQUE,
    kind         text        NOT NULL CHECK (kind IN ('customer', 'operator')),
    subject      text        NOT NULL CHECK (subject <> ''),
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz,
    last_used_at timestamptz
);
CREATE INDEX IF NOT EXISTS auth_tokens_subject_idx ON auth_tokens (kind, subject);
