// The window's pure parts, table by table, without a browser: the event-stream parser, how job
// events land in the list, how a frame of events folds, how live points extend the timeline, and
// the words numbers become. (These modules import nothing from the DOM, so Node runs them as they are.)
import { describe, expect, it as test } from 'vitest';
import type { JobSummary, LaneStatus } from '../../shared/model.js';
import { SseParser } from '../../shared/client/sse.js';
import { applyJobEvents, indexOfId, NO_FILTER, useJobs, type JobsState } from '../../renderer/stores/jobs.js';
import { appendLanePoints, prependLedger, useTimeline } from '../../renderer/stores/timeline.js';
import { formatDuration, plural } from '../../renderer/format.js';
import { describeSpec } from '../../shared/format.js';
import { foldEvents } from '../../renderer/events.js';
import type { LanesEvent } from '../../shared/events.js';

function job(id: number, patch: Partial<JobSummary> = {}): JobSummary {
  return { id, lane: 'worker', command: 'true', state: 'queued', attempts: 0, maxAttempts: 3, createdAt: id, startedAt: null, finishedAt: null, exitCode: null, error: null, runAfter: null, ...patch };
}

function jobsState(patch: Partial<JobsState>): JobsState {
  return { ...useJobs.getInitialState(), ...patch };
}

describe('SSE parser', () => {
  const stream = 'retry: 1000\n: comment\n\nid: 1\nevent: job\ndata: {"a":1}\n\nid: 2\r\nevent: lane\r\ndata: x\r\ndata: y\r\n\r\n';
  for (const size of [1, 2, 3, 7, stream.length]) {
    test(`reads the same messages in chunks of ${size}`, () => {
      const parser = new SseParser();
      const out = [];
      for (let i = 0; i < stream.length; i += size) out.push(...parser.push(stream.slice(i, i + size)));
      expect(out).toEqual([
        { id: '1', event: 'job', data: '{"a":1}' },
        { id: '2', event: 'lane', data: 'x\ny' },
      ]);
    });
  }
});

describe('job events in the list', () => {
  const rows = [job(30), job(20), job(10)];

  test('finds rows by id in a newest-first list', () => {
    expect([30, 20, 10, 15, 40].map((id) => indexOfId(rows, id))).toEqual([0, 1, 2, -1, -1]);
  });

  test('updates a listed job in place and puts new matching jobs on top', () => {
    const patch = applyJobEvents(jobsState({ rows }), [job(20, { state: 'running', attempts: 1 }), job(41), job(40), job(41, { state: 'running', attempts: 1 })]);
    expect(patch.rows?.map((j) => [j.id, j.state])).toEqual([[41, 'running'], [40, 'queued'], [30, 'queued'], [20, 'running'], [10, 'queued']]);
  });

  test('finds rows in an oldest-first list too', () => {
    const up = [job(10), job(20), job(30)];
    expect([10, 20, 30, 15, 40].map((id) => indexOfId(up, id))).toEqual([0, 1, 2, -1, -1]);
  });

  test('oldest first, new jobs go at the bottom once the list is read to its end, and not before', () => {
    const up = [job(10), job(20)];
    const filter = { ...NO_FILTER, order: 'oldest' as const };
    expect(applyJobEvents(jobsState({ rows: up, filter, next: null }), [job(31), job(30)]).rows?.map((j) => j.id)).toEqual([10, 20, 30, 31]);
    expect(applyJobEvents(jobsState({ rows: up, filter, next: 20 }), [job(30)]).rows).toBeUndefined();
  });

  test('a text search keeps only new jobs whose command holds the text, in any case', () => {
    const filter = { ...NO_FILTER, text: 'Resize ' };
    const patch = applyJobEvents(jobsState({ rows, filter }), [job(50, { command: 'convert a.jpg -resize 50%' }), job(51, { command: 'true' })]);
    expect(patch.rows?.map((j) => j.id)).toEqual([50, 30, 20, 10]);
  });

  test('leaves out new jobs the filter does not match', () => {
    const patch = applyJobEvents(jobsState({ rows, filter: { ...NO_FILTER, lane: 'ml' } }), [job(50)]);
    expect(patch.rows).toBeUndefined();
  });

  test('events a page already reflects are not applied to it again (they crossed it on the wire)', () => {
    // The page answered at seq 12: job 30 had succeeded. Events 11 and 12 arrive after it.
    const listed = jobsState({ seq: 12, rows: [job(30, { state: 'succeeded', attempts: 1 }), job(20)] });
    let seq = 10;
    const ev = (data: JobSummary) => ({ seq: ++seq, type: 'job', data }) as LanesEvent;
    const late = [ev(job(30, { state: 'running', attempts: 1 })), ev(job(30, { state: 'succeeded', attempts: 1 })), ev(job(20, { state: 'running', attempts: 1 }))];
    const batch = foldEvents(late, listed.seq);
    expect(batch.jobs.map((j) => [j.id, j.state])).toEqual([[20, 'running']]);
    expect(applyJobEvents(listed, batch.jobs).rows?.map((j) => j.state)).toEqual(['succeeded', 'running']);
  });
});

