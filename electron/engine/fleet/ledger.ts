// Every change to a lane's workers, written to the scale ledger with its reason and announced,
// so "why did the fleet change?" always has an answer: what the sizer did, and what happened to
// it (a worker that crashed or stopped answering).
import type { ScaleReason } from '../../../shared/model.js';
import type { EventHub } from '../event-hub.js';
import type { Ledger } from '../store/ledger.js';
import { isDiskFull } from '../store/disk-full.js';

export class ScaleLedger {
  constructor(
    private readonly ledger: Ledger,
    private readonly events: EventHub,
    private readonly now: () => number,
  ) {}

  record(lane: string, from: number, to: number, reason: ScaleReason, detail: string): void {
    try {
      this.events.emit('scale', this.ledger.record(this.now(), lane, from, to, reason, detail));
    } catch (error) {
      // A row the disk has no room for is lost; the change it describes still happened.
      if (!isDiskFull(error)) throw error;
    }
  }

  /** A worker went without being asked: the lane has one fewer in service than a moment ago. */
  lost(lane: string, inServiceNow: number, reason: ScaleReason, detail: string): void {
    this.record(lane, inServiceNow + 1, inServiceNow, reason, detail);
  }
}
