// Jobs in hand: a lane of short jobs with a deep backlog hands each worker a few jobs at once, so
// it goes from one to the next without waiting on the engine. What must hold whatever the hand:
// a cancelled job in a hand never runs; a worker that dies with jobs in hand costs them nothing
// (they run elsewhere, on their first attempt); each job runs once and is recorded once.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineEachTest, jobsFinished, nextEvent, until } from '../support/engine.js';

// Hands for these jobs however loaded the machine is: what is tested is what a hand may do.
const t = engineEachTest({ cores: 3, handBelowMs: 5_000 });

/**
 * A persistent worker that answers at once and writes each payload's `n` to `ran`; a payload
 * with `wait` first waits for the file `gate` (and says it started by writing `started`).
 */
function quickLane(dir: string): string[] {
  const script = join(dir, 'quick-worker.cjs');
  writeFileSync(
    script,
    `const fs = require('fs'); const rl = require('readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const { id, payload } = JSON.parse(line);
  const answer = () => { fs.appendFileSync(${JSON.stringify(join(dir, 'ran'))}, payload.n + '\\n'); process.stdout.write(JSON.stringify({ id, ok: true }) + '\\n'); };
  if (!payload.wait) return answer();
  fs.writeFileSync(${JSON.stringify(join(dir, 'started'))}, String(payload.n));
  const poll = setInterval(() => { if (fs.existsSync(${JSON.stringify(join(dir, 'gate'))})) { clearInterval(poll); answer(); } }, 20);
});\n`,
  );
  return [process.execPath, script];
}

const ran = (dir: string) => readFileSync(join(dir, 'ran'), 'utf8').trim().split('\n').map(Number);
const payloads = (from: number, n: number, lane = 'quick') => Array.from({ length: n }, (_, i) => ({ lane, payload: { n: from + i } }));

describe('jobs in hand', () => {
  it('a deep backlog of short jobs runs each job once, recorded once, on its first attempt', async () => {
    await t.engine.request('addLane', { name: 'quick', cap: 2, workerCommand: quickLane(t.dir) });
    const keys = new Set<string>();
    t.engine.events.subscribe((e) => e.type === 'job' && Object.keys(e.data).forEach((k) => keys.add(k)));
    const { ids } = await t.engine.request('addJobs', { jobs: payloads(0, 600) });
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.every((j) => j.state === 'succeeded' && j.attempts === 1)).toBe(true);
    expect(ran(t.dir).sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, i) => i));
    expect(t.engine.status().lanes.find((l) => l.name === 'quick')).toMatchObject({ succeeded: 600, waiting: 0, running: 0 });
    // Events carry summaries, never what a job runs.
    expect([...keys].filter((k) => /spec|timeout/i.test(k))).toEqual([]);
  });

  it('a cancelled job never runs, though its worker held it in hand', async () => {
    await t.engine.request('addLane', { name: 'quick', cap: 1, workerCommand: quickLane(t.dir) });
    // Short jobs first, so the lane is known to be one of short jobs.
    await jobsFinished(t.engine, (await t.engine.request('addJobs', { jobs: payloads(0, 50) })).ids);
    const slow = nextEvent(t.engine, (e) => e.type === 'job' && e.data.state === 'running' && e.data.command.includes('"wait":true'));
    const { ids } = await t.engine.request('addJobs', { jobs: [{ lane: 'quick', payload: { n: 100, wait: true } }, ...payloads(101, 5)] });
    await slow;
    const cancelled = await t.engine.request('cancel', { id: ids[2]! });
    expect(cancelled).toMatchObject({ id: ids[2], state: 'cancelled' });
    writeFileSync(join(t.dir, 'gate'), '');
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.map((j) => j.state)).toEqual(['succeeded', 'succeeded', 'cancelled', 'succeeded', 'succeeded', 'succeeded']);
    expect(ran(t.dir)).not.toContain(102);
  });

  it.runIf(process.platform === 'linux')('a worker killed with jobs in hand costs them nothing: they run elsewhere on their first attempt', async () => {
    await t.engine.request('addLane', { name: 'quick', cap: 1, workerCommand: quickLane(t.dir) });
    await jobsFinished(t.engine, (await t.engine.request('addJobs', { jobs: payloads(0, 50) })).ids);
    const { ids } = await t.engine.request('addJobs', { jobs: [{ lane: 'quick', payload: { n: 100, wait: true }, maxAttempts: 2 }, ...payloads(101, 5)] });
    await until(t.engine, () => existsStarted(t.dir), 30_000, 'the waiting job started');
    const worker = t.engine.status().lanes.find((l) => l.name === 'quick')!;
    expect(worker.running).toBe(1);
    const lost = nextEvent(t.engine, (e) => e.type === 'scale' && e.data.reason === 'crash');
    killWorkerOf(t.dir);
    await lost;
    writeFileSync(join(t.dir, 'gate'), '');
    const jobs = await jobsFinished(t.engine, ids);
    expect(jobs.every((j) => j.state === 'succeeded')).toBe(true);
    expect(jobs[0]!.attempts).toBe(2);
    expect(jobs.slice(1).map((j) => j.attempts)).toEqual([1, 1, 1, 1, 1]);
    const later = ran(t.dir).filter((n) => n > 100);
    expect(later.sort((a, b) => a - b)).toEqual([101, 102, 103, 104, 105]);
  });
});

function existsStarted(dir: string): boolean {
  try {
    return readFileSync(join(dir, 'started'), 'utf8') === '100';
  } catch {
    return false;
  }
}

/** The worker runtime process whose persistent command is this test's script: its parent. */
function killWorkerOf(dir: string): void {
  const script = join(dir, 'quick-worker.cjs');
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.includes(script)) continue;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    process.kill(parent, 'SIGKILL');
    return;
  }
  throw new Error('no worker runs the quick lane');
}
