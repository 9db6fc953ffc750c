-- Per-lane job counts kept by triggers, so the sizer and status never COUNT over the jobs
-- table (a million queued rows take tens of ms to count; reading these rows takes microseconds).
CREATE TABLE lane_counts (
  lane      TEXT PRIMARY KEY,
  queued    INTEGER NOT NULL DEFAULT 0,
  running   INTEGER NOT NULL DEFAULT 0,
  succeeded INTEGER NOT NULL DEFAULT 0,
  failed    INTEGER NOT NULL DEFAULT 0,
  cancelled INTEGER NOT NULL DEFAULT 0
);

INSERT INTO lane_counts (lane, queued, running, succeeded, failed, cancelled)
  SELECT l.name,
         (SELECT count(*) FROM jobs j WHERE j.lane = l.name AND j.state = 'queued'),
         (SELECT count(*) FROM jobs j WHERE j.lane = l.name AND j.state = 'running'),
         (SELECT count(*) FROM jobs j WHERE j.lane = l.name AND j.state = 'succeeded'),
         (SELECT count(*) FROM jobs j WHERE j.lane = l.name AND j.state = 'failed'),
         (SELECT count(*) FROM jobs j WHERE j.lane = l.name AND j.state = 'cancelled')
  FROM lanes l;

CREATE TRIGGER lane_counts_lane_added AFTER INSERT ON lanes BEGIN
  INSERT OR IGNORE INTO lane_counts (lane) VALUES (NEW.name);
END;

CREATE TRIGGER lane_counts_lane_removed AFTER DELETE ON lanes BEGIN
  DELETE FROM lane_counts WHERE lane = OLD.name;
END;

CREATE TRIGGER lane_counts_job_added AFTER INSERT ON jobs BEGIN
  UPDATE lane_counts SET
    queued    = queued    + (NEW.state = 'queued'),
    running   = running   + (NEW.state = 'running'),
    succeeded = succeeded + (NEW.state = 'succeeded'),
    failed    = failed    + (NEW.state = 'failed'),
    cancelled = cancelled + (NEW.state = 'cancelled')
  WHERE lane = NEW.lane;
END;

CREATE TRIGGER lane_counts_job_moved AFTER UPDATE OF state ON jobs WHEN OLD.state <> NEW.state BEGIN
  UPDATE lane_counts SET
    queued    = queued    + (NEW.state = 'queued')    - (OLD.state = 'queued'),
    running   = running   + (NEW.state = 'running')   - (OLD.state = 'running'),
    succeeded = succeeded + (NEW.state = 'succeeded') - (OLD.state = 'succeeded'),
    failed    = failed    + (NEW.state = 'failed')    - (OLD.state = 'failed'),
    cancelled = cancelled + (NEW.state = 'cancelled') - (OLD.state = 'cancelled')
  WHERE lane = NEW.lane;
END;

CREATE TRIGGER lane_counts_job_deleted AFTER DELETE ON jobs BEGIN
  UPDATE lane_counts SET
    queued    = queued    - (OLD.state = 'queued'),
    running   = running   - (OLD.state = 'running'),
    succeeded = succeeded - (OLD.state = 'succeeded'),
    failed    = failed    - (OLD.state = 'failed'),
    cancelled = cancelled - (OLD.state = 'cancelled')
  WHERE lane = OLD.lane;
END;

-- Recent throughput and wait come from finished jobs per lane.
CREATE INDEX jobs_finished ON jobs (lane, finished_at) WHERE finished_at IS NOT NULL;

-- Listing newest-first by lane, by state, or both, without sorting the table.
CREATE INDEX jobs_lane ON jobs (lane, id);
CREATE INDEX jobs_state ON jobs (state, id);
CREATE INDEX jobs_lane_state ON jobs (lane, state, id);
