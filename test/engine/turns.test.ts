// Turns, over time: the pure policy driven against a small simulated world (workers that run
// jobs of a fixed length and report at their end), so the promises of docs/sizer.md are checked
// over many passes, not one: every lane gets a turn within the stated bound, shell workers move
// instead of restarting, and no worker is drained mid-job for someone else's backlog.
import { describe, expect, it } from 'vitest';
import { decide, type LaneObservation } from '../../electron/engine/sizer/policy.js';
import { turnMs } from '../../electron/engine/sizer/pacing.js';

interface SimWorker {
  id: string;
  lane: string;
  busyUntil: number | null;
  moveTo?: string;
  leaving?: boolean;
}

function simulate(o: { lanes: number; ceiling: number; jobMs: number; movable: boolean; forMs: number }) {
  const names = Array.from({ length: o.lanes }, (_, i) => `l${String(i).padStart(2, '0')}`);
  const workers: SimWorker[] = [];
  const servedSince = new Map<string, number>();
  const waitingSince = new Map<string, number>();
  const firstTurn = new Map<string, number>();
  let starts = 0;
  let n = 0;
  let killedMidJob = 0;
  let turns = 0;
  const startJob = (w: SimWorker, now: number) => {
    w.busyUntil = now + o.jobMs;
    if (!firstTurn.has(w.lane)) firstTurn.set(w.lane, now);
  };
  for (let now = 0; now <= o.forMs; now += 50) {
    // Jobs that ended: the worker leaves, changes lanes, or takes its lane's next job.
    for (const w of [...workers]) {
      if (w.busyUntil === null || w.busyUntil > now) continue;
      w.busyUntil = null;
      if (w.leaving) workers.splice(workers.indexOf(w), 1);
      else {
        if (w.moveTo) [w.lane, w.moveTo] = [w.moveTo, undefined];
        startJob(w, now);
      }
    }
    const lanes: LaneObservation[] = names.map((name) => {
      const mine = workers.filter((w) => w.lane === name && !w.leaving && !w.moveTo);
      const arriving = workers.filter((w) => w.moveTo === name).length;
      const held = mine.length + arriving > 0;
      if (!held) servedSince.delete(name);
      else if (!servedSince.has(name)) {
        servedSince.set(name, now);
        turns++;
      }
      if (held) waitingSince.delete(name);
      else if (!waitingSince.has(name)) waitingSince.set(name, now);
      return {
        name,
        class: 'cpu',
        cap: 1,
        idle: mine.filter((w) => w.busyUntil === null).map((w) => w.id),
        busy: mine.filter((w) => w.busyUntil !== null).map((w) => w.id),
        leaving: workers.filter((w) => w.lane === name && (w.leaving || w.moveTo)).length,
        arriving,
        waiting: 1_000_000,
        nextRetryAt: null,
        startsBlockedUntil: null,
        lastShrinkAt: null,
        surplusSince: null,
        movable: o.movable,
        servedSince: servedSince.get(name) ?? null,
        waitingSince: waitingSince.get(name) ?? null,
        capWas: null,
        limit: Infinity,
        limitText: null,
      };
    });
    for (const a of decide({ now, tickMs: 60_000, ceiling: o.ceiling, lanes }).actions) {
      const byId = (id: string) => workers.find((w) => w.id === id)!;
      if (a.kind === 'start') {
        for (let i = 0; i < a.count; i++) {
          const w: SimWorker = { id: `w${++n}`, lane: a.lane, busyUntil: null };
          workers.push(w);
          starts++;
          startJob(w, now);
        }
      } else if (a.kind === 'stop') {
        for (const id of a.workers) {
          if (byId(id).busyUntil !== null) killedMidJob++;
          workers.splice(workers.indexOf(byId(id)), 1);
        }
      } else if (a.kind === 'drain') for (const id of a.workers) byId(id).leaving = true;
      else if (a.kind === 'move') {
        for (const id of a.workers) {
          const w = byId(id);
          if (w.busyUntil === null) {
            w.lane = a.target.lane;
            startJob(w, now);
          } else w.moveTo = a.target.lane;
        }
      }
    }
    expect(workers.filter((w) => !w.leaving).length).toBeLessThanOrEqual(o.ceiling);
  }
  return { starts, killedMidJob, firstTurn, names, turns };
}

describe('turns over time', () => {
  for (const movable of [true, false]) {
    const kind = movable ? 'shell' : 'persistent';
    it(`${kind} lanes: 20 lanes, ceiling 2: every lane's first turn within (lanes ÷ ceiling) turns, nothing killed mid-job`, () => {
      const turn = turnMs({ movable, class: 'cpu' });
      const jobMs = 300;
      const forMs = 12 * (turn + jobMs);
      const r = simulate({ lanes: 20, ceiling: 2, jobMs, movable, forMs });
      const bound = Math.ceil(20 / 2) * (turn + jobMs + 100);
      expect(r.firstTurn.size).toBe(20);
      for (const name of r.names) expect(r.firstTurn.get(name)!).toBeLessThanOrEqual(bound);
      expect(r.killedMidJob).toBe(0);
      // Shell workers change lanes; a persistent lane starts a worker per turn, and no more.
      expect(r.turns).toBeGreaterThan(20);
      if (movable) expect(r.starts).toBe(2);
      // (Starts in the last pass begin turns the simulation does not get to see.)
      else expect(r.starts).toBeLessThanOrEqual(r.turns + 2);
    });
  }
});
