// Defaults and limits every side of the contract agrees on. The engine enforces them (through
// the schemas), the CLI and the window only quote them in help text and bounds, so a limit
// changed here changes everywhere at once.

/** The lane jobs go to when none is named. It cannot be removed, only turned off (cap 0). */
export const DEFAULT_LANE = 'worker';

/** A failing job runs at most this many times unless the caller says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 3;
export const MAX_ATTEMPTS_LIMIT = 100;

/**
 * The cap a new lane gets when none is given: conservative on purpose. An ml worker loads a model
 * (gigabytes, seconds), so an ml lane runs nothing until its person decides it may.
 */
export const DEFAULT_CAP = { cpu: 1, ml: 0 } as const;

/** The highest cap a lane may have; the machine's own limits decide how many of those run. */
export const CAP_MAX = 256;

/** The longest text a job search may look for. */
export const SEARCH_MAX_CHARS = 200;

/** Jobs in one addJobs call: one durable write, and a request body that stays a few MiB. */
export const BATCH_MAX = 10_000;

/** Job list pages. */
export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 1_000;

/** Each job's stdout and stderr are kept to this many bytes (the tail). */
export const LOG_CAP_BYTES = 1_048_576;
/** How much of a log one read returns, by default and at most. */
export const LOG_READ_DEFAULT = 65_536;
export const LOG_READ_MAX = LOG_CAP_BYTES;

/** Scale-ledger rows one request returns, by default and at most; the engine keeps the newest 10,000. */
export const LEDGER_READ_DEFAULT = 200;
export const LEDGER_KEEP = 10_000;

/**
 * Retention (docs/retention.md): finished jobs and their logs are removed once older than this,
 * unless LANES_KEEP says otherwise. Succeeded jobs are rarely looked at again after a week or
 * two; a failure is what a person comes back to, after a weekend or a holiday, so it stays longer.
 */
export const KEEP_SUCCEEDED_MS = 14 * 86_400_000;
export const KEEP_UNHAPPY_MS = 30 * 86_400_000;
/** Compact records of removed jobs (id, lane, final state, finished-at) kept, newest first. */
export const CLEANED_KEEP = 100_000;
/** All kept jobs' logs together; past it the oldest finished jobs' logs go first. */
export const LOGS_TOTAL_MAX_BYTES = 1024 * 1_048_576;

/** How far back the scale timeline reaches, in the engine and in the window. */
export const TIMELINE_SPAN_MS = 3_600_000;

/**
 * Up to this many jobs queued by one request are announced one event each, so an open window
 * shows them at once. A larger batch is announced as one `jobs` event and clients re-read what
 * they show: ten thousand events would hold the engine's event loop for tens of milliseconds
 * and push everything else out of the replay buffer that reconnecting clients resume from.
 */
export const JOB_EVENTS_PER_REQUEST = 1_000;

// What a job may carry. Checked when it is queued (or answered), so nothing that can never run is
// stored, and nothing a client or a worker sends can make a list or an event unboundedly large.

/** A job's argv (all words together) or shell line, in UTF-8 bytes: Linux takes at most 128 KiB in one argument. */
export const COMMAND_MAX_BYTES = 128 * 1024;
/** A job's environment additions, names and values together. */
export const ENV_MAX_BYTES = 64 * 1024;
/** A payload for a persistent worker, as JSON. */
export const PAYLOAD_MAX_BYTES = 1_048_576;
/** What a persistent worker answers for one job, as JSON; a larger answer fails the job. */
export const RESULT_MAX_BYTES = 1_048_576;
/** How deeply a payload or an answer may nest. */
export const JSON_DEPTH_MAX = 64;
/** An error message kept with a job (a worker's own words can be long). */
export const ERROR_MAX_CHARS = 2_000;
/** The one-line summary of what a job runs, as lists and events carry it. */
export const COMMAND_SUMMARY_CHARS = 200;
/** The longest a job may be given to run, in seconds (a week). */
export const TIMEOUT_MAX_SECONDS = 7 * 86_400;

/** A dismissed nudge (no time given) stays quiet this long unless the backlog grows materially; the tray's "Snooze for a day" says it. */
export const NUDGE_DISMISS_SECONDS = 24 * 3600;

/** Run first: a job's priority within its lane, −100 … 100 (0 by default); higher runs first. */
export const PRIORITY_MIN = -100;
export const PRIORITY_MAX = 100;
/** Labels one job may carry, and how long one may be. */
export const LABELS_MAX = 8;
export const LABEL_MAX_CHARS = 40;
/** Jobs finished in the pace's window before it is a pace: an estimate, or a Done / min figure, needs a few. */
export const PACE_AFTER_JOBS = 3;
/** Jobs one job may run after. */
export const AFTER_MAX = 100;
/** How far ahead a job may be scheduled: a year (a time beyond that is a typo). */
export const SCHEDULE_MAX_MS = 366 * 86_400_000;
