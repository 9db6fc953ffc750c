// The sizer sees the machine, end to end: real engines, real worker processes that hold real
// memory, the machine's facts from the environment (LANES_MEMORY, LANES_POWER), from fixture
// files (a container's cgroup), or from a stand-in for the desktop's powerMonitor. An engine
// given no desktop knows nobody at the computer, as under `lanes daemon`: every core works.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine, EngineOptions } from '../../electron/engine/index.js';
import { readCgroupLimits } from '../../electron/engine/machine/cgroup.js';
import { enginesEachTest, jobsFinished, nextEvent, startEngine, tempDir, until } from '../support/engine.js';
import { atTheComputer, awayFromTheComputer, fakeDesktop } from '../support/machine.js';

const MiB = 2 ** 20;
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'machine');

const started = enginesEachTest();

async function engineWith(o: Partial<EngineOptions>, dir = tempDir()): Promise<{ engine: Engine; dir: string }> {
  return { engine: await started(dir, { sampleMs: 150, ...o }), dir: dir.dir };
}

/** A persistent worker that loads a "model" of `mb` MiB (touched, so resident), then answers each job after `ms`. */
function modelWorker(dir: string, mb: number, ms: number): string[] {
  const script = join(dir, 'model-worker.cjs');
  writeFileSync(
    script,
    `const model = Buffer.alloc(${mb} * 1024 * 1024, 1);
process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const { id } = JSON.parse(line);
  setTimeout(() => process.stdout.write(JSON.stringify({ id, ok: true, result: model[0] }) + '\\n'), ${ms});
});\n`,
  );
  return [process.execPath, script];
}

describe('memory', () => {
  it('LANES_CORES=8 LANES_MEMORY=1500M, an ml lane at cap 7 of 400 MB workers, 40 waiting: never more than 4, settles at 3 or fewer, memory named, no nudge beyond what fits', async () => {
    const { engine, dir } = await engineWith({ cores: 8, env: { LANES_MEMORY: '1500M' } });
    await engine.request('addLane', { name: 'models', class: 'ml', cap: 7, workerCommand: modelWorker(engine.dataDir, 400, 250) });
    const seen: { workers: number; finished: number; limitedBy: string; laneLimit: number | null; suggested: number | null }[] = [];
    let finished = 0;
    engine.events.subscribe((e) => {
      if (e.type === 'job' && e.data.state === 'succeeded') finished++;
      if (e.type !== 'lane' || e.data.name !== 'models') return;
      const s = engine.status();
      seen.push({ workers: e.data.workers, finished, limitedBy: s.machine.limitedBy, laneLimit: e.data.limit?.workers ?? null, suggested: e.data.nudge?.suggestedCap ?? null });
    });
    const { ids } = await engine.request('addJobs', { jobs: Array.from({ length: 40 }, (_, n) => ({ lane: 'models', payload: { n } })) });
    await jobsFinished(engine, ids, 120_000);

    expect(Math.max(...seen.map((s) => s.workers))).toBeLessThanOrEqual(4);
    // Once the cost is measured (the later half of the run), it holds at what fits.
    expect(Math.max(...seen.filter((s) => s.finished >= 20).map((s) => s.workers))).toBeLessThanOrEqual(3);
    expect(seen.some((s) => s.limitedBy === 'memory' && s.laneLimit !== null && s.laneLimit <= 3)).toBe(true);
    for (const s of seen) if (s.suggested !== null) expect(s.suggested).toBeLessThanOrEqual(s.laneLimit ?? 3);

    const lane = engine.status().lanes.find((l) => l.name === 'models')!;
    expect(lane.workerMemoryBytes).toBeGreaterThan(400 * MiB);
    expect(lane.workerMemoryBytes).toBeLessThan(700 * MiB);
    // The ledger said why it stopped growing or gave workers back, if it had to.
    const ledger = await engine.request('scaleEvents', { lane: 'models' });
    expect(ledger.every((e) => e.to <= 4)).toBe(true);

    // Kept across a restart: the next engine knows what one costs before it starts any.
    const cost = lane.workerMemoryBytes!;
    await engine.stop({ graceMs: 2000 });
    const again = await engineWith({ cores: 8, env: { LANES_MEMORY: '1500M' } }, { dir, cleanup: () => {} });
    const known = again.engine.status().lanes.find((l) => l.name === 'models')!;
    expect(known.workerMemoryBytes).toBe(cost);
    expect(known.workers).toBe(0);
  }, 150_000);

  it('memory critically low: the newest busy worker of the costliest lane stops, its job runs again without spending an attempt', async () => {
    let available = 8 * 2 ** 30;
    const { engine } = await engineWith({ cores: 4, machineReaders: { memory: async () => ({ total: 16 * 2 ** 30, available }) } });
    const gate = join(engine.dataDir, 'gate');
    const script = `while [ ! -e '${gate}' ]; do sleep 0.05; done`;
    const started = nextEvent(engine, (e) => e.type === 'job' && e.data.state === 'running');
    const { id } = await engine.request('addJob', { argv: ['sh', '-c', script] });
    await started;
    available = 100 * MiB;
    const back = await nextEvent(engine, (e) => e.type === 'job' && e.data.id === id && e.data.state === 'queued', 30_000);
    available = 8 * 2 ** 30;
    writeFileSync(gate, '');
    const [done] = await jobsFinished(engine, [id]);
    const story = JSON.stringify({ history: (await engine.request('job', { id })).history, ledger: await engine.request('scaleEvents', { lane: 'worker' }) });
    // Given back, not spent: the stopped run keeps its number, and the job one more attempt.
    expect(back.type === 'job' && [back.data.attempts, back.data.maxAttempts], story).toEqual([1, 4]);
    expect(done!.state).toBe('succeeded');
    const ledger = await engine.request('scaleEvents', { lane: 'worker' });
    expect([done!.attempts, done!.maxAttempts], JSON.stringify({ history: (await engine.request('job', { id })).history, ledger })).toEqual([2, 4]);
    expect(ledger.some((e) => e.reason === 'machine' && /memory critically low/.test(e.detail))).toBe(true);
  }, 60_000);
});

