// A nudge a person quieted rests, and says so (shared/nudge-rest.ts): until when, why, and the
// backlog at which it speaks again — only while it would otherwise speak. Each row builds one
// lane's status (status/lane-status.ts) and checks the words `lanes status` and the window get.
import { describe, expect, it } from 'vitest';
import type { LaneStatus, NudgeRestWhy, Status } from '../../shared/model.js';
import { nudgeRestWords } from '../../shared/nudge-rest.js';
import { laneStatus, type StatusInputs, type StatusLookups } from '../../electron/engine/status/lane-status.js';
import type { LaneRow } from '../../electron/engine/store/lanes.js';
import { statusText } from '../../electron/cli/commands/lanes.js';

const NOW = new Date(2026, 11, 2, 14, 0, 0).getTime();
const HOUR = 3_600_000;

interface Row {
  name: string;
  /** The quiet a person set (null: none), and what waits and runs now. */
  quiet: { until: number; backlog: number; why: NudgeRestWhy | null } | null;
  waiting: number;
  busy: number;
  cap?: number;
  paused?: boolean;
  /** What `lanes status` notes of it (null: nothing of a rest); the nudge speaks where `nudge` is true. */
  cli: string | null;
  nudge?: boolean;
}

const lookups: StatusLookups = {
  recent: () => ({ throughputPerMin: 0, finishedLately: 0, paceSpanMs: 0, medianWaitMs: null, workerLoadMs: null, typicalRunMs: null, longestRunMs: null, runningSince: [] }),
  // Waiting long enough for a nudge to be due.
  oldestQueuedAt: () => NOW - 60_000,
  startsBlockedUntil: () => null,
  workerMemory: () => null,
};

function statusOf(r: Row): LaneStatus {
  const cap = r.cap ?? 2;
  const lane: LaneRow = { name: 'thumbs', class: 'cpu', cap, workerCommand: null, workerCwd: null, timeoutMs: null, nudgeQuietUntil: r.quiet?.until ?? null, nudgeQuietBacklog: r.quiet?.backlog ?? null, nudgeQuietWhy: r.quiet?.why ?? null, queue: null };
  const inputs: StatusInputs = {
    now: NOW,
    tickMs: 1000,
    ceiling: 7,
    laneLimits: new Map(),
    lanes: [lane],
    counts: new Map([['thumbs', { queued: r.waiting + r.busy, running: r.busy, succeeded: 0, failed: 0, cancelled: 0 }]]),
    demand: new Map([['thumbs', { ready: r.waiting, inHand: 0, notYet: 0, afterJobs: 0, scheduled: 0, scheduledNext: null, nextReadyAt: null, running: r.busy }]]),
    workers: new Map([['thumbs', { idle: 0, busy: r.busy, leaving: 0 }]]),
    machineInUse: r.busy,
    paused: r.paused ?? false,
  };
  return laneStatus(lane, inputs, lookups).status;
}

const cliNote = (l: LaneStatus): string | null => {
  const status: Status = { seq: 0, ceiling: 7, machine: { ceiling: 7, limitedBy: 'cores', text: '8 cores' } as Status['machine'], paused: null, workersInUse: l.workers, dataDir: '/d', pid: 1, startedAt: 0, version: '0', lanes: [l] };
  return statusText(status, NOW, 80).split('\n').find((line) => line.includes('nudge resting')) ?? null;
};

const rows: Row[] = [
  { name: 'a lowered cap, the backlog unchanged', quiet: { until: NOW + HOUR, backlog: 40, why: 'cap' }, waiting: 40, busy: 2, cli: 'thumbs: nudge resting until 15:00 — you lowered the cap; back sooner if 140 wait' },
  { name: 'snoozed, a larger backlog', quiet: { until: NOW + 2 * HOUR, backlog: 300, why: 'snooze' }, waiting: 310, busy: 2, cli: 'thumbs: nudge resting until 16:00 — you snoozed it; back sooner if 600 wait' },
  { name: 'not now, the next day', quiet: { until: NOW + 24 * HOUR, backlog: 10, why: 'dismiss' }, waiting: 12, busy: 2, cli: 'thumbs: nudge resting until 2026-12-03 14:00 — you said not now; back sooner if 110 wait' },
  { name: 'quieted by an older Lanes: no why', quiet: { until: NOW + HOUR, backlog: 40, why: null }, waiting: 40, busy: 2, cli: 'thumbs: nudge resting until 15:00; back sooner if 140 wait' },
  { name: 'the backlog grew past it: the nudge speaks instead', quiet: { until: NOW + HOUR, backlog: 40, why: 'cap' }, waiting: 140, busy: 2, cli: null, nudge: true },
  { name: 'its time is over: the nudge speaks', quiet: { until: NOW - 1, backlog: 40, why: 'cap' }, waiting: 40, busy: 2, cli: null, nudge: true },
  { name: 'nothing waits: nothing rests', quiet: { until: NOW + HOUR, backlog: 40, why: 'cap' }, waiting: 0, busy: 2, cli: null },
  { name: 'the cap is not the limit (a free worker slot): nothing rests', quiet: { until: NOW + HOUR, backlog: 40, why: 'cap' }, waiting: 40, busy: 1, cap: 3, cli: null },
  { name: 'paused: no nudge, no rest', quiet: { until: NOW + HOUR, backlog: 40, why: 'cap' }, waiting: 40, busy: 2, paused: true, cli: null },
  { name: 'never quieted: the nudge speaks', quiet: null, waiting: 40, busy: 2, cli: null, nudge: true },
];

describe('a resting nudge says until when and why', () => {
  for (const r of rows) {
    it(r.name, () => {
      const l = statusOf(r);
      expect(cliNote(l)).toBe(r.cli);
      expect(l.nudge !== null).toBe(r.nudge ?? false);
      expect(l.nudgeRest !== undefined).toBe(r.cli !== null);
      if (l.nudgeRest) expect(`thumbs: ${nudgeRestWords(l.nudgeRest, NOW)}`).toBe(r.cli);
    });
  }
});
