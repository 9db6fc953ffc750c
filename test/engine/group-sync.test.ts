// Group commit: concurrent writers share a transaction and a sync; none is told "on disk" before
// a sync that began after its write has ended; a failed transaction fails each of its writers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupSync, INLINE_SYNC_MS, syncInline } from '../../electron/engine/store/group-sync.js';
import { tempDir } from '../support/engine.js';

/** Syncs that end when the test says so; transactions counted, each writer's context its round. */
class HeldSync extends GroupSync<number> {
  readonly syncs: (() => void)[] = [];
  rounds = 0;
  constructor(wal: string, fail = false) {
    super(wal, (body) => {
      if (fail) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return body(++this.rounds);
    });
  }
  protected override sync(): Promise<void> {
    return new Promise((done) => this.syncs.push(done));
  }
}

const turn = () => new Promise((r) => setImmediate(r));

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('group sync', () => {
  it('fifty writers at once share one transaction and one sync', async () => {
    const group = new HeldSync(join(dir, 'wal'));
    const all = Array.from({ length: 50 }, (_, i) => group.commit((round) => ({ i, round })));
    await turn();
    expect(group.rounds).toBe(1);
    expect(group.syncs).toHaveLength(1);
    group.syncs[0]!();
    const results = await Promise.all(all);
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => ({ i, round: 1 })));
  });

  it('writes made while a sync runs wait for the next round, which they share', async () => {
    const group = new HeldSync(join(dir, 'wal'));
    const answered: string[] = [];
    const first = group.commit(() => 'first').then((x) => answered.push(x));
    await turn();
    const later = [group.commit((round) => `later ${round}`), group.commit((round) => `later ${round}`)].map((p) => p.then((x) => answered.push(x)));
    await turn();
    // Not written yet, and certainly not said to be on disk.
    expect(group.rounds).toBe(1);
    group.syncs[0]!();
    await first;
    await turn();
    expect(answered).toEqual(['first']);
    expect(group.rounds).toBe(2);
    group.syncs[1]!();
    await Promise.all(later);
    expect(answered).toEqual(['first', 'later 2', 'later 2']);
  });

  it('a transaction that fails fails each of its writers, and the next round still runs', async () => {
    const failing = new HeldSync(join(dir, 'wal'), true);
    const a = failing.commit(() => 1);
    const b = failing.commit(() => 2);
    await expect(a).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    await expect(b).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(failing.syncs).toHaveLength(0);
  });

  it.each([
    [1, 0.2, true],
    [1, INLINE_SYNC_MS, false],
    [1, 40, false],
    [2, 0.2, false],
    [50, 0.2, false],
  ])('a round of %i write(s) with syncs typically taking %f ms syncs on the event loop: %s', (writes, typicalMs, inline) => {
    expect(syncInline(writes, typicalMs)).toBe(inline);
  });

  it('really syncs the file it is given, one writer after another and many at once', async () => {
    const wal = join(dir, 'lanes.db-wal');
    writeFileSync(wal, 'x');
    const group = new GroupSync<void>(wal, (body) => body());
    for (let i = 0; i < 20; i++) await expect(group.commit(() => i)).resolves.toBe(i);
    await expect(Promise.all(Array.from({ length: 20 }, (_, i) => group.commit(() => i)))).resolves.toHaveLength(20);
    await group.close();
  });

  it('really syncs the file it is given', async () => {
    const wal = join(dir, 'lanes.db-wal');
    writeFileSync(wal, 'x');
    const group = new GroupSync<void>(wal, (body) => body());
    await expect(group.commit(() => 7)).resolves.toBe(7);
    await group.close();
  });
});
