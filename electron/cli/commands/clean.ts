// `lanes clean`: finished jobs' records and logs removed now, instead of at the end of their keep
// (docs/retention.md). Queued, running and retrying jobs are never touched.
import { Option, type Command } from 'commander';
import { plural } from '../../../shared/format.js';
import { SPAN_LIMITS } from '../../../shared/span.js';
import { duration } from '../args.js';
import { clientFor, print, printJson } from '../context.js';

const STATES = ['succeeded', 'failed', 'cancelled'] as const;

export function registerClean(program: Command): void {
  program
    .command('clean')
    .description('remove finished jobs (succeeded, failed, cancelled) and their logs now; say how many')
    .option('--lane <name>', 'only this lane')
    .addOption(new Option('--state <state>', 'only jobs that ended this way').choices(STATES))
    .option('--older-than <span>', 'only jobs finished at least this long ago, e.g. 12h, 7d', duration('--older-than', SPAN_LIMITS.keep))
    .option('--json', 'print the counts as JSON')
    .action(async (opts: { lane?: string; state?: (typeof STATES)[number]; olderThan?: number; json?: boolean }, cmd: Command) => {
      const result = await clientFor(cmd).call('clean', {
        ...(opts.lane !== undefined ? { lane: opts.lane } : {}),
        ...(opts.state !== undefined ? { state: opts.state } : {}),
        ...(opts.olderThan !== undefined ? { olderThanSeconds: opts.olderThan } : {}),
      });
      if (opts.json) return printJson(result);
      const by = STATES.filter((s) => result.byState[s] > 0).map((s) => `${result.byState[s].toLocaleString('en-US')} ${s}`);
      print(`removed ${plural(result.removed, 'finished job')}${by.length > 1 ? ` (${by.join(', ')})` : ''}`);
    });
}
