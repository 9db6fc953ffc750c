-- What a day of real use asked for.
-- A persistent lane's first job waited this long for its worker's command to load (ms).
ALTER TABLE jobs ADD COLUMN load_ms INTEGER;
-- The nudge listens: quiet until then, unless the backlog has grown past what it was (a person
-- lowered the cap, snoozed or dismissed it).
ALTER TABLE lanes ADD COLUMN nudge_quiet_until INTEGER;
ALTER TABLE lanes ADD COLUMN nudge_quiet_backlog INTEGER;
-- The scale timeline across restarts: one point per lane and second at most, the last hour kept.
CREATE TABLE timeline_points (
  lane    TEXT NOT NULL,
  at      INTEGER NOT NULL,
  workers INTEGER NOT NULL,
  busy    INTEGER NOT NULL,
  waiting INTEGER NOT NULL,
  cap     INTEGER NOT NULL,
  PRIMARY KEY (lane, at)
) WITHOUT ROWID;
CREATE INDEX timeline_points_at ON timeline_points (at);
