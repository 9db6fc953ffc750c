// What nvidia-smi prints, read into cards and processes: every line that parses, and nothing
// else; CUDA_VISIBLE_DEVICES as CUDA reads it; a worker's GPU use by the pids of its tree; and the
// GPU line's words.
import { describe, expect, it } from 'vitest';
import { gpuBytesOf, parseApps, parseCards, placeOnCards, visibleCards, type GpuCard } from '../../../electron/engine/machine/gpu.js';
import { gpuLines } from '../../../shared/gpu-words.js';
import { MiB } from './machine-fixtures.js';

const card = (index: number, uuid = `GPU-${index}`): GpuCard => ({ index, uuid, name: 'Card', totalBytes: 24576 * MiB, usedBytes: 0, usedByLanes: 0 });

describe('nvidia-smi --query-gpu', () => {
  it.each<[string, string, Partial<GpuCard>[]]>([
    ['one card', '0, GPU-aa, NVIDIA GeForce RTX 4090, 24564, 1203\n', [{ index: 0, uuid: 'GPU-aa', name: 'NVIDIA GeForce RTX 4090', totalBytes: 24564 * MiB, usedBytes: 1203 * MiB }]],
    ['two cards, CRLF', '0, GPU-aa, A100, 81920, 0\r\n1, GPU-bb, A100, 81920, 40000\r\n', [{ index: 0 }, { index: 1, usedBytes: 40000 * MiB }]],
    ['a name with a comma', '0, GPU-aa, Tesla T4, rev 2, 15360, 5\n', [{ name: 'Tesla T4, rev 2', totalBytes: 15360 * MiB }]],
    ['used above total is the total', '0, GPU-aa, X, 100, 150\n', [{ usedBytes: 100 * MiB }]],
    ['[N/A] memory: left out', '0, GPU-aa, X, [N/A], [N/A]\n', []],
    ['a header or a warning: left out', 'index, uuid, name, memory.total [MiB], memory.used [MiB]\nNVIDIA-SMI has failed\n', []],
    ['a card of 0 MiB: left out', '0, GPU-aa, X, 0, 0\n', []],
    ['an absurd size: left out', '0, GPU-aa, X, 99999999999, 0\n', []],
    ['nothing', '', []],
  ])('%s', (_what, text, cards) => {
    const parsed = parseCards(text);
    expect(parsed).toHaveLength(cards.length);
    cards.forEach((c, i) => expect(parsed[i]).toMatchObject({ usedByLanes: 0, ...c }));
  });

  it('at most 64 cards', () => {
    const text = Array.from({ length: 100 }, (_, i) => `${i % 64}, GPU-${i}, X, 1000, 0`).join('\n');
    expect(parseCards(text)).toHaveLength(64);
  });
});

describe('nvidia-smi --query-compute-apps', () => {
  it.each<[string, string, number]>([
    ['two processes', 'GPU-aa, 4242, 6000\nGPU-aa, 4243, 10\n', 2],
    ['[N/A] (Windows, WDDM): left out', 'GPU-aa, 4242, [N/A]\n', 0],
    ['a pid that is not one: left out', 'GPU-aa, -1, 5\nGPU-aa, x, 5\n', 0],
    ['too few fields: left out', 'GPU-aa, 4242\n', 0],
  ])('%s', (_what, text, n) => {
    expect(parseApps(text)).toHaveLength(n);
  });
});

describe('CUDA_VISIBLE_DEVICES', () => {
  const cards = [card(0, 'GPU-aaaa'), card(1, 'GPU-bbbb'), card(2, 'GPU-cccc')];
  it.each<[string | undefined, number[]]>([
    [undefined, [0, 1, 2]],
    ['1', [1]],
    ['2,0', [2, 0]],
    ['GPU-bbbb', [1]],
    ['GPU-cc', [2]],
    ['1,7,2', [1]],
    ['', []],
    ['-1', []],
  ])('%j shows cards %j', (raw, indexes) => {
    expect(visibleCards(cards, raw).map((c) => c.index)).toEqual(indexes);
  });
});

