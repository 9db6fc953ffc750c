-- A job's number is its own for ever (docs/retention.md, "A job's number").
--
-- 1. jobs.id was INTEGER PRIMARY KEY alone, so SQLite handed out max(id) + 1: once the newest jobs
--    were cleaned, the next job got a number a cleaned job had had (and 1 once all were). With
--    AUTOINCREMENT, SQLite keeps the highest id it ever gave in sqlite_sequence and never goes
--    below it. SQLite adds AUTOINCREMENT only to a new table, so jobs is rebuilt, as it stands.
CREATE TABLE jobs_new (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  lane         TEXT NOT NULL REFERENCES lanes(name),
  spec         TEXT NOT NULL,
  state        TEXT NOT NULL DEFAULT 'queued'
               CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL DEFAULT 3,
  created_at   INTEGER NOT NULL,
  started_at   INTEGER,
  finished_at  INTEGER,
  exit_code    INTEGER,
  error        TEXT,
  result       TEXT,
  worker       TEXT,
  pgid         INTEGER,
  command      TEXT,
  run_after    INTEGER,
  interrupted  INTEGER NOT NULL DEFAULT 0,
  timeout_ms   INTEGER,
  load_ms      INTEGER,
  logs_trimmed INTEGER NOT NULL DEFAULT 0,
  priority     INTEGER NOT NULL DEFAULT 0,
  not_before   INTEGER,
  deps_left    INTEGER NOT NULL DEFAULT 0,
  labels       TEXT,
  restart_of   INTEGER
);
INSERT INTO jobs_new (id, lane, spec, state, attempts, max_attempts, created_at, started_at, finished_at, exit_code, error, result, worker, pgid,
                      command, run_after, interrupted, timeout_ms, load_ms, logs_trimmed, priority, not_before, deps_left, labels, restart_of)
  SELECT id, lane, spec, state, attempts, max_attempts, created_at, started_at, finished_at, exit_code, error, result, worker, pgid,
         command, run_after, interrupted, timeout_ms, load_ms, logs_trimmed, priority, not_before, deps_left, labels, restart_of
  FROM jobs ORDER BY id;
DROP TABLE jobs;
ALTER TABLE jobs_new RENAME TO jobs;
CREATE INDEX jobs_lane ON jobs (lane, id);
CREATE INDEX jobs_delayed ON jobs (lane, run_after) WHERE state = 'queued' AND run_after IS NOT NULL;
CREATE INDEX jobs_unhappy ON jobs (lane, id) WHERE state IN ('failed', 'cancelled');
CREATE INDEX jobs_ready ON jobs (lane, priority DESC, id) WHERE state = 'queued' AND deps_left = 0 AND not_before IS NULL;
CREATE INDEX jobs_waiting ON jobs (lane, deps_left, not_before) WHERE state = 'queued' AND (deps_left > 0 OR not_before IS NOT NULL);
CREATE INDEX jobs_restarts ON jobs (restart_of) WHERE restart_of IS NOT NULL;
CREATE INDEX jobs_running ON jobs (lane, id) WHERE state = 'running';

-- The next id is above every id this store has given: the kept jobs, the compact records of
-- cleaned ones, and what still names a cleaned job (a restart's link, a dependency). Shared
-- lanes' ids (10^15 and up, store/job-ids.ts) are BullMQ's numbers, not this table's. The ids
-- only log file names still know are raised at every open (store/job-ids.ts).
INSERT INTO sqlite_sequence (name, seq) SELECT 'jobs', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'jobs');
UPDATE sqlite_sequence SET seq = max(
    seq,
    coalesce((SELECT max(id) FROM jobs), 0),
    coalesce((SELECT max(restart_of) FROM jobs WHERE restart_of < 1000000000000000), 0),
    coalesce((SELECT max(id) FROM cleaned_jobs WHERE id < 1000000000000000), 0),
    coalesce((SELECT max(after) FROM job_deps), 0),
    coalesce((SELECT max(job_id) FROM job_attempts), 0))
  WHERE name = 'jobs';

-- 2. A dependent that an older Lanes let wait for a job that can no longer succeed ends now, as
--    it would have when that job ended: a retried dependent of a failed or cancelled job ("job
--    41 failed"), and one whose count of jobs to wait for names a job that has since been cleaned
--    without succeeding (its link went with it, so the words cannot name it). And so on down the
--    chain, each naming the job it ran after.
CREATE TEMP TABLE doomed AS
  WITH RECURSIVE down(id, because) AS (
    SELECT d.job, a.id FROM job_deps d JOIN jobs a ON a.id = d.after JOIN jobs j ON j.id = d.job
      WHERE j.state = 'queued' AND a.state IN ('failed', 'cancelled')
    UNION
    SELECT j.id, NULL FROM jobs j
      WHERE j.state = 'queued' AND j.deps_left > (SELECT count(*) FROM job_deps d JOIN jobs a ON a.id = d.after WHERE d.job = j.id AND a.state != 'succeeded')
    UNION
    SELECT d.job, d.after FROM job_deps d JOIN down ON d.after = down.id JOIN jobs j ON j.id = d.job WHERE j.state = 'queued'
  )
  SELECT id, min(because) AS because FROM down GROUP BY id;
UPDATE jobs SET
    state = 'failed', finished_at = CAST(unixepoch('subsec') * 1000 AS INTEGER), run_after = NULL, not_before = NULL, worker = NULL,
    error = (SELECT CASE WHEN d.because IS NULL THEN 'a job it ran after did not succeed and was cleaned'
                         WHEN (SELECT state FROM jobs a WHERE a.id = d.because) = 'cancelled' THEN 'job ' || d.because || ' was cancelled'
                         ELSE 'job ' || d.because || ' failed' END
             FROM doomed d WHERE d.id = jobs.id)
  WHERE id IN (SELECT id FROM doomed);
DROP TABLE doomed;
-- Jobs changed state outside the engine: it counts them afresh when it opens (store/counts.ts).
UPDATE store_flags SET value = 0 WHERE name = 'counts_exact';

-- 3. What a job runs after stays named once that job is cleaned: a dependent retried later must
--    still know it ran after a job that failed, and one added after a cleaned success shows it.
--    So `after` no longer cascades from jobs (a dependent's own links still go with it).
CREATE TABLE job_deps_new (
  after INTEGER NOT NULL,
  job   INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  PRIMARY KEY (after, job)
) WITHOUT ROWID;
INSERT INTO job_deps_new (after, job) SELECT after, job FROM job_deps;
DROP TABLE job_deps;
ALTER TABLE job_deps_new RENAME TO job_deps;
CREATE INDEX job_deps_job ON job_deps (job);

-- 4. The jobs whose log files must still go: written in the transaction that removes the jobs,
--    emptied once the files are gone, so a cleaning cut short by a crash is finished by the next
--    pass (retention/retention.ts). Ids only: each is a job that owned its files, and no later
--    job will ever have its number.
CREATE TABLE logs_to_remove (id INTEGER PRIMARY KEY);
