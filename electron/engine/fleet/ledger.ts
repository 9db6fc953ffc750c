// Every change to a lane's workers, written to the scale ledger with its reason and announced,
// so "why did the fleet change?" always has an answer: what the sizer did, and what happened to
// it (a worker that crashed or stopped answering).
import type { ScaleReason } from '../../../shared/model.js';
import type { EventHub } from '../event-hub.js';
import type { Ledger, LedgerRow as Row } from '../store/ledger.js';
import { isDiskFull } from '../store/disk-full.js';

export class ScaleLedger {
  /** Rows recorded inside `batch`, written when it ends. */
  private batched: Row[] | null = null;

  constructor(
    private readonly ledger: Ledger,
    private readonly events: EventHub,
    private readonly now: () => number,
  ) {}

  record(lane: string, from: number, to: number, reason: ScaleReason, detail: string): void {
    const row: Row = { at: this.now(), lane, from, to, reason, detail };
    if (this.batched) this.batched.push(row);
    else this.write([row]);
  }

  /**
   * What `fn` records is written in one transaction once it returns (or throws: what it did
   * still happened). A pass that hands workers from lane to lane writes its rows at once.
   */
  batch(fn: () => void): void {
    if (this.batched) return fn();
    this.batched = [];
    try {
      fn();
    } finally {
      const rows = this.batched;
      this.batched = null;
      if (rows.length > 0) this.write(rows);
    }
  }

  private write(rows: Row[]): void {
    try {
      for (const event of this.ledger.recordAll(rows)) this.events.emit('scale', event);
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
