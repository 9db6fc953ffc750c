-- The sizer is always on, so the dial goes. `slots` was a measurement stored as a preference,
-- `autoscale` gated the only thing that gives workers back, and `enabled` is just "cap > 0".
-- The cap is written fresh rather than carried over from `slots`: the old numbers bounded a
-- dial people moved within, and reading them as "most workers this lane may use" would
-- multiply every existing install's worker lane at the moment this runs.
CREATE TABLE lanes_new (
  name           TEXT PRIMARY KEY CHECK (name GLOB '[a-z0-9-]*' AND length(name) BETWEEN 1 AND 32),
  class          TEXT NOT NULL CHECK (class IN ('cpu', 'ml')),
  cap            INTEGER NOT NULL CHECK (cap >= 0),
  worker_command TEXT,
  created_at     INTEGER NOT NULL
);

INSERT INTO lanes_new (name, class, cap, worker_command, created_at)
  SELECT name, class, CASE class WHEN 'ml' THEN 0 ELSE 1 END, worker_command, created_at FROM lanes ORDER BY rowid;

DROP TABLE lanes;
ALTER TABLE lanes_new RENAME TO lanes;