describe('power, the person, the container', () => {
  it('LANES_POWER=battery on 8 cores, no desktop: at most 3, battery named; on ac, all 8', async () => {
    const battery = await engineWith({ cores: 8, env: { LANES_POWER: 'battery' } });
    expect(battery.engine.status().ceiling).toBeLessThanOrEqual(3);
    expect(battery.engine.status().machine).toMatchObject({ limitedBy: 'battery', power: 'battery', coreCeiling: 8, text: 'quiet: on battery' });
    const ac = await engineWith({ cores: 8, env: { LANES_POWER: 'ac' } });
    expect(ac.engine.status().machine).toMatchObject({ ceiling: 8, limitedBy: 'cores', power: 'ac', personActive: null, text: 'all 8 cores: nobody at the computer' });
    expect(ac.engine.status().ceiling).toBe(8);
  });

  it('a bad override refuses to start, naming its variable', async () => {
    const dir = tempDir();
    await expect(startEngine(dir.dir, { env: { LANES_MEMORY: 'lots' } })).rejects.toThrow(/LANES_MEMORY/);
    await expect(startEngine(dir.dir, { env: { LANES_POWER: 'solar' } })).rejects.toThrow(/LANES_POWER/);
    dir.cleanup();
  });

  it('in a cgroup limited to 2 CPUs the ceiling is its 2, whatever the host has, while nobody is at the computer; 1 while someone is', async () => {
    const container = { cores: async () => 64, affinity: () => 64, cgroup: () => readCgroupLimits(join(fixtures, 'container-2cpu')) };
    const { engine } = await engineWith({ cores: undefined, machineReaders: container, desktop: awayFromTheComputer() });
    expect(engine.status().machine).toMatchObject({ cores: 64, ceiling: 2, coreCeiling: 2, limitedBy: 'container', text: 'container: all 2 CPUs, nobody at the computer' });
    const at = await engineWith({ cores: undefined, machineReaders: container, desktop: atTheComputer() });
    expect(at.engine.status().machine).toMatchObject({ cores: 64, ceiling: 1, coreCeiling: 1 });
  });

  it('the person at the machine: room left while they type, every core once the screen locks', async () => {
    const desktop = fakeDesktop(0);
    const { engine } = await engineWith({ cores: 8, desktop: desktop.signals });
    expect(engine.status().machine).toMatchObject({ personActive: true, limitedBy: 'in-use', ceiling: 5 });
    desktop.emit('lock-screen');
    await until(engine, () => engine.status().machine.personActive === false);
    expect(engine.status().machine).toMatchObject({ ceiling: 8, limitedBy: 'cores', text: 'all 8 cores: nobody at the computer' });
  });
});

describe('every core while nobody uses the machine', () => {
  /** A 2-core machine as read from the hardware (no LANES_CORES): the lane sizes itself against it. */
  const twoCores = { cores: async () => 2, affinity: () => 2 };

  /** The most jobs of the lane running at once while 6 jobs that wait on a gate are worked. */
  async function mostAtOnce(engine: Engine): Promise<number> {
    await engine.request('setCap', { lane: 'worker', cap: 4 });
    const gate = join(engine.dataDir, 'gate');
    let most = 0;
    const off = engine.events.subscribe(() => (most = Math.max(most, engine.status().lanes.find((l) => l.name === 'worker')!.busy)));
    const { ids } = await engine.request('addJobs', { jobs: Array.from({ length: 6 }, () => ({ shell: `while [ ! -e '${gate}' ]; do sleep 0.05; done` })) });
    // Every job the ceiling allows is running before the gate opens: the count is the ceiling's, not the scheduler's luck.
    await until(engine, () => engine.status().lanes.find((l) => l.name === 'worker')!.busy === engine.status().ceiling, 30_000, 'as many running as the ceiling allows');
    writeFileSync(gate, '');
    await jobsFinished(engine, ids, 60_000);
    off();
    return most;
  }

  it('nobody at a 2-core computer: a lane at cap 4 runs 2 jobs at once, and says why', async () => {
    const { engine } = await engineWith({ cores: undefined, machineReaders: twoCores, desktop: awayFromTheComputer() });
    expect(engine.status().machine).toMatchObject({ cores: 2, ceiling: 2, limitedBy: 'cores', personActive: false, text: 'all 2 cores: nobody at the computer' });
    expect(await mostAtOnce(engine)).toBe(2);
  }, 90_000);

  it('a headless daemon on 2 cores (no desktop session) runs 2 at once too', async () => {
    const { engine } = await engineWith({ cores: undefined, machineReaders: twoCores });
    expect(engine.status().machine).toMatchObject({ ceiling: 2, personActive: null, text: 'all 2 cores: nobody at the computer' });
    expect(await mostAtOnce(engine)).toBe(2);
  }, 90_000);

  it('someone at the same computer: one job at a time, a core left for them', async () => {
    const { engine } = await engineWith({ cores: undefined, machineReaders: twoCores, desktop: atTheComputer() });
    expect(engine.status().machine).toMatchObject({ ceiling: 1, personActive: true });
    expect(await mostAtOnce(engine)).toBe(1);
  }, 90_000);
});
