-- Where a lane's persistent worker command runs. A command given as `python3 serve.py` names
-- its script relative to where the person typed it, not to wherever the engine happens to run.
ALTER TABLE lanes ADD COLUMN worker_cwd TEXT;
