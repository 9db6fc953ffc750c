-- A dependent that never ran because a job it runs after could not succeed keeps that job's id:
-- set in the transaction that fails it, cleared when it is queued again. Blocked is this fact,
-- not a reading of the error's words, which a worker may write as it likes ("job 3: upload
-- failed"). NULL: not blocked.
ALTER TABLE jobs ADD COLUMN blocked_by INTEGER;

-- Rows failed by an older Lanes carry only its words: "job 41 failed", "job 41 was cancelled",
-- "job 41 did not succeed", exactly, with no exit code (the dependent never ran). Read here once,
-- strictly: the id digits alone, one of those endings whole, and, where the row keeps what it ran
-- after, the id among them (a link could have gone with a job cleaned before migration 0014).
WITH worded AS (
  SELECT id, substr(error, 5, instr(substr(error, 5), ' ') - 1) AS named, substr(substr(error, 5), instr(substr(error, 5), ' ') + 1) AS ending
  FROM jobs WHERE state = 'failed' AND exit_code IS NULL AND error GLOB 'job [0-9]* *'
)
UPDATE jobs SET blocked_by = CAST(w.named AS INTEGER)
FROM worded w
WHERE w.id = jobs.id AND w.named <> '' AND w.named NOT GLOB '*[^0-9]*' AND length(w.named) <= 16
  AND w.ending IN ('failed', 'was cancelled', 'did not succeed')
  AND (NOT EXISTS (SELECT 1 FROM job_deps d WHERE d.job = jobs.id)
       OR EXISTS (SELECT 1 FROM job_deps d WHERE d.job = jobs.id AND d.after = CAST(w.named AS INTEGER)));

-- The blocked are few beside the jobs that ran: counting or listing a lane's reads only them.
CREATE INDEX jobs_blocked ON jobs (lane, id) WHERE state = 'failed' AND blocked_by IS NOT NULL;
