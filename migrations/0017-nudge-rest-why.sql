-- Why a lane's nudge is resting, so its words can say it: 'cap' (the person lowered the cap),
-- 'snooze' (snoozed for a while), 'dismiss' (dismissed; quiet for a day). NULL: not resting, or
-- quieted by an older Lanes that kept no reason.
ALTER TABLE lanes ADD COLUMN nudge_quiet_why TEXT;