describe('a frame of events', () => {
  const lane = (name: string, waiting: number) => ({ name, waiting, nudge: null }) as unknown as LaneStatus;
  const nudge = { text: 'n', waiting: 4, busy: 1, ceiling: 7, suggestedCap: 5 };
  let seq = 0;
  const ev = (type: LanesEvent['type'], data: unknown) => ({ seq: ++seq, type, data }) as LanesEvent;

  test('the last word per lane wins, in the order said, nudge included', () => {
    const batch = foldEvents([ev('lane', lane('a', 1)), ev('lane', { ...lane('b', 9), nudge }), ev('lane', lane('a', 2))]);
    expect(batch.lanes.map((l) => [l.name, l.waiting, l.nudge?.suggestedCap ?? null])).toEqual([['a', 2, null], ['b', 9, 5]]);
    expect(batch.seq).toBe(seq);
  });

  test('events up to the seq a store reflects are left out', () => {
    const first = ev('lane', lane('a', 1));
    const second = ev('lane', lane('a', 2));
    expect(foldEvents([first, second], first.seq).lanes.map((l) => l.waiting)).toEqual([2]);
    expect(foldEvents([first, second], second.seq)).toMatchObject({ lanes: [], seq: 0 });
  });

  test('a large batch comes as one bulk event the list re-reads', () => {
    expect(foldEvents([ev('jobs', { ids: [1, 2, 3], change: 'added' })]).bulk).toEqual([1, 2, 3]);
  });

  test('removed, then added again, is there; added, then removed, is gone', () => {
    const batch = foldEvents([ev('laneRemoved', { name: 'x' }), ev('lane', lane('x', 0)), ev('lane', lane('y', 0)), ev('laneRemoved', { name: 'y' })]);
    expect(batch.lanes.map((l) => l.name)).toEqual(['x']);
    expect([...batch.removed]).toEqual(['y']);
  });
});

describe('timeline', () => {
  const lane = { name: 'worker', workers: 2, busy: 2, waiting: 5, cap: 2 } as LaneStatus;

  test('live points only once loaded, one per second, keeping the step shape', () => {
    const empty = useTimeline.getInitialState();
    expect(appendLanePoints(empty, [lane], 10_000)).toEqual({});
    const loaded = { ...empty, loaded: true, series: { worker: [{ at: 1_000, workers: 1, busy: 1, waiting: 9, cap: 2 }] } };
    const points = appendLanePoints(loaded, [lane], 10_000).series!.worker!;
    expect(points.map((p) => [p.at, p.workers])).toEqual([[1_000, 1], [9_999, 1], [10_000, 2]]);
    const again = appendLanePoints({ ...loaded, series: { worker: points } }, [{ ...lane, workers: 3 }], 10_400).series!.worker!;
    expect(again.map((p) => [p.at, p.workers])).toEqual([[1_000, 1], [9_999, 1], [10_400, 3]]);
  });

  test('the ledger is newest first, without repeats', () => {
    const e = (id: number) => ({ id, at: id, lane: 'worker', from: 0, to: 1, reason: 'demand' as const, detail: '' });
    const state = { ...useTimeline.getInitialState(), ledger: [e(2), e(1)] };
    expect(prependLedger(state, [e(2), e(4), e(3)]).ledger?.map((x) => x.id)).toEqual([4, 3, 2, 1]);
  });
});

test('words for numbers, times and commands', () => {
  expect([plural(1, 'worker'), plural(7, 'worker'), plural(4060, 'job')]).toEqual(['1 worker', '7 workers', '4,060 jobs']);
  expect([850, 4_200, 42_000, 184_000, 7_500_000, null].map(formatDuration)).toEqual(['850 ms', '4.2 s', '42 s', '3 min 4 s', '2 h 5 min', '—']);
  expect(describeSpec({ kind: 'argv', argv: ['sh', '-c', "echo 'hi'; sleep 1"] })).toBe(`sh -c 'echo '\\''hi'\\''; sleep 1'`);
  expect(describeSpec({ kind: 'shell', script: 'make -j4 && ./run' })).toBe('make -j4 && ./run');
});
