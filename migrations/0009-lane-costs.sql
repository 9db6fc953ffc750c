-- What one worker of a lane typically holds in memory, measured (JSON: bytes, at, rounds), so
-- that after a restart Lanes still knows an ml worker costs gigabytes before it starts one.
ALTER TABLE lanes ADD COLUMN worker_cost TEXT;
