-- One lane paused by itself (`lanes pause --lane NAME`): running jobs finish, nothing new starts
-- there, other lanes go on. paused_since is NULL while it is not paused; paused_until NULL while
-- paused means until someone resumes it.
ALTER TABLE lanes ADD COLUMN paused_since INTEGER;
ALTER TABLE lanes ADD COLUMN paused_until INTEGER;
