-- The first schema: each lane was a manual dial. `slots` was how many workers to run,
-- `enabled` switched the lane, `autoscale` let a later sweep move `slots`.
CREATE TABLE lanes (
  name           TEXT PRIMARY KEY CHECK (name GLOB '[a-z0-9-]*' AND length(name) BETWEEN 1 AND 32),
  class          TEXT NOT NULL CHECK (class IN ('cpu', 'ml')),
  slots          INTEGER NOT NULL DEFAULT 1,
  enabled        INTEGER NOT NULL DEFAULT 1,
  autoscale      INTEGER NOT NULL DEFAULT 0,
  worker_command TEXT,            -- JSON argv of a persistent worker, or NULL for shell lanes
  created_at     INTEGER NOT NULL -- ms since epoch
);

INSERT INTO lanes (name, class, slots, enabled, autoscale, created_at) VALUES
  ('worker', 'cpu', 4, 1, 0, CAST(unixepoch('subsec') * 1000 AS INTEGER)),
  ('ml',     'ml',  2, 1, 0, CAST(unixepoch('subsec') * 1000 AS INTEGER));

CREATE TABLE jobs (
  id           INTEGER PRIMARY KEY,
  lane         TEXT NOT NULL REFERENCES lanes(name),
  spec         TEXT NOT NULL,              -- JSON JobSpec
  state        TEXT NOT NULL DEFAULT 'queued'
               CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL DEFAULT 3,
  created_at   INTEGER NOT NULL,
  started_at   INTEGER,
  finished_at  INTEGER,
  exit_code    INTEGER,
  error        TEXT,
  result       TEXT,                       -- JSON answer of a persistent worker
  worker       TEXT,                       -- id of the worker holding a running job
  pgid         INTEGER                     -- process group of a running shell job
);

-- Claiming takes the oldest queued job of a lane; this keeps that a seek, not a scan.
CREATE INDEX jobs_queued ON jobs (lane, id) WHERE state = 'queued';
CREATE INDEX jobs_running ON jobs (worker) WHERE state = 'running';
