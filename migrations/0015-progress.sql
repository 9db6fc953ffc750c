-- How far a running job says it has got (docs/worker-protocol.md "Progress"): its latest report
-- as JSON (fraction, the count it gave, its words, when), written a few times a second at most
-- however often the job reports. Cleared when a run starts: each run reports afresh.
ALTER TABLE jobs ADD COLUMN progress TEXT;
