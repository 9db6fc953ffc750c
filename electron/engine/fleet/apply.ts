// Carrying out a sizing pass's actions, and nothing else: workers started, stopped, drained,
// moved or (memory critically low) killed with their job given back, and each change recorded in
// the scale ledger. What the pass remembers of it is the pass's own (sizer/pass.ts).
import type { Action } from '../sizer/policy.js';
import type { Pool } from '../workers/pool.js';
import type { ScaleLedger } from './ledger.js';

/** The ledger row written when a drained worker actually goes, from the reason it was drained for. */
const leftAfter = (detail: string) => `${detail.replace(/: [^:]*finishing[^:]*$/, '')}: finished its job and left`;

export function carryOut(actions: readonly Action[], pool: Pool, ledger: ScaleLedger, log: (line: string) => void): void {
  for (const a of actions) {
    if (a.kind === 'critical') {
      // The ledger row is the lost worker's, written as it goes (reason `machine`).
      log(a.text);
      pool.kill(a.worker, { reason: 'machine', detail: a.text, refund: true });
      continue;
    }
    if (a.kind === 'start') for (let i = 0; i < a.count; i++) pool.start(a.lane, a.cards?.[i]);
    else if (a.kind === 'stop') pool.stop(a.workers);
    else if (a.kind === 'drain') pool.drain(a.workers, { reason: a.reason, detail: leftAfter(a.detail) });
    else if (a.kind === 'keep') pool.keep(a.workers);
    else for (const id of a.workers) pool.move(id, a.target.lane);
    ledger.record(a.lane, a.from, a.to, a.reason, a.detail);
    if (a.kind === 'move') ledger.record(a.target.lane, a.target.from, a.target.to, 'turn', `a worker of "${a.lane}" comes over (no new process)`);
  }
}
