-- Where a lane's queue lives. NULL: in this database, as before. Otherwise JSON naming a shared
-- queue on Redis, {"redis": URL, "insecure": bool}: the URL as given, password included, since
-- the engine reconnects with it after every start. The data directory is private (700, files
-- 600); nothing the engine shows or logs carries the password (docs/shared-lanes.md).
ALTER TABLE lanes ADD COLUMN queue TEXT;
