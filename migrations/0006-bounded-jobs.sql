-- Jobs that are bounded and whose failures are kept.
-- A one-line summary of what a job runs, so lists and events never carry (or parse) a full spec.
-- Older rows have none; the engine describes them from their spec when it reads them.
ALTER TABLE jobs ADD COLUMN command TEXT;
-- A retry waits until then (exponential backoff); NULL: it may run at once.
ALTER TABLE jobs ADD COLUMN run_after INTEGER;
-- How many times in a row the engine died while this job ran; twice, and it is held back.
ALTER TABLE jobs ADD COLUMN interrupted INTEGER NOT NULL DEFAULT 0;
-- The most a run may take, in ms (the job's own, else its lane's when it was queued); NULL: no limit.
ALTER TABLE jobs ADD COLUMN timeout_ms INTEGER;
ALTER TABLE lanes ADD COLUMN timeout_ms INTEGER;

-- Every attempt that did not succeed, with its own error: the job row keeps only the last.
CREATE TABLE job_attempts (
  id          INTEGER PRIMARY KEY,
  job_id      INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,
  started_at  INTEGER,
  finished_at INTEGER NOT NULL,
  outcome     TEXT NOT NULL,
  exit_code   INTEGER,
  error       TEXT
);
CREATE INDEX job_attempts_job ON job_attempts (job_id, id);

-- Retries waiting for their moment: few, and looked at on every sizer pass.
CREATE INDEX jobs_delayed ON jobs (lane, run_after) WHERE state = 'queued' AND run_after IS NOT NULL;
