-- The reply an operator gave to an escalation, so a decision recorded before
-- a crash is applied again as it was given, not asked again.
ALTER TABLE approvals ADD COLUMN IF NOT EXISTS decided_message text;
