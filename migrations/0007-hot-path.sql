-- Only what the hot path needs. A finished job moved entries in five indexes (queued, running,
-- state, lane + state, finish time) and two trigger updates of lane_counts, so every job rewrote
-- about a dozen pages. Now:
-- - one index holds the unfinished jobs of each lane in queue order; a claim changes the state in
--   its key in place, so taking a job and finishing one touch the same page at the queue's head;
-- - failed and cancelled jobs keep an index of their own: few, entered only when a job ends that
--   way, and "retry all failed" must find them at once;
-- - listings walk the primary key or the lane's index in bounded windows;
-- - per-lane counts are kept by the engine in memory and written back when it stops; after a
--   crash they are counted afresh (store_flags says whether the saved ones are exact).
DROP INDEX jobs_state;
DROP INDEX jobs_lane_state;
DROP INDEX jobs_finished;
DROP INDEX jobs_queued;
DROP INDEX jobs_running;
CREATE INDEX jobs_active ON jobs (lane, id, state) WHERE state IN ('queued', 'running');
CREATE INDEX jobs_unhappy ON jobs (lane, id) WHERE state IN ('failed', 'cancelled');

DROP TRIGGER lane_counts_job_added;
DROP TRIGGER lane_counts_job_moved;
DROP TRIGGER lane_counts_job_deleted;

CREATE TABLE store_flags (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
-- The triggers kept lane_counts exact up to this moment.
INSERT INTO store_flags (name, value) VALUES ('counts_exact', 1);