describe("a worker's GPU use", () => {
  it('is the sum over the pids of its tree, per card; others are not counted', () => {
    const apps = parseApps('GPU-a, 10, 6000\nGPU-a, 11, 200\nGPU-b, 12, 1000\nGPU-a, 99, 9000\n');
    const { bytes, byCard } = gpuBytesOf([10, 11, 12, 13], apps);
    expect(bytes).toBe(7200 * MiB);
    expect(byCard).toEqual(new Map([['GPU-a', 6200 * MiB], ['GPU-b', 1000 * MiB]]));
    expect(gpuBytesOf([1], apps).bytes).toBe(0);
  });
});

describe('one reading put together', () => {
  it("each card with what Lanes' workers hold there, each worker with its bytes and card; hidden cards left out", () => {
    const cards = [card(0, 'GPU-a'), { ...card(1, 'GPU-b'), usedBytes: 100 * MiB }, card(2, 'GPU-c')];
    const apps = parseApps('GPU-a, 10, 6000\nGPU-b, 20, 3000\nGPU-b, 21, 1000\nGPU-a, 99, 500\n');
    const { cards: seen, workers } = placeOnCards({ cards, apps }, [[10], [20, 21], [30]], '0,1');
    expect(seen.map((c) => [c.uuid, c.usedByLanes / MiB, c.usedBytes / MiB])).toEqual([
      ['GPU-a', 6000, 6000],
      // nvidia-smi said 100 MiB used a moment before the processes held 4,000: never less than they hold.
      ['GPU-b', 4000, 4000],
    ]);
    expect(workers).toEqual([
      { bytes: 6000 * MiB, card: 'GPU-a' },
      { bytes: 4000 * MiB, card: 'GPU-b' },
      { bytes: 0, card: null },
    ]);
    // The card list as read is left as it was.
    expect(cards[1]!.usedBytes).toBe(100 * MiB);
  });
});

describe('the GPU line', () => {
  const gpu = { index: 0, name: 'RTX 4090', totalBytes: 24576 * MiB, usedBytes: 18300 * MiB, heldByLanesBytes: 18000 * MiB, forWorkersBytes: 23784 * MiB };
  it.each<[string, Parameters<typeof gpuLines>[0], string[]]>([
    ['no GPU memory known: no line', { gpuMemory: 'unknown' }, []],
    ['an engine from before: no line', {}, []],
    ['Apple silicon', { gpuMemory: 'unified' }, ['GPU: shares the system memory (Apple silicon): the memory for workers covers it']],
    ['nvidia-smi, not read yet', { gpuMemory: 'nvidia', gpus: [] }, ['GPU: read while an ml lane has work']],
    ['nvidia-smi failed', { gpuMemory: 'nvidia', gpus: [], gpuError: 'nvidia-smi did not answer within 5000 ms' }, ['GPU: not known: nvidia-smi did not answer within 5000 ms']],
    ['one card', { gpuMemory: 'nvidia', gpus: [gpu] }, ["GPU: RTX 4090 — 24 GB, 18 GB in use (18 GB by Lanes' workers), 5.6 GB more for workers"]],
    ['a read failed after a good one: the cards as last read, and since when', { gpuMemory: 'nvidia', gpus: [gpu], gpuError: 'nvidia-smi did not answer within 5000 ms', gpuReadAt: new Date(2026, 0, 5, 14, 2, 9).getTime() }, [expect.stringMatching(/^GPU: RTX 4090/), 'GPU: not read since 2026-01-05 14:02 (nvidia-smi did not answer within 5000 ms): no ml lane grows until it is']],
    ['its reading dropped as too old', { gpuMemory: 'nvidia', gpus: [], gpuError: 'nvidia-smi did not answer within 5000 ms', gpuReadAt: new Date(2026, 0, 5, 14, 2, 9).getTime() }, ['GPU: not read since 2026-01-05 14:02 (nvidia-smi did not answer within 5000 ms): no ml lane grows until it is']],
    ['two cards, numbered', { gpuMemory: 'nvidia', gpus: [gpu, { ...gpu, index: 1, heldByLanesBytes: 0, usedBytes: 0 }] }, [expect.stringMatching(/^GPU 0: /), 'GPU 1: RTX 4090 — 24 GB, 0 MB in use, 23 GB more for workers']],
  ])('%s', (_what, machine, lines) => {
    expect(gpuLines(machine)).toEqual(lines);
  });
});
