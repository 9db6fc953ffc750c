// A nvidia-smi that hangs with a child holding its output, under a real engine with an ml lane
// holding work: every read is killed with all it started (never more alive than one read's and
// the one just killed, none after the engine stops), and the lane never runs more workers than
// the last good reading fits: before any reading, one; after one, what it had when reads failed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/engine/index.js';
import { gpuLines } from '../../shared/gpu-words.js';
import { enginesEachTest, tempDir, until } from '../support/engine.js';
import { hangingGpu, type HangingGpu } from '../support/gpu-hang.js';
import { waitFor } from '../support/poll.js';

const started = enginesEachTest();

/** A persistent worker that holds `mib` MiB on the card from its first job on (as the fixture hears it). */
function gpuWorker(dir: string, apps: string, mib: number): string[] {
  const script = join(dir, 'gpu-worker.cjs');
  writeFileSync(
    script,
    `const fs = require('fs');
process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id } = JSON.parse(line);
  const file = ${JSON.stringify(apps)} + '/' + process.pid;
  if (!fs.existsSync(file)) fs.writeFileSync(file + '.tmp', 'GPU-fix-0,${mib}\\n'), fs.renameSync(file + '.tmp', file);
  setTimeout(() => process.stdout.write(JSON.stringify({ id, ok: true, result: 1 }) + '\\n'), 100);
});\n`,
  );
  return [process.execPath, script];
}

async function engineWith(gpu: HangingGpu, dir: { dir: string; cleanup: () => void }): Promise<Engine> {
  return started(dir, { cores: 8, sampleMs: 150, gpuTimeoutMs: 300, env: { PATH: `${gpu.bin}:${process.env.PATH}` } });
}

/** Watches the lane's workers from now on, and the hanging processes at each look. */
function watch(engine: Engine, gpu: HangingGpu) {
  const seen = { workers: 0, hanging: 0 };
  engine.events.subscribe((e) => {
    if (e.type === 'lane' && e.data.name === 'models') seen.workers = Math.max(seen.workers, e.data.workers);
  });
  const look = () => {
    seen.hanging = Math.max(seen.hanging, gpu.hanging());
    return seen;
  };
  return { seen, look };
}

describe.skipIf(process.platform !== 'linux')('a nvidia-smi that hangs with a child holding its output', () => {
  it('from the first read on: one read’s processes at most, none after the engine stops, one worker (never "not known")', async () => {
    const dir = tempDir('lanes-gpu-hang-');
    const gpu = hangingGpu(dir.dir, ['0,GPU-fix-0,Fixture Card 24G,24576,300']);
    gpu.hang();
    const engine = await engineWith(gpu, dir);
    const { seen, look } = watch(engine, gpu);
    await engine.request('addLane', { name: 'models', class: 'ml', cap: 7, workerCommand: gpuWorker(dir.dir, gpu.apps, 6000) });
    await engine.request('addJobs', { jobs: Array.from({ length: 400 }, (_, n) => ({ lane: 'models', payload: { n } })) });
    // Eight reads that timed out: well past the three refusals that would make GPU memory not known.
    await until(engine, () => look() && gpu.calls().length >= 16, 60_000, 'eight reads of the GPUs');
    const models = engine.status().lanes.find((l) => l.name === 'models')!;
    expect(models.limit?.text).toBe('GPU: reading the cards before starting more');
    expect(engine.status().machine.gpuError).toMatch(/nvidia-smi did not answer/);
    expect(seen.workers).toBe(1);
    // One read's four, and at most the four of the read just killed, on their way out as the next starts: never an accumulation.
    expect(seen.hanging).toBeLessThanOrEqual(8);
    await engine.stop({ graceMs: 2000 });
    await waitFor(() => gpu.processes() === 0, 'none of its processes left after the engine stopped');
  }, 120_000);

  it('after good readings: the lane keeps what it had when the reads began to fail, and says since when', async () => {
    const dir = tempDir('lanes-gpu-hang-');
    const gpu = hangingGpu(dir.dir, ['0,GPU-fix-0,Fixture Card 24G,24576,300']);
    const engine = await engineWith(gpu, dir);
    await engine.request('addLane', { name: 'models', class: 'ml', cap: 7, workerCommand: gpuWorker(dir.dir, gpu.apps, 6000) });
    await engine.request('addJobs', { jobs: Array.from({ length: 2000 }, (_, n) => ({ lane: 'models', payload: { n } })) });
    const models = () => engine.status().lanes.find((l) => l.name === 'models')!;
    await until(engine, () => models().workers >= 2, 60_000, 'two workers on good readings');
    gpu.hang('exit');
    await until(engine, () => engine.status().machine.gpuError !== undefined, 30_000, 'a read that failed');
    const had = models().workers;
    const { seen, look } = watch(engine, gpu);
    const calls = gpu.calls().length;
    await until(engine, () => look() && gpu.calls().length >= calls + 16, 60_000, 'eight more reads of the GPUs');
    expect(seen.workers, JSON.stringify(models())).toBeLessThanOrEqual(Math.max(had, 1));
    expect(had).toBeLessThanOrEqual(4);
    expect(models().limit!.workers).toBeLessThanOrEqual(Math.max(had, 1));
    expect(gpuLines(engine.status().machine)).toContainEqual(expect.stringMatching(/^GPU: not read since \d\d:\d\d \(nvidia-smi (listed no GPU|did not answer within \d+ ms)\): no ml lane grows until it is$/)); // a loaded machine may time the read out first
    expect(seen.hanging).toBeLessThanOrEqual(4);
    await engine.stop({ graceMs: 2000 });
    await waitFor(() => gpu.processes() === 0, 'none of its processes left after the engine stopped');
  }, 120_000);
});
