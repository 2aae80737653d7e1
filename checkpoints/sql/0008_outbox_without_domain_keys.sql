-- Databases created before domain packs had the outbox reference the retail
-- users table; the harness owns no domain table, so the key goes.
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_user_id_fkey;
