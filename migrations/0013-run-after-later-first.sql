-- What people reach for every day in a job queue: run after other jobs, run later, run first,
-- labels, and a finished job run again (docs/cli.md, "Order and time").
-- Higher runs first within a lane (−100 … 100); then oldest first, as before.
ALTER TABLE jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
-- Not runnable before then (ms since the epoch); set back to NULL once it is due, so the queue's
-- head never has to look past jobs scheduled for later.
ALTER TABLE jobs ADD COLUMN not_before INTEGER;
-- How many of the jobs it runs after have not succeeded yet; it can run only at 0.
ALTER TABLE jobs ADD COLUMN deps_left INTEGER NOT NULL DEFAULT 0;
-- Its labels as a JSON array (what lists show); job_labels is what a label is looked up by.
ALTER TABLE jobs ADD COLUMN labels TEXT;
-- The finished job this one runs again (`lanes restart`); NULL: it is nobody's restart.
ALTER TABLE jobs ADD COLUMN restart_of INTEGER;

-- `job` runs only once `after` has succeeded. A job may depend only on jobs that exist when it is
-- added (or edited, which checks for cycles), so the graph has none.
CREATE TABLE job_deps (
  after INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  job   INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  PRIMARY KEY (after, job)
) WITHOUT ROWID;
CREATE INDEX job_deps_job ON job_deps (job);

CREATE TABLE job_labels (
  label TEXT NOT NULL,
  job   INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  PRIMARY KEY (label, job)
) WITHOUT ROWID;
CREATE INDEX job_labels_job ON job_labels (job);

-- The queue's head, as a claim seeks it: runnable jobs only, highest priority then oldest. Jobs
-- waiting for other jobs or for their time are not in it, so however many there are, a claim
-- reads only what it takes.
CREATE INDEX jobs_ready ON jobs (lane, priority DESC, id) WHERE state = 'queued' AND deps_left = 0 AND not_before IS NULL;
-- The jobs waiting for other jobs or for their time, counted per lane (covering: no row is read).
CREATE INDEX jobs_waiting ON jobs (lane, deps_left, not_before) WHERE state = 'queued' AND (deps_left > 0 OR not_before IS NOT NULL);
CREATE INDEX jobs_restarts ON jobs (restart_of) WHERE restart_of IS NOT NULL;
-- jobs_ready and jobs_waiting hold every queued job between them, so the unfinished index of 0007
-- gives way to one of the running few: a queued job is still entered in one index, not two.
DROP INDEX jobs_active;
CREATE INDEX jobs_running ON jobs (lane, id) WHERE state = 'running';
