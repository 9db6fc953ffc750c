// Announces lanes whose status changed, at most ten times a second (a busy lane changes thousands
// of times a second), samples the timeline as it goes, and looks again by itself when a nudge
// that is not showing yet becomes due, since nothing else would happen at that moment. The
// machine is announced too, once each time what it allows changes.
import type { LaneStatus, MachineStatus } from '../../../shared/model.js';
import { DueTimer } from '../due-timer.js';
import type { EventHub } from '../event-hub.js';
import type { TimelineSamples } from './timeline.js';

const PUBLISH_EVERY_MS = 100;
/**
 * Between these, only lanes whose inputs moved are built again (with hundreds of lanes, building
 * every one ten times a second was most of what the engine did besides running jobs); at least
 * this often every lane is, for what time alone moves: recent rates, an estimate.
 */
const WHOLE_EVERY_MS = 1_000;

/** A lane's status as built, with what it was built from (lane-status.ts `statusKey`). */
export interface BuiltStatus {
  status: LaneStatus;
  key: string | null;
  /** When a nudge not showing yet becomes due; null: none will. */
  dueAt: number | null;
}

/** Every lane's name, in order, and the statuses of those `stale` says need building. */
export type StatusBuilder = (stale: (lane: string, key: string | null) => boolean) => { lanes: string[]; built: BuiltStatus[] };

export class LanePublisher {
  /** Per lane, what was last announced and what it was built from. */
  private readonly shown = new Map<string, { status: LaneStatus; key: string | null; json: string; dueAt: number | null }>();
  /** The lanes as of the last announcement, in order. */
  private lanes: string[] = [];
  private lastPublish = 0;
  private lastWhole = 0;
  private timer: NodeJS.Timeout | null = null;
  /** A nudge not showing yet that becomes due. */
  private readonly nudge = new DueTimer(() => this.publish(), Date.now);
  private stopped = false;
  /** The machine as last announced. */
  private machineSaid = '';
  /** Statuses are being built now. */
  private building = false;

  constructor(
    private readonly build: StatusBuilder,
    private readonly events: EventHub,
    private readonly timeline: TimelineSamples,
  ) {}

  /** Publishes now, or once at the end of the current 100 ms window. */
  soon(): void {
    // Asked while building (the snapshot it reads was just made): what it builds is the newest.
    if (this.stopped || this.building) return;
    const since = Date.now() - this.lastPublish;
    if (since >= PUBLISH_EVERY_MS) this.announce(false);
    else
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.announce(false);
      }, PUBLISH_EVERY_MS - since);
  }

  /** Every lane, built now: what a person just changed shows before they hear back. */
  publish(): void {
    this.announce(true);
  }

  /**
   * Every lane's status as of now: what changed is built and announced first (so a snapshot
   * taken after covers it), the rest is as last built, at most WHOLE_EVERY_MS ago.
   */
  current(): LaneStatus[] {
    this.announce(false);
    return this.lanes.map((lane) => this.shown.get(lane)!.status);
  }

  private announce(whole: boolean): void {
    const now = Date.now();
    this.lastPublish = now;
    if (whole || now - this.lastWhole >= WHOLE_EVERY_MS) {
      whole = true;
      this.lastWhole = now;
    }
    this.building = true;
    let made: ReturnType<StatusBuilder>;
    try {
      made = this.build((lane, key) => whole || key === null || this.shown.get(lane)?.key !== key);
    } finally {
      this.building = false;
    }
    const { lanes, built } = made;
    this.lanes = lanes;
    for (const { status, key, dueAt } of built) {
      const json = JSON.stringify(status);
      const was = this.shown.get(status.name);
      this.shown.set(status.name, { status, key, json, dueAt });
      if (was?.json === json) continue;
      this.timeline.sample(status, now);
      this.events.emit('lane', status);
    }
    let due: number | null = null;
    for (const { dueAt } of this.shown.values()) if (dueAt !== null) due = Math.min(due ?? Infinity, dueAt);
    this.nudge.arm(due);
  }

  /** A change in what the machine allows is announced once, as a `machine` event. */
  machine(machine: MachineStatus): void {
    if (this.stopped) return;
    const key = JSON.stringify(machine);
    if (key === this.machineSaid) return;
    this.machineSaid = key;
    this.events.emit('machine', machine);
  }

  forget(lane: string): void {
    this.shown.delete(lane);
    this.timeline.forget(lane);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.nudge.stop();
  }
}
