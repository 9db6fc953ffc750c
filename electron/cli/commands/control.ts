// Holding work without changing a setting: `pause`, `resume`, and quieting a lane's nudge.
import type { Command } from 'commander';
import type { Paused } from '../../../shared/model.js';
import { SPAN_LIMITS } from '../../../shared/span.js';
import { duration } from '../args.js';
import { clientFor, print, printJson } from '../context.js';
import { clock } from '../format.js';

const pausedLine = (p: Paused | null) => (p === null ? 'all work resumed' : `all work paused ${p.until === null ? 'until you resume it (lanes resume)' : `until ${clock(p.until)}`}`);

export function registerControl(program: Command): void {
  program
    .command('pause')
    .description('pause all work: running jobs finish, nothing new starts; caps are untouched')
    .option('--for <span>', 'resume by itself after this long, e.g. 30m, 1h (default: until `lanes resume`)', duration('--for', SPAN_LIMITS.week))
    .option('--json', 'print {"paused": {since, until}}')
    .action(async (opts: { for?: number; json?: boolean }, cmd: Command) => {
      const result = await clientFor(cmd).call('pause', opts.for === undefined ? {} : { forSeconds: opts.for });
      if (opts.json) printJson(result);
      else print(pausedLine(result.paused));
    });

  program
    .command('resume')
    .description('resume paused work')
    .option('--json', 'print {"paused": null}')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const result = await clientFor(cmd).call('resume', {});
      if (opts.json) printJson(result);
      else print(pausedLine(result.paused));
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
