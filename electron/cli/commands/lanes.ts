// Lanes and their caps: `status`, `cap`, `lane add`, `lane remove`.
import { Option, type Command } from 'commander';
import type { LaneStatus, SharedLaneStatus, Status } from '../../../shared/model.js';
import { capArg, seconds, splitWords } from '../args.js';
import { clientFor, print, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import { clock, count, duration, fittedTable, rate, tableWidth } from '../format.js';
import { DEFAULT_CAP } from '../../../shared/limits.js';
import { clockMinute, etaWords, jobsLeft, plural } from '../../../shared/format.js';
import { gpuLines } from '../../../shared/gpu-words.js';
import { limitLine } from '../../../shared/limit-now.js';
import { nudgeRestWords } from '../../../shared/nudge-rest.js';

/**
 * `status --json`: the engine's Status with each lane's nudge as its text (or null), the one
 * thing a script wants from it; the rest of the object is as GET /api/status answers it.
 */
export function statusJson(status: Status): unknown {
  return { ...status, lanes: status.lanes.map((lane) => ({ ...lane, nudge: lane.nudge?.text ?? null })) };
}

function workersCell(lane: LaneStatus): string {
  return lane.draining > 0 ? `${count(lane.workers)} (${count(lane.draining)} draining)` : count(lane.workers);
}

/** "4,533 left, about 38 min" (or "estimating…"), the one estimate rule; how long the oldest has waited while paused. */
function outlook(l: LaneStatus, now: number): string {
  if (jobsLeft(l) === 0) return '';
  const eta = etaWords(l);
  if (eta) return eta;
  return l.oldestQueuedAt === null ? '' : `oldest waiting ${duration(now - l.oldestQueuedAt)}`;
}

/**
 * "12 waiting for other jobs, 3 scheduled for 02:00, 2 did not run": what cannot run yet, apart
 * from what waits for a worker, and the dependents that never ran (counted apart from FAILED).
 */
export function notYetWords(l: Pick<LaneStatus, 'waitingForJobs' | 'scheduled' | 'scheduledNext' | 'blocked'>, now = Date.now()): string {
  const parts: string[] = [];
  if (l.waitingForJobs > 0) parts.push(`${count(l.waitingForJobs)} waiting for other jobs`);
  if (l.scheduled > 0) parts.push(`${count(l.scheduled)} scheduled${l.scheduledNext === null ? '' : ` for ${clockMinute(l.scheduledNext, now)}`}`);
  if ((l.blocked ?? 0) > 0) parts.push(`${count(l.blocked!)} did not run`);
  return parts.join(', ');
}

/** docs/cli.md "Tables": the outlook is cut first, then these go, least needed first. */
// Cut to fit, the outlook keeps its time ("about 5 min") and lets its count go: the count is in WAITING.
const STATUS_FIT = {
  shrink: [['OUTLOOK', 16], ['LANE', 12]],
  drop: ['CLASS', 'PER MIN', 'KEPT', 'FAILED', 'WORKERS'],
  shorter: { OUTLOOK: (cell: string) => cell.replace(/^[\d,]+ left, /, '') },
} as const;

export function statusText(status: Status, now = Date.now(), width: number | null = 80): string {
  const paused = status.paused ? `All work paused ${status.paused.until === null ? 'until resumed (lanes resume)' : `until ${clock(status.paused.until)}`}.\n` : '';
  // Cores are the ceiling's ordinary reason; anything else (battery, memory, someone at the machine) is said.
  const why = status.machine.limitedBy === 'cores' ? "this machine's ceiling" : `holding back — ${status.machine.text}`;
  const gpu = gpuLines(status.machine).map((l) => `${l}\n`).join('');
  const head = `${paused}${count(status.workersInUse)} of ${count(status.ceiling)} workers in use (${why})\n${gpu}\n`;
  const rows = status.lanes.map((l) => [
    l.name,
    l.class,
    count(l.cap),
    workersCell(l),
    count(l.busy),
    count(l.waiting),
    count(l.succeeded),
    count(l.failed),
    rate(l.throughputPerMin),
    l.mood,
    outlook(l, now),
  ]);
  const body = fittedTable(
    ['LANE', 'CLASS', 'CAP', 'WORKERS', 'BUSY', 'WAITING', 'KEPT', 'FAILED', 'PER MIN', 'STATE', 'OUTLOOK'],
    rows,
    ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left', 'left'],
    { width, ...STATUS_FIT },
  );
  const nudges = status.lanes.filter((l) => l.nudge).map((l) => `\n${l.name}: ${l.nudge?.text}  (lanes cap ${l.name} ${l.nudge?.suggestedCap})`);
  // A nudge a person quieted is not a lane that needs nothing: until when it rests, and why.
  const rests = status.lanes.flatMap((l) => (l.nudgeRest && !l.nudge ? [`\n${l.name}: ${nudgeRestWords(l.nudgeRest, now)}`] : []));
  // A lane the machine holds below its cap for a reason of its own (memory, a GPU's): the person should know it is not the cap.
  const limits = status.lanes.flatMap((l) => (limitLine(l) ? [`\n${l.name}: ${limitLine(l)}`] : []));
  const shared = status.lanes.filter((l) => l.shared).map((l) => `\n${l.name}: ${sharedWords(l)}${l.shared!.outsideWorker ? `\n  ${outsideWords(l.shared!.outsideWorker)}` : ''}`);
  const later = status.lanes.filter((l) => l.waitingForJobs > 0 || l.scheduled > 0 || (l.blocked ?? 0) > 0).map((l) => `\n${l.name}: ${notYetWords(l)}`);
  // A lane paused by itself says until when, and how to lift it.
  const held = status.lanes.flatMap((l) => (l.paused ? [`\n${l.name}: paused ${l.paused.until === null ? `until you resume it (lanes resume --lane ${l.name})` : `until ${clock(l.paused.until)}`}`] : []));
  const notes = [...held, ...shared, ...later, ...nudges, ...rests, ...limits];
  return head + body + notes.join('') + (notes.length ? '\n' : '');
}

/** A shared lane in a few words: where its queue is, whether it can be reached, what the others run. */
export function sharedWords(lane: LaneStatus): string {
  const s = lane.shared!;
  if (s.unreachableSince !== null) return `Redis ${s.notAnswering ? 'not answering' : 'unreachable'} since ${clock(s.unreachableSince)}${s.error ? ` (${s.error})` : ''}: taking no new jobs (shared on ${s.redis})`;
  const others = s.elsewhere.workers > 0 ? `; ${plural(s.elsewhere.workers, 'more worker')} on ${plural(s.elsewhere.machines, 'other machine')}` : '';
  return `shared on ${s.redis}${others}`;
}

/** The warning of a worker that is not Lanes on the lane's queue (docs/shared-lanes.md, "A plain BullMQ Worker"). */
function outsideWords(o: NonNullable<SharedLaneStatus['outsideWorker']>): string {
  const job = o.jobId !== null ? `job ${o.jobId}` : 'a job';
  return `warning: a worker that is not Lanes ${o.how} ${job} at ${clock(o.seenAt)}: what it completes is shown failed ("finished outside Lanes"), never succeeded. Stop it: a plain BullMQ Worker may not share a lane`;
}

function laneLine(lane: LaneStatus): string {
  const shared = lane.shared ? ` (${sharedWords(lane)})` : '';
  return `${lane.name}: cap ${count(lane.cap)}, ${plural(lane.workers, 'worker')}, ${count(lane.waiting)} waiting${shared}`;
}

export function registerLanes(program: Command): void {
  program
    .command('status')
    .description('each lane: cap, workers, busy, waiting, kept (its succeeded jobs not yet cleaned), failed, throughput, nudge')
    .option('--json', 'print { ceiling, lanes: [...] } with each nudge as text or null')
    .option('--wide', 'every column in full, however wide')
    .action(async (opts: { json?: boolean; wide?: boolean }, cmd: Command) => {
      const status = await clientFor(cmd).call('status', {});
      if (opts.json) printJson(statusJson(status));
      else print(statusText(status, Date.now(), tableWidth(opts.wide)));
    });

  program
    .command('cap')
    .description("set a lane's cap: the most workers it may run at once (0 turns it off)")
    .argument('<lane>', 'the lane')
    .argument('<cap>', 'the new cap (0 turns it off; above the ceiling, the machine decides how many run)', capArg)
    .option('--json', 'print the lane as JSON')
    .action(async (lane: string, cap: number, opts: { json?: boolean }, cmd: Command) => {
      const status = await clientFor(cmd).call('setCap', { lane, cap });
      if (opts.json) printJson(status);
      else print(laneLine(status));
    });

  const lane = program.command('lane').description('add or remove lanes');
  lane
    .command('add')
    .description('add a lane')
    .usage('NAME [options] [-- WORKER-COMMAND [ARGS...]]')
    .argument('<name>', 'a-z, 0-9 and "-", up to 32 characters')
    .argument('[worker-command...]', "a persistent worker's program and arguments, after --")
    .addOption(new Option('--class <class>', 'cpu or ml').choices(['cpu', 'ml']).default('cpu'))
    .option('--cap <n>', `its cap (default: ${DEFAULT_CAP.cpu} for cpu, ${DEFAULT_CAP.ml} for ml)`, capArg)
    .option('--timeout <seconds>', 'fail a run of its jobs that takes longer, unless a job sets its own', seconds('--timeout'))
    .option('--worker-command <command...>', 'a persistent worker command: the rest of the line, e.g. --worker-command python3 serve.py --model m')
    .option('--redis <url>', 'share its queue with other engines on this Redis: redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss:// for TLS')
    .option('--insecure-redis', 'allow a Redis on another machine that has no password')
    .option('--json', 'print the lane as JSON')
    .action(async (name: string, words: string[], opts: { class: 'cpu' | 'ml'; cap?: number; timeout?: number; workerCommand?: string[]; redis?: string; insecureRedis?: boolean; json?: boolean }, cmd: Command) => {
      if (opts.insecureRedis && opts.redis === undefined) throw new UsageError('--insecure-redis only goes with --redis');
      // One quoted argument is a command line ("python3 serve.py --model m"); several words are
      // the command as given. Words left after it (a script path commander parsed as positional)
      // belong to it too: --worker-command takes the whole command.
      const given = opts.workerCommand?.length === 1 ? splitWords(opts.workerCommand[0]!) : opts.workerCommand;
      const workerCommand = given ? [...given, ...words] : words.length > 0 ? words : undefined;
      if (workerCommand && workerCommand.length === 0) throw new UsageError('--worker-command is empty');
      const status = await clientFor(cmd).call('addLane', {
        name,
        class: opts.class,
        ...(opts.cap !== undefined ? { cap: opts.cap } : {}),
        ...(opts.timeout !== undefined ? { timeoutSeconds: opts.timeout } : {}),
        // The command names its script relative to where it was typed.
        ...(workerCommand ? { workerCommand, workerCwd: process.cwd() } : {}),
        ...(opts.redis !== undefined ? { queue: { redis: opts.redis, ...(opts.insecureRedis ? { insecure: true } : {}) } } : {}),
      });
      if (opts.json) printJson(status);
      else print(`added ${laneLine(status)}`);
    });
  lane
    .command('remove')
    .description('remove a lane (refused while it holds unfinished jobs, unless --cancel)')
    .argument('<name>', 'the lane')
    .option('--cancel', 'cancel what it still holds first (running jobs are stopped), then remove it')
    .option('--json', 'print {"removed": NAME}')
    .action(async (name: string, opts: { cancel?: boolean; json?: boolean }, cmd: Command) => {
      const result = await clientFor(cmd).call('removeLane', { name, ...(opts.cancel ? { cancel: true } : {}) });
      if (opts.json) printJson(result);
      else print(`removed lane ${result.removed}`);
    });
}
