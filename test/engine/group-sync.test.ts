// Group commit: concurrent writers share syncs, and none is told "on disk" by a sync that began
// before its write.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupSync } from '../../electron/engine/store/group-sync.js';
import { tempDir } from '../support/engine.js';

/** A GroupSync whose syncs end when the test says so, and which counts them. */
class HeldSync extends GroupSync {
  readonly started: (() => void)[] = [];
  protected override sync(): Promise<void> {
    return new Promise((done) => this.started.push(done));
  }
}

const turn = () => new Promise((r) => setImmediate(r));

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('group sync', () => {
  it('fifty writers at once share one sync', async () => {
    const sync = new HeldSync(join(dir, 'wal'));
    let answered = 0;
    const all = Array.from({ length: 50 }, () => sync.synced().then(() => answered++));
    // The sync starts at the end of the turn, for every write made in it.
    expect(sync.started).toHaveLength(0);
    await turn();
    expect(sync.started).toHaveLength(1);
    sync.started[0]!();
    await Promise.all(all);
    expect(answered).toBe(50);
    expect(sync.started).toHaveLength(1);
  });

  it('a write made while a sync runs waits for the next one, which all such writes share', async () => {
    const sync = new HeldSync(join(dir, 'wal'));
    const order: string[] = [];
    const first = sync.synced().then(() => order.push('first'));
    await turn();
    expect(sync.started).toHaveLength(1);
    // Written while that sync runs: it may not cover them.
    const later = [sync.synced(), sync.synced()].map((p) => p.then(() => order.push('later')));
    await turn();
    expect(sync.started).toHaveLength(1);
    sync.started[0]!();
    await first;
    await turn();
    expect(order).toEqual(['first']);
    expect(sync.started).toHaveLength(2);
    sync.started[1]!();
    await Promise.all(later);
    expect(order).toEqual(['first', 'later', 'later']);
  });

  it('really syncs the file it is given', async () => {
    const wal = join(dir, 'lanes.db-wal');
    writeFileSync(wal, 'x');
    const sync = new GroupSync(wal);
    await expect(sync.synced()).resolves.toBeUndefined();
    await sync.close();
  });
});
