// A fault run: a real `lanes daemon` drains shell jobs while worker processes are killed with
// SIGKILL, hundreds of times. Each job records its own starts and ends in a file outside Lanes
// and holds a lock named after its id for as long as it (or anything it started) lives; some
// jobs also start a process that leaves their session. Afterwards the records are checked against
// what the engine says. Usage (after `npm run build:node`):
//   node dist/test/fault/worker-kills.js [JOBS=1500] [KILLS=300]
// Prints a report and exits 1 if the queue did not drain, anything acknowledged was lost, a run
// overlapped another run of the same job, a run began or still ran after its job was recorded
// finished, or a process was left behind.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { connect } from '../../electron/cli/connect.js';
import { appRoot } from '../../electron/paths/app-files.js';
import { waitFor } from '../support/poll.js';
import { analyse, faultJob, processesWith, type Outcome } from './records.js';

const JOBS = Number(process.argv[2] ?? 1500);
const KILLS = Number(process.argv[3] ?? 300);
/** How long the rest may take to drain once the kills are done. */
const DRAIN_LIMIT_MS = 20 * 60_000;
const work = mkdtempSync(join(tmpdir(), 'lanes-fault-'));
const dataDir = join(work, 'data');
const rec = join(work, 'records.txt');
const locks = join(work, 'locks');
mkdirSync(locks);
appendFileSync(rec, '');

const script = faultJob();

const daemon = spawn(process.execPath, [join(appRoot, 'bin', 'lanes.js'), 'daemon', '--data-dir', dataDir], {
  env: { ...process.env, LANES_CORES: '5', LANES_TICK_MS: '200' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let daemonErr = '';
daemon.stderr.setEncoding('utf8').on('data', (c: string) => (daemonErr += c));
await new Promise<void>((ready, fail) => {
  daemon.stdout.setEncoding('utf8').on('data', (c: string) => c.includes('Window:') && ready());
  daemon.once('exit', (code) => fail(new Error(`lanes daemon exited (${code}): ${daemonErr}`)));
});
const { client } = connect(dataDir);
await client.call('setCap', { lane: 'worker', cap: 4 });

const env = { REC: rec, LOCKS: locks };
const ids: number[] = [];
for (let i = 0; i < JOBS; i += 500) {
  const jobs = Array.from({ length: Math.min(500, JOBS - i) }, () => ({ shell: script, env, cwd: work, maxAttempts: 25 }));
  ids.push(...(await client.call('addJobs', { jobs })).ids);
}

/** The engine's worker processes: its children running the worker runtime. */
function workers(): number[] {
  const children = readFileSync(`/proc/${daemon.pid}/task/${daemon.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker');
    } catch {
      return false;
    }
  });
}

const t0 = Date.now();
let kills = 0;
const terminal = new Set(['succeeded', 'failed', 'cancelled']);
const unfinished = async () => {
  const status = await client.call('status', {});
  const worker = status.lanes.find((l) => l.name === 'worker')!;
  return worker.waiting + worker.delayed + worker.running;
};
// Kill a random worker every 40–160 ms until enough kills, then let the rest drain. Bounded by the
// drain's own limit too: with no worker ever alive to kill, the count would never be reached.
while (kills < KILLS && Date.now() - t0 < DRAIN_LIMIT_MS && (await unfinished()) > 0) {
  const alive = workers();
  const victim = alive[Math.floor(Math.random() * alive.length)];
  if (victim !== undefined) {
    try {
      process.kill(victim, 'SIGKILL');
      kills++;
    } catch {
      // Already gone.
    }
  }
  await new Promise((r) => setTimeout(r, 40 + Math.random() * 120));
}
// Bounded: a queue that never drains is a finding to report, not a run that never ends.
const drained = await waitFor(async () => (await unfinished()) === 0, 'the queue drained', DRAIN_LIMIT_MS, 250).then(
  () => true,
  () => false,
);
const drainedMs = Date.now() - t0;

const rows: Outcome[] = [];
for (const id of ids) {
  const job = await client.call('job', { id }).catch(() => null);
  rows.push(job ? { id, state: job.state, finishedAt: job.finishedAt, attempts: job.attempts } : { id, state: 'missing', finishedAt: null, attempts: 0 });
}
// Everything a job started must be gone: the cgroup removal gets up to 2 s to finish.
await waitFor(async () => (await processesWith(`REC=${rec}`)).length === 0, 'every process the jobs started gone', 2_000, 100).catch(() => {});
const leftover = await processesWith(`REC=${rec}`);

const db = new Database(join(dataDir, 'lanes.db'), { readonly: true });
const integrity = (db.pragma('integrity_check', { simple: true }) as string) ?? 'unknown';
db.close();
daemon.kill('SIGTERM');
const exitCode = await new Promise<number | null>((done) => daemon.once('exit', (code) => done(code)));

const report = analyse(readFileSync(rec, 'utf8'), rows, terminal);
const summary = {
  jobs: ids.length,
  kills,
  drained,
  drainedSeconds: Math.round(drainedMs / 100) / 10,
  ...report.counts,
  processesLeftBehind: leftover.length,
  integrity,
  engineExit: exitCode,
  lockFilesLeft: readdirSync(locks).length,
};
console.log(JSON.stringify(summary, null, 2));
for (const line of report.examples) console.log(line);
if (leftover.length > 0) for (const pid of leftover) process.kill(pid, 'SIGKILL');
rmSync(work, { recursive: true, force: true });
const bad = !drained || report.counts.lost + report.counts.overlappingRuns + report.counts.runsAfterRecordedFinish + leftover.length > 0 || integrity !== 'ok' || exitCode !== 0;
process.exit(bad ? 1 : 0);
