// The lane publisher: at most ten announcements a second, each building only the lanes whose
// inputs moved, and every lane at least once a second for what time alone changes. Driven with
// a builder that says what it was asked to build, on a fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LaneStatus } from '../../shared/model.js';
import { EventHub } from '../../electron/engine/event-hub.js';
import { LanePublisher, type StatusBuilder } from '../../electron/engine/status/publisher.js';
import { TimelineSamples } from '../../electron/engine/status/timeline.js';

interface FakeLane {
  name: string;
  /** What its status is built from (statusKey); null: always built, as a shared lane is. */
  key: string | null;
  /** A figure time alone moves (a recent rate): not in the key. */
  rate: number;
  dueAt?: number | null;
}

function fixture(lanes: FakeLane[]) {
  const built: string[][] = [];
  const build: StatusBuilder = (stale) => {
    const round: string[] = [];
    built.push(round);
    const fresh = lanes
      .filter((l) => stale(l.name, l.key))
      .map((l) => {
        round.push(l.name);
        return { status: { name: l.name, key: l.key, throughputPerMin: l.rate } as unknown as LaneStatus, key: l.key, dueAt: l.dueAt ?? null };
      });
    return { lanes: lanes.map((l) => l.name), built: fresh };
  };
  const events = new EventHub(0);
  const announced: string[] = [];
  events.subscribe((e) => e.type === 'lane' && announced.push(e.data.name));
  const publisher = new LanePublisher(build, events, new TimelineSamples());
  return { publisher, built, announced };
}

describe('lane publisher', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('between whole rounds builds only the lanes whose inputs moved, and shared lanes always', () => {
    const lanes: FakeLane[] = [
      { name: 'a', key: '1', rate: 0 },
      { name: 'b', key: '1', rate: 0 },
      { name: 'shared', key: null, rate: 0 },
    ];
    const { publisher, built, announced } = fixture(lanes);
    publisher.publish();
    expect(built.at(-1)).toEqual(['a', 'b', 'shared']);
    expect(announced).toEqual(['a', 'b', 'shared']);

    vi.advanceTimersByTime(200);
    lanes[1]!.key = '2';
    lanes[0]!.rate = 5;
    publisher.soon();
    // "a" moved only in time: it waits for the whole round; "shared" is built but unchanged, so not announced.
    expect(built.at(-1)).toEqual(['b', 'shared']);
    expect(announced).toEqual(['a', 'b', 'shared', 'b']);

    vi.advanceTimersByTime(1_000);
    publisher.soon();
    expect(built.at(-1)).toEqual(['a', 'b', 'shared']);
    expect(announced.at(-1)).toBe('a');
  });

  it('announces at most once per 100 ms, and what came meanwhile at the end of the window', () => {
    const lanes: FakeLane[] = [{ name: 'a', key: '1', rate: 0 }];
    const { publisher, built } = fixture(lanes);
    publisher.publish();
    lanes[0]!.key = '2';
    publisher.soon();
    publisher.soon();
    expect(built).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(built).toHaveLength(2);
    expect(built.at(-1)).toEqual(['a']);
  });

  it('a nudge coming due in a lane not built since still brings a whole round at its moment', () => {
    const now = Date.now();
    const lanes: FakeLane[] = [
      { name: 'a', key: '1', rate: 0, dueAt: now + 5_000 },
      { name: 'b', key: '1', rate: 0 },
    ];
    const { publisher, built } = fixture(lanes);
    publisher.publish();
    vi.advanceTimersByTime(200);
    lanes[1]!.key = '2';
    publisher.soon();
    expect(built.at(-1)).toEqual(['b']);
    const rounds = built.length;
    vi.advanceTimersByTime(4_800);
    expect(built.length).toBe(rounds + 1);
    expect(built.at(-1)).toEqual(['a', 'b']);
  });

  it('a status read answers every lane in order, building and announcing first only what changed', () => {
    const lanes: FakeLane[] = [
      { name: 'a', key: '1', rate: 1 },
      { name: 'b', key: '1', rate: 1 },
    ];
    const { publisher, built, announced } = fixture(lanes);
    publisher.publish();
    vi.advanceTimersByTime(10);
    lanes[0]!.key = '2';
    lanes[1]!.rate = 9;
    const now = publisher.current();
    expect(built.at(-1)).toEqual(['a']);
    expect(announced).toEqual(['a', 'b', 'a']);
    expect(now.map((s) => [s.name, s.throughputPerMin])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    vi.advanceTimersByTime(1_000);
    expect(publisher.current().map((s) => s.throughputPerMin)).toEqual([1, 9]);
  });

  it('a forgotten lane is built and announced afresh if it comes back', () => {
    const lanes: FakeLane[] = [{ name: 'a', key: '1', rate: 0 }];
    const { publisher, announced } = fixture(lanes);
    publisher.publish();
    publisher.forget('a');
    vi.advanceTimersByTime(200);
    publisher.soon();
    expect(announced).toEqual(['a', 'a']);
  });
});
