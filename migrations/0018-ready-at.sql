-- When a queued job became runnable, where that was later than it was queued: its time came
-- (`not_before` let go) or the last job it runs after succeeded. A lane's longest wait counts
-- from then, not through a delay the person asked for. NULL: runnable since it was queued.
ALTER TABLE jobs ADD COLUMN ready_at INTEGER;

-- Only the jobs that waited for something are in it: plain jobs cost it nothing.
CREATE INDEX jobs_ready_at ON jobs (lane, ready_at) WHERE state = 'queued' AND deps_left = 0 AND not_before IS NULL AND ready_at IS NOT NULL;
