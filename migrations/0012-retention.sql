-- Kept for a year: finished jobs go once they are older than the engine's retention period
-- (docs/retention.md), and what is left of each is one compact row, so `lanes wait`, `show` and
-- `log` can still say how it ended. About 30 bytes a row; the engine keeps the newest
-- CLEANED_KEEP of them (shared/limits.ts) and removes the oldest past that, so this table is
-- bounded too. Shared lanes' jobs land here as well when this engine saw them finish: BullMQ
-- drops their records after 2,000 newer successes.
CREATE TABLE cleaned_jobs (
  id          INTEGER PRIMARY KEY,
  lane        TEXT NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('succeeded', 'failed', 'cancelled')),
  exit_code   INTEGER,
  finished_at INTEGER,
  -- NULL: not removed yet (a shared job this engine saw finish, still in BullMQ).
  cleaned_at  INTEGER
);
-- A job whose log files went to keep all logs within their total bound, before the job did.
ALTER TABLE jobs ADD COLUMN logs_trimmed INTEGER NOT NULL DEFAULT 0;
