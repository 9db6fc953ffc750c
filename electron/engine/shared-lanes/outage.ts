// A shared lane's outages in the scale ledger: when Redis stopped being reachable (closed, or not
// answering), and when it answered again, with how long it was away, so "why did this lane's
// workers go?" has an answer there too. Its workers meanwhile hold none of the machine.
import type { LaneParts } from './parts.js';

const clock = (at: number) => new Date(at).toLocaleTimeString('en-GB');

export class OutageLedger {
  /** Since when Redis has been away, as the ledger was told; null while it answers. */
  private since: number | null = null;

  constructor(private readonly p: LaneParts) {}

  /** Reachability changed: the start of an outage, or its end, once each. */
  moved(up: boolean): void {
    const c = this.p.conns;
    if (!up && this.since === null) {
      this.since = c.unreachableSince ?? Date.now();
      this.p.deps.outage(this.p.lane.name, `${c.awayReason()}: its workers take no jobs and hold none of the machine`);
    } else if (up && this.since !== null) {
      const s = Math.round((Date.now() - this.since) / 1000);
      this.p.deps.outage(this.p.lane.name, `Redis at ${c.redacted} answers again, after ${s} s away (since ${clock(this.since)})`);
      this.since = null;
    }
  }
}
