-- Every start, stop and drain of a worker, with its reason, so a person can see why the
-- fleet changed. Pruned to a bounded size by the engine.
CREATE TABLE scale_events (
  id     INTEGER PRIMARY KEY,
  at     INTEGER NOT NULL,
  lane   TEXT NOT NULL,
  "from" INTEGER NOT NULL,
  "to"   INTEGER NOT NULL,
  reason TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX scale_events_lane ON scale_events (lane, id);
