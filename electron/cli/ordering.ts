// The options `add` and `edit` share for when and in what order a job runs and what it is filed
// under: --after, --delay, --at, --priority, --label. Parsed here into the request's fields, so a
// malformed one is a usage error (exit 2) before anything reaches the engine; the engine checks
// the rest (that the jobs exist, the limits) with the same schema every door uses.
import { InvalidArgumentError, type Command } from 'commander';
import { LABELS_MAX, PRIORITY_MAX, PRIORITY_MIN } from '../../shared/limits.js';
import { parseIsoTime } from '../../shared/moment.js';
import { SPAN_LIMITS } from '../../shared/span.js';
import { duration, jobIdArg, wholeNumber } from './args.js';
import { UsageError } from './errors.js';

export interface OrderingOptions {
  after?: number[];
  delay?: number;
  at?: number;
  priority?: number;
  label?: string[];
}

/** `--after 3,4 --after 5`: every id, in order, once. */
export function afterIds(text: string, previous: number[] = []): number[] {
  const ids = text.split(',').map((part) => jobIdArg(part.trim()));
  return [...new Set([...previous, ...ids])];
}

/**
 * `--at 02:00` is the next 02:00 local time (today if it is still ahead, else tomorrow); anything
 * else is read as an ISO 8601 time (`2026-12-02T02:00`, `2026-12-02T01:00:00Z`), which must be ahead.
 */
export function atTime(text: string, now = new Date()): number {
  const t = text.trim();
  const hm = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (hm) {
    const [h, m] = [Number(hm[1]), Number(hm[2])];
    if (h > 23 || m > 59) throw new InvalidArgumentError(`--at takes a time of day HH:MM (00:00 to 23:59), not "${text}"`);
    const at = new Date(now.getFullYear(), now.getMonth(), now.getDate(), h, m, 0, 0);
    if (at.getTime() <= now.getTime()) at.setDate(at.getDate() + 1);
    return at.getTime();
  }
  if (!/^\d{4}-/.test(t)) throw new InvalidArgumentError(`--at takes a time of day (02:00) or an ISO 8601 time (2026-12-02T02:00), not "${text}"`);
  const at = parseIsoTime(t);
  if ('problem' in at) throw new InvalidArgumentError(`--at: ${at.problem}`);
  if (at.ms <= now.getTime()) throw new InvalidArgumentError(`--at ${text} is already past`);
  if (at.ms > now.getTime() + SPAN_LIMITS.schedule.ms) throw new InvalidArgumentError(`--at ${text} is more than ${SPAN_LIMITS.schedule.words} ahead`);
  return at.ms;
}

const labelArg = (text: string, previous: string[] = []) => [...previous, text];

/** Adds the shared options to `add` or `edit`. */
export function orderingOptions(cmd: Command): Command {
  return cmd
    .option('--after <ids>', 'run only once these jobs have succeeded (ID[,ID…]; repeatable); if one fails or is cancelled, this one fails', afterIds)
    .option('--delay <span>', 'do not run before this span from now: 90s, 15m, 1h30m, 2d (at most a year)', duration('--delay', SPAN_LIMITS.schedule))
    .option('--at <time>', 'do not run before then: the next HH:MM local time, or an ISO 8601 time', (text: string) => atTime(text))
    .option('--priority <n>', `within the lane, higher runs first (${PRIORITY_MIN} … ${PRIORITY_MAX}, default 0)`, wholeNumber('--priority', PRIORITY_MIN, PRIORITY_MAX))
    .option('--label <text>', `file the job under this label (repeatable, at most ${LABELS_MAX})`, labelArg);
}

/** The request fields the options ask for. */
export function orderingInput(opts: OrderingOptions): { after?: number[]; delaySeconds?: number; notBefore?: number; priority?: number; labels?: string[] } {
  if (opts.delay !== undefined && opts.at !== undefined) throw new UsageError('give --delay or --at, not both');
  return {
    ...(opts.after !== undefined ? { after: opts.after } : {}),
    ...(opts.delay !== undefined ? { delaySeconds: opts.delay } : {}),
    ...(opts.at !== undefined ? { notBefore: opts.at } : {}),
    ...(opts.priority !== undefined ? { priority: opts.priority } : {}),
    ...(opts.label !== undefined ? { labels: opts.label } : {}),
  };
}
