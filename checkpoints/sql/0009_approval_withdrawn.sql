-- A customer who changes their mind withdraws the request still waiting for an
-- operator: the row stays (audited), closed as `withdrawn`, never approvable again.
ALTER TABLE approvals DROP CONSTRAINT IF EXISTS approvals_status_check;
ALTER TABLE approvals ADD CONSTRAINT approvals_status_check
    CHECK (status IN ('pending', 'approved', 'rejected', 'edited', 'answered', 'withdrawn'));
