-- Operators are told a request is waiting by e-mail and, when configured, by a
-- webhook: a `webhook` row's recipient is the URL and its body the JSON posted,
-- delivered by the same worker with the same lease, retry and fencing.
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_channel_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_channel_check
    CHECK (channel IN ('email', 'sms', 'push', 'webhook'));
