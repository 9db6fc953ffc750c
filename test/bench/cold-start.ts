// From enqueue to the job's first instruction. The job is `sh -c 'date +%s%N > FILE'`: it writes
// the wall clock itself, so the span ends where the job begins, not where the engine says it did.
// Cold: a lane of its own each time, with no worker anywhere in the engine; against a bare
// fork() of a tiny Node script that spawns the same job. Warm: an idle worker is waiting; against
// spawning the same job straight from this process.
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDaemon, type Daemon } from './lanes-daemon.js';
import { compared, until, wallNow, type Figure } from './stats.js';

const SECTION = 'Enqueue → the job’s first instruction';

export interface Scratch {
  dir: string;
  /** A fresh file name for one job to write its start time into. */
  next(): string;
  /** The job's own start time (wall clock, ms), once it has written it. */
  startedAt(file: string): Promise<number>;
  remove(): void;
}

export function scratch(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'lanes-bench-start-'));
  let i = 0;
  return {
    dir,
    next: () => join(dir, `t${i++}`),
    async startedAt(file) {
      await until(() => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n'), 'a job to write its start time', 30_000, 1);
      // Nanoseconds since the epoch do not fit a double; microseconds do.
      return Number(BigInt(readFileSync(file, 'utf8').trim()) / 1000n) / 1000;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The job both sides run: it records when it began. */
export const stampJob = (file: string): string[] => ['sh', '-c', `date +%s%N > ${file}`];

/** The bare side of a cold start: fork a Node script that spawns the job, as a worker would. */
export function bareColdMs(s: Scratch): Promise<number> {
  const script = join(s.dir, 'spawner.mjs');
  if (!existsSync(script)) {
    writeFileSync(script, "import { spawn } from 'node:child_process';\nspawn(process.argv[2], process.argv.slice(3), { stdio: 'ignore' }).on('close', () => process.exit(0));\n");
  }
  const file = s.next();
  const t0 = wallNow();
  fork(script, stampJob(file), { stdio: 'ignore' });
  return s.startedAt(file).then((t) => t - t0);
}

export async function bareWarmMs(s: Scratch): Promise<number> {
  const file = s.next();
  const t0 = wallNow();
  spawn(stampJob(file)[0]!, stampJob(file).slice(1), { stdio: 'ignore' });
  return (await s.startedAt(file)) - t0;
}

async function lanesMs(d: Daemon, s: Scratch, lane: string): Promise<number> {
  const file = s.next();
  const t0 = wallNow();
  await d.api('addJob', { lane, argv: stampJob(file) });
  return (await s.startedAt(file)) - t0;
}

export function startFigures(samples: number): Promise<Figure[]> {
  const s = scratch();
  return withDaemon(async (d) => {
    const cold = { lanes: [] as number[], peer: [] as number[] };
    const warm = { lanes: [] as number[], peer: [] as number[] };
    await d.api('addLane', { name: 'warm', cap: 1 });
    for (let i = 0; i < samples; i++) {
      // Cold means the engine holds no worker at all: an idle shell worker of another lane would
      // simply move over (that is the warm case), so the warm lane gives its worker back first.
      await d.api('setCap', { lane: 'warm', cap: 0 });
      await until(async () => (await d.api('status', {})).lanes.every((l) => l.workers === 0), 'no worker left');
      await d.api('addLane', { name: `cold-${i}`, cap: 1 });
      cold.lanes.push(await lanesMs(d, s, `cold-${i}`));
      // Its worker goes with it, so no idle worker piles up against the ceiling.
      await until(async () => (await d.api('job', { id: (await d.api('listJobs', { lane: `cold-${i}`, limit: 1 })).jobs[0]!.id })).state === 'succeeded', 'a cold job to finish');
      await d.api('removeLane', { name: `cold-${i}` });
      cold.peer.push(await bareColdMs(s));
      // Warm: the lane's own worker, idle after a first job.
      await d.api('setCap', { lane: 'warm', cap: 1 });
      await lanesMs(d, s, 'warm');
      warm.lanes.push(await lanesMs(d, s, 'warm'));
      warm.peer.push(await bareWarmMs(s));
    }
    const c = compared(
      { section: SECTION, what: 'cold: into a lane with no worker running', unit: 'ms', target: '≤ bare + 20 ms' },
      cold,
      'bare `fork()` of a Node script that spawns the job',
      'difference',
    );
    c.judge = (g) => g.compared!.value.median <= 20;
    const w = compared({ section: SECTION, what: 'warm: an idle worker waiting', unit: 'ms' }, warm, 'spawning the job straight from Node', 'difference');
    return [c, w];
    // A ceiling of 7, so a worker never waits for another lane's to stop.
  }, { LANES_CORES: '8' }).finally(() => s.remove());
}
