// Announces lanes whose status changed, at most ten times a second (a busy lane changes thousands
// of times a second), samples the timeline as it goes, and looks again by itself when a nudge
// that is not showing yet becomes due, since nothing else would happen at that moment.
import type { LaneStatus } from '../../../shared/model.js';
import { DueTimer } from '../due-timer.js';
import type { EventHub } from '../event-hub.js';
import type { TimelineSamples } from './timeline.js';

const PUBLISH_EVERY_MS = 100;

export class LanePublisher {
  private readonly published = new Map<string, string>();
  private lastPublish = 0;
  private timer: NodeJS.Timeout | null = null;
  /** A nudge not showing yet that becomes due. */
  private readonly nudge = new DueTimer(() => this.publish(), Date.now);
  private stopped = false;

  constructor(
    private readonly build: () => { lanes: LaneStatus[]; nudgeDueAt: number | null },
    private readonly events: EventHub,
    private readonly timeline: TimelineSamples,
  ) {}

  /** Publishes now, or once at the end of the current 100 ms window. */
  soon(): void {
    if (this.stopped) return;
    const since = Date.now() - this.lastPublish;
    if (since >= PUBLISH_EVERY_MS) this.publish();
    else
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.publish();
      }, PUBLISH_EVERY_MS - since);
  }

  publish(): void {
    this.lastPublish = Date.now();
    const { lanes, nudgeDueAt } = this.build();
    for (const s of lanes) {
      const json = JSON.stringify(s);
      if (this.published.get(s.name) === json) continue;
      this.published.set(s.name, json);
      this.timeline.sample(s, this.lastPublish);
      this.events.emit('lane', s);
    }
    this.nudge.arm(nudgeDueAt);
  }

  forget(lane: string): void {
    this.published.delete(lane);
    this.timeline.forget(lane);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.nudge.stop();
  }
}
