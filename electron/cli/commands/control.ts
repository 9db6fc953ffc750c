// Holding work without changing a setting: `pause`, `resume`, and quieting a lane's nudge.
import type { Command } from 'commander';
import type { Paused } from '../../../shared/model.js';
import { SPAN_LIMITS, tomorrowMorning } from '../../../shared/span.js';
import { duration } from '../args.js';
import { UsageError } from '../errors.js';
import { clientFor, print, printJson } from '../context.js';
import { clock } from '../format.js';

/** "all work paused until 15:30", "lane thumbs paused until you resume it (lanes resume --lane thumbs)". */
export function pausedLine(p: Paused | null, lane?: string): string {
  const what = lane === undefined ? 'all work' : `lane ${lane}`;
  if (p === null) return `${what} resumed`;
  return `${what} paused ${p.until === null ? `until you resume it (lanes resume${lane === undefined ? '' : ` --lane ${lane}`})` : `until ${clock(p.until)}`}`;
}

/** `--until tomorrow`: the one moment word there is (a span goes in --for). */
function untilArg(text: string): number {
  if (text.trim().toLowerCase() !== 'tomorrow') throw new UsageError(`--until takes "tomorrow" (08:00 tomorrow, local time); for a span use --for, e.g. --for 4h`);
  return tomorrowMorning(Date.now());
}

export function registerControl(program: Command): void {
  program
    .command('pause')
    .description('pause all work, or one lane: running jobs finish, nothing new starts; caps are untouched')
    .option('--lane <name>', 'pause only this lane; the others go on')
    .option('--for <span>', 'resume by itself after this long, e.g. 15m, 1h, 4h (default: until `lanes resume`)', duration('--for', SPAN_LIMITS.week))
    .option('--until <when>', 'resume by itself then: "tomorrow" (08:00 tomorrow, local time)', untilArg)
    .option('--json', 'print {"paused": {since, until}}')
    .action(async (opts: { lane?: string; for?: number; until?: number; json?: boolean }, cmd: Command) => {
      if (opts.for !== undefined && opts.until !== undefined) throw new UsageError('give --for or --until, not both');
      const when = opts.for !== undefined ? { forSeconds: opts.for } : opts.until !== undefined ? { until: opts.until } : {};
      const result = await clientFor(cmd).call('pause', { ...when, ...(opts.lane === undefined ? {} : { lane: opts.lane }) });
      if (opts.json) printJson(result);
      else print(pausedLine(result.paused, opts.lane));
    });

  program
    .command('resume')
    .description('resume paused work: all of it, or one lane paused by itself')
    .option('--lane <name>', 'resume only this lane')
    .option('--json', 'print {"paused": null}')
    .action(async (opts: { lane?: string; json?: boolean }, cmd: Command) => {
      const result = await clientFor(cmd).call('resume', opts.lane === undefined ? {} : { lane: opts.lane });
      if (opts.json) printJson(result);
      else print(pausedLine(result.paused, opts.lane));
    });

  program
    .command('snooze')
    .description("quiet a lane's nudge: for a while, or (without --for) for a day; it speaks again sooner if the backlog grows a lot")
    .argument('<lane>', 'the lane')
    .option('--for <span>', 'how long, e.g. 30m, 2h', duration('--for', SPAN_LIMITS.week))
    .option('--json', 'print the lane as JSON')
    .action(async (lane: string, opts: { for?: number; json?: boolean }, cmd: Command) => {
      const status = await clientFor(cmd).call('snoozeNudge', { lane, ...(opts.for === undefined ? {} : { forSeconds: opts.for }) });
      if (opts.json) printJson(status);
      else print(`${lane}: nudge quiet until ${status.nudgeQuietUntil === null ? 'now' : clock(status.nudgeQuietUntil)}, unless its backlog grows a lot`);
    });
}
