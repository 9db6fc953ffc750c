// The sizer sees the GPU, end to end: real engines and real worker processes, with a fixture
// nvidia-smi on PATH (test/fixtures/gpu) standing in for the card. Each worker "loads its model"
// by writing its pid and the MiB it holds where the fixture looks, so the fixture reports per-pid
// GPU use for exactly the processes that live, as nvidia-smi does. And where there is no
// nvidia-smi, nothing about the GPU shows and nothing is run for it.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine, EngineOptions } from '../../electron/engine/index.js';
import { findOnPath } from '../../electron/engine/machine/gpu-reader.js';
import { statusText } from '../../electron/cli/commands/lanes.js';
import { enginesEachTest, jobsFinished, tempDir, until } from '../support/engine.js';
import { waitFor } from '../support/poll.js';

const MiB = 2 ** 20;
const fixture = join(import.meta.dirname, '..', 'fixtures', 'gpu', 'nvidia-smi');

const started = enginesEachTest();

async function engineWith(o: Partial<EngineOptions>, dir = tempDir()): Promise<{ engine: Engine; dir: string }> {
  return { engine: await started(dir, { sampleMs: 150, ...o }), dir: dir.dir };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A directory holding the fixture nvidia-smi and its card: `cards` lines as the fixture reads them. */
function card(dir: string, cards: string[]): { path: string; apps: string; calls: () => string[] } {
  const bin = join(dir, 'gpu-bin');
  mkdirSync(join(bin, 'apps'), { recursive: true });
  copyFileSync(fixture, join(bin, 'nvidia-smi'));
  writeFileSync(join(bin, 'cards'), cards.map((c) => `${c}\n`).join(''));
  const calls = join(bin, 'calls');
  return { path: `${bin}:${process.env.PATH}`, apps: join(bin, 'apps'), calls: () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : []) };
}

/** A persistent worker that, at its first job, takes `mib` MiB on the card (as the fixture hears it), then answers each job after `ms`. */
function gpuWorker(dir: string, apps: string, mib: number, ms: number): string[] {
  const script = join(dir, 'gpu-worker.cjs');
  writeFileSync(
    script,
    `const fs = require('fs');
let loaded = false;
process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id } = JSON.parse(line);
  // Written whole, by rename, as a process's memory shows in nvidia-smi all at once.
  const file = ${JSON.stringify(apps)} + '/' + process.pid;
  if (!loaded) fs.writeFileSync(file + '.tmp', (process.env.CUDA_VISIBLE_DEVICES || 'GPU-fix-0') + ',${mib}\\n'), fs.renameSync(file + '.tmp', file);
  loaded = true;
  setTimeout(() => process.stdout.write(JSON.stringify({ id, ok: true, result: 1 }) + '\\n'), ${ms});
});\n`,
  );
  return [process.execPath, script];
}

/** A 24,576 MiB fixture card, an engine of 8 cores that reads it, and an ml lane `models` at `cap` of 6,000 MiB workers (100 ms a job) holding `jobs` jobs. */
async function modelsOnACard(cap: number, jobs: number) {
  const dir = tempDir();
  const gpu = card(dir.dir, ['0,GPU-fix-0,Fixture Card 24G,24576,300']);
  const { engine } = await engineWith({ cores: 8, env: { PATH: gpu.path } }, dir);
  await engine.request('addLane', { name: 'models', class: 'ml', cap, workerCommand: gpuWorker(engine.dataDir, gpu.apps, 6000, 100) });
  const { ids } = await engine.request('addJobs', { jobs: Array.from({ length: jobs }, (_, n) => ({ lane: 'models', payload: { n } })) });
  const models = () => engine.status().lanes.find((l) => l.name === 'models')!;
  return { dir, gpu, engine, ids, models };
}

