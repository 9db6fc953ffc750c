// Asking nvidia-smi, for real, of the fixture that stands in for it (test/fixtures/gpu): found on
// PATH without running anything, both queries read, and one that hangs killed at the timeout with
// everything it started: a child holding its output included, at the timeout, once it answered,
// and when the engine stops.
import { chmodSync, copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOnPath, GpuReadError, NvidiaSmi } from '../../../electron/engine/machine/gpu-reader.js';
import { killableCgroup, ownCgroup, removeCgroupTree } from '../../../electron/job-control/containment.js';
import { tempDir } from '../../support/engine.js';
import { countArgv, hangingGpu } from '../../support/gpu-hang.js';
import { waitFor } from '../../support/poll.js';
import { MiB } from './machine-fixtures.js';

const fixture = join(import.meta.dirname, '..', '..', 'fixtures', 'gpu', 'nvidia-smi');
let dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs) d.cleanup();
  dirs = [];
});

function bin(cards: string): string {
  const d = tempDir();
  dirs.push(d);
  mkdirSync(join(d.dir, 'apps'));
  copyFileSync(fixture, join(d.dir, 'nvidia-smi'));
  writeFileSync(join(d.dir, 'cards'), cards);
  return d.dir;
}

describe('finding nvidia-smi', () => {
  it('on PATH, in order, only as an executable file', () => {
    const a = bin('');
    const b = bin('');
    chmodSync(join(a, 'nvidia-smi'), 0o644);
    expect(findOnPath('nvidia-smi', `${a}:${b}`)).toBe(join(b, 'nvidia-smi'));
    expect(findOnPath('nvidia-smi', `/nowhere::${a}`)).toBeNull();
    expect(findOnPath('nvidia-smi', undefined)).toBeNull();
    expect(NvidiaSmi.find({ PATH: b })?.file).toBe(join(b, 'nvidia-smi'));
  });
});

describe('reading the cards', () => {
  it('both queries: the cards, and the processes on them that live', async () => {
    const dir = bin('0,GPU-fix-0,Fixture Card 24G,24576,300\n1,GPU-fix-1,Fixture Card 24G,24576,0\n');
    writeFileSync(join(dir, 'apps', String(process.pid)), 'GPU-fix-1,6000');
    // A pid that is not alive is not on any card.
    writeFileSync(join(dir, 'apps', '999999999'), 'GPU-fix-0,6000');
    const { cards, apps } = await new NvidiaSmi(join(dir, 'nvidia-smi')).read();
    expect(cards.map((c) => [c.index, c.usedBytes / MiB])).toEqual([
      [0, 300],
      [1, 6000],
    ]);
    expect(apps).toEqual([{ gpu: 'GPU-fix-1', pid: process.pid, usedBytes: 6000 * MiB }]);
  });

  it('one that does not answer is killed at the timeout, and the read fails saying so', async () => {
    const dir = bin('0,GPU-fix-0,Fixture Card 24G,24576,300\n');
    writeFileSync(join(dir, 'hang'), '');
    await expect(new NvidiaSmi(join(dir, 'nvidia-smi'), 300).read()).rejects.toThrow(/nvidia-smi did not answer/);
  });

  it('one that lists no card fails the read', async () => {
    const dir = bin('');
    await expect(new NvidiaSmi(join(dir, 'nvidia-smi')).read()).rejects.toThrow(/listed no GPU/);
  });
});

describe.skipIf(process.platform !== 'linux')('a read that hangs leaves nothing behind', () => {
  const card = '0,GPU-fix-0,Fixture Card 24G,24576,300';
  const hanging = () => {
    const d = tempDir('lanes-gpu-hang-');
    dirs.push(d);
    return hangingGpu(d.dir, [card]);
  };

  it('one that hangs with a child holding its output: both calls killed with their children at the timeout', async () => {
    const gpu = hanging();
    gpu.hang();
    const read = new NvidiaSmi(gpu.file, 400).read();
    // Both calls and their children are up while it hangs.
    await waitFor(() => gpu.hanging() === 4, 'the two hanging calls and their children');
    const error = await read.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GpuReadError);
    expect(error).toMatchObject({ timedOut: true, message: 'nvidia-smi did not answer within 400 ms' });
    await waitFor(() => gpu.processes() === 0, 'none of its processes left');
  });

  it('one that answers and leaves a child holding its output: the answer is read, the child killed', async () => {
    const gpu = hanging();
    const smi = new NvidiaSmi(gpu.file, 60_000);
    expect((await smi.read()).cards).toHaveLength(1);
    gpu.hang('exit');
    // It printed no card: the read fails at once, not at the timeout, and nothing stays.
    await expect(smi.read()).rejects.toMatchObject({ timedOut: false, message: 'nvidia-smi listed no GPU' });
    await waitFor(() => gpu.processes() === 0, 'none of its processes left');
  });

  it('a read under way when the engine stops is ended with all it started, and none starts after', async () => {
    const gpu = hanging();
    gpu.hang();
    const smi = new NvidiaSmi(gpu.file, 60_000);
    const read = smi.read().catch((e: unknown) => e);
    await waitFor(() => gpu.hanging() === 4, 'the two hanging calls and their children');
    smi.stop();
    expect(await read).toBeInstanceOf(GpuReadError);
    await waitFor(() => gpu.processes() === 0, 'none of its processes left');
    await expect(smi.read()).rejects.toThrow(/the engine is stopping/);
    expect(gpu.calls()).toHaveLength(2);
  });
});

describe.skipIf(process.platform !== 'linux' || ownCgroup() === null || findOnPath('setsid', process.env.PATH) === null)('a call in a cgroup of its own', () => {
  it('one whose child leaves the process group with setsid: the answer is read, and the child ended with the call', async () => {
    const dir = bin('0,GPU-fix-0,Fixture Card 24G,24576,300\n');
    copyFileSync(fixture, join(dir, 'answers'));
    symlinkSync(findOnPath('sleep', process.env.PATH)!, join(dir, 'hold'));
    writeFileSync(join(dir, 'nvidia-smi'), `#!/bin/sh\nsetsid "$(dirname "$0")/hold" 602 </dev/null >/dev/null 2>&1 &\nexec "$(dirname "$0")/answers" "$@"\n`, { mode: 0o755 });
    const base = (await killableCgroup(join(ownCgroup()!, `lanes-test-gpu-${process.pid}`)))!;
    try {
      expect(base).not.toBeNull();
      const smi = new NvidiaSmi(join(dir, 'nvidia-smi'), 60_000, base);
      expect((await smi.read()).cards).toHaveLength(1);
      await waitFor(() => countArgv(`${dir}/hold\0`) === 0, 'the children that left the group gone with their calls');
    } finally {
      await removeCgroupTree(base);
    }
  });
});