describe('the GPU limit', () => {
  it('LANES_CORES=8, a 24,576 MiB card, an ml lane at cap 7 of 6,000 MiB workers: never more than 4, settles at 3 or 4, the GPU named, no nudge beyond what fits', async () => {
    const dir = tempDir();
    const gpu = card(dir.dir, ['0,GPU-fix-0,Fixture Card 24G,24576,300']);
    const { engine } = await engineWith({ cores: 8, env: { PATH: gpu.path } }, dir);
    // Shell work, over several readings of the machine: the card is not asked about while no ml lane holds work or workers.
    const shell = await engine.request('addJob', { argv: ['sleep', '0.6'] });
    await jobsFinished(engine, [shell.id]);
    expect(gpu.calls()).toEqual([]);
    expect(engine.status().machine).toMatchObject({ gpuMemory: 'nvidia', gpus: [] });

    await engine.request('addLane', { name: 'models', class: 'ml', cap: 7, workerCommand: gpuWorker(engine.dataDir, gpu.apps, 6000, 150) });
    const seen: { workers: number; finished: number; laneLimit: number | null; by: string | null; suggested: number | null; nudge: string | null }[] = [];
    let finished = 0;
    engine.events.subscribe((e) => {
      if (e.type === 'job' && e.data.state === 'succeeded') finished++;
      if (e.type !== 'lane' || e.data.name !== 'models') return;
      seen.push({ workers: e.data.workers, finished, laneLimit: e.data.limit?.workers ?? null, by: e.data.limit?.by ?? null, suggested: e.data.nudge?.suggestedCap ?? null, nudge: e.data.nudge?.text ?? null });
    });
    const { ids } = await engine.request('addJobs', { jobs: Array.from({ length: 120 }, (_, n) => ({ lane: 'models', payload: { n } })) });
    // Settled: measured over enough rounds that the lane's words say how many fit.
    const models = () => engine.status().lanes.find((l) => l.name === 'models')!;
    await until(engine, () => models().limit?.by === 'gpu' && /memory for .* each$/.test(models().limit!.text), 60_000, 'the GPU named as the limit');

    const status = engine.status();
    const lane = status.lanes.find((l) => l.name === 'models')!;
    const story = JSON.stringify({ lane, machine: status.machine, seen: seen.slice(-5) });
    expect(status.machine.limitedBy, story).toBe('gpu');
    expect(status.machine.gpus).toHaveLength(1);
    expect(status.machine.gpus![0]).toMatchObject({ index: 0, name: 'Fixture Card 24G', totalBytes: 24576 * MiB });
    expect(lane.workerGpuBytes).toBe(6000 * MiB);
    expect([3, 4]).toContain(lane.limit!.workers);
    expect(lane.limit!.text).toMatch(/^the GPU has memory for [34] of these workers/);
    // `lanes status` shows the card and why the lane runs no more.
    const text = statusText(status);
    expect(text).toMatch(/^GPU: Fixture Card 24G — 24 GB, .* in use \(.* by Lanes' workers\), .* more for workers$/m);
    expect(text).toMatch(/^models: the GPU has memory for [34] of these workers, about 5\.9 GB each$/m);

    await jobsFinished(engine, ids, 120_000);
    expect(Math.max(...seen.map((s) => s.workers))).toBeLessThanOrEqual(4);
    // Once measured (the later half of the run), it holds at what fits.
    expect(Math.max(...seen.filter((s) => s.finished >= 60).map((s) => s.workers))).toBeLessThanOrEqual(4);
    for (const s of seen) if (s.suggested !== null) expect(s.suggested, s.nudge ?? '').toBeLessThanOrEqual(s.laneLimit ?? 4);
    for (const s of seen) if (s.nudge !== null) expect(s.nudge).not.toMatch(/allows up to [5-9]/);
    const ledger = await engine.request('scaleEvents', { lane: 'models' });
    expect(ledger.every((e) => e.to <= 4)).toBe(true);
    expect(gpu.calls().length).toBeGreaterThan(0);
  }, 180_000);

  it('no GPU words outlive the workers: the lane\'s blame goes when nothing waits, and the card is read once more after the last worker ends', async () => {
    const { gpu, engine, ids, models } = await modelsOnACard(7, 30);
    await until(engine, () => models().limit?.by === 'gpu', 60_000, 'the GPU named while work waits');
    await jobsFinished(engine, ids, 120_000);
    // Nothing waits: whatever the GPU allows, it holds nothing back.
    expect(models().limit).toBeNull();
    expect(statusText(engine.status())).not.toMatch(/^models: /m);
    await engine.request('setCap', { lane: 'models', cap: 0 });
    await until(engine, () => models().workers === 0, 30_000, 'the workers gone');
    const readsAtEnd = gpu.calls().filter((c) => c.startsWith('--query-gpu')).length;
    await waitFor(() => !/by Lanes' workers/.test(statusText(engine.status())), "the GPU line without Lanes' workers", 30_000);
    const text = statusText(engine.status());
    expect(text).toMatch(/^GPU: Fixture Card 24G — 24 GB, 300 MB in use, .* more for workers$/m);
    // Within two readings of the cards once the last worker went, and none after.
    expect(gpu.calls().filter((c) => c.startsWith('--query-gpu')).length - readsAtEnd).toBeLessThanOrEqual(2);
    expect(engine.status().machine.limitedBy).toBe('cores');
    expect(models().limit).toBeNull();
  }, 180_000);

  it('another program takes the card: the lane gives workers back for the GPU, in the ledger as the machine; the cost is kept across a restart', async () => {
    const { dir, gpu, engine, ids, models } = await modelsOnACard(7, 400);
    await until(engine, () => models().workers >= 3 && /memory for [34] of these workers, about/.test(models().limit?.text ?? ''), 60_000, 'settled at 3 or 4');
    // 9,000 MiB of someone else's model lands on the card (this test's own process holds it).
    writeFileSync(join(gpu.apps, String(process.pid)), 'GPU-fix-0,9000');
    await until(engine, () => models().limit?.workers === 2 && models().workers <= 2, 30_000, 'given back to 2');
    const ledger = await engine.request('scaleEvents', { lane: 'models' });
    expect(ledger.some((e) => e.reason === 'machine' && /the GPU has memory for 2 of these workers/.test(e.detail)), JSON.stringify(ledger.slice(0, 8).map((e) => [e.from, e.to, e.reason, e.detail]))).toBe(true);
    rmSync(join(gpu.apps, String(process.pid)));
    await engine.request('cancelJobs', { lane: 'models', state: 'queued' }).catch(() => undefined);
    await jobsFinished(engine, ids, 120_000).catch(() => undefined);

    const cost = models().workerGpuBytes;
    expect(cost).toBe(6000 * MiB);
    await engine.stop({ graceMs: 2000 });
    const again = await engineWith({ cores: 8, env: { PATH: gpu.path } }, { dir: dir.dir, cleanup: () => {} });
    const known = again.engine.status().lanes.find((l) => l.name === 'models')!;
    expect(known.workerGpuBytes).toBe(cost);
    expect(known.workers).toBe(0);
  }, 180_000);

  it('an ml lane whose cap is below what fits: the nudge speaks of the GPU, and never suggests more than it holds', async () => {
    const { engine, ids, models } = await modelsOnACard(2, 300);
    await until(engine, () => /the GPU has memory for/.test(models().nudge?.text ?? ''), 60_000, 'a nudge that speaks of the GPU');
    const nudge = models().nudge!;
    expect(nudge.text).toMatch(/Raise the cap to run more at once — the GPU has memory for 3 of these workers\.$/);
    expect(nudge.suggestedCap).toBe(3);
    expect(nudge.ceiling).toBe(3);
    await engine.request('cancelJobs', { lane: 'models', state: 'queued' });
    await jobsFinished(engine, ids, 60_000);
  }, 120_000);

  it('two 16,384 MiB cards: each new worker is given the card with room (CUDA_VISIBLE_DEVICES), 2 on each', async () => {
    const dir = tempDir();
    const gpu = card(dir.dir, ['0,GPU-fix-0,Fixture Card 16G,16384,0', '1,GPU-fix-1,Fixture Card 16G,16384,0']);
    const { engine } = await engineWith({ cores: 8, env: { PATH: gpu.path } }, dir);
    await engine.request('addLane', { name: 'models', class: 'ml', cap: 7, workerCommand: gpuWorker(engine.dataDir, gpu.apps, 6000, 100) });
    const { ids } = await engine.request('addJobs', { jobs: Array.from({ length: 300 }, (_, n) => ({ lane: 'models', payload: { n } })) });
    const models = () => engine.status().lanes.find((l) => l.name === 'models')!;
    // Where each living worker holds its model, as the fixture hears it.
    const placed = () => {
      const on = new Map<string, number>();
      for (const pid of readdirSync(gpu.apps)) {
        if (!alive(Number(pid))) continue;
        const uuid = readFileSync(join(gpu.apps, pid), 'utf8').split(',')[0]!;
        on.set(uuid, (on.get(uuid) ?? 0) + 1);
      }
      return on;
    };
    await until(engine, () => models().workers === 4 && /^the GPUs have memory for 4 of these workers, about/.test(models().limit?.text ?? '') && placed().get('GPU-fix-1') === 2 && engine.status().machine.gpus!.every((g) => g.heldByLanesBytes === 12000 * MiB), 60_000, '2 on each card');
    expect(placed()).toEqual(new Map([['GPU-fix-0', 2], ['GPU-fix-1', 2]]));
    expect(engine.status().machine.gpus!.map((g) => g.index)).toEqual([0, 1]);
    const text = statusText(engine.status());
    expect(text, text).toMatch(/^GPU 1: Fixture Card 16G — 16 GB, 12 GB in use/m);
    await engine.request('cancelJobs', { lane: 'models', state: 'queued' });
    await jobsFinished(engine, ids, 60_000);
  }, 120_000);

  it('with no nvidia-smi on PATH nothing changes: no GPU in status, no GPU line, no GPU limit, nothing run', async () => {
    const dir = tempDir();
    // The fixture lies beside the data, but not on PATH: it must never be asked.
    const gpu = card(dir.dir, ['0,GPU-fix-0,Fixture Card 24G,24576,300']);
    const path = process.env.PATH;
    expect(findOnPath('nvidia-smi', path)).toBeNull();
    const { engine } = await engineWith({ cores: 8, env: { PATH: path } }, dir);
    await engine.request('addLane', { name: 'models', class: 'ml', cap: 3, workerCommand: gpuWorker(engine.dataDir, gpu.apps, 6000, 50) });
    const { ids } = await engine.request('addJobs', { jobs: Array.from({ length: 30 }, (_, n) => ({ lane: 'models', payload: { n } })) });
    let most = 0;
    engine.events.subscribe((e) => {
      if (e.type === 'lane' && e.data.name === 'models') most = Math.max(most, e.data.workers);
    });
    await jobsFinished(engine, ids, 60_000);
    const status = engine.status();
    expect(status.machine.gpuMemory).toBe(process.platform === 'darwin' && process.arch === 'arm64' ? 'unified' : 'unknown');
    expect(status.machine.gpus).toBeUndefined();
    expect(status.lanes.find((l) => l.name === 'models')!.workerGpuBytes).toBeUndefined();
    expect(statusText(status)).not.toMatch(/GPU/);
    // The lane grew as far as its cap allows, the GPU holding nothing back.
    expect(most).toBe(3);
    expect(gpu.calls()).toEqual([]);
  }, 90_000);
});
