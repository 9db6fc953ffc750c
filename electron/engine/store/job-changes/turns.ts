// One worker's message of a turn, recorded with every other worker's of the same turn in one
// transaction: the outcome it reports, the job of its hand it went on to or dropped, and what it
// asks for next — the first job claimed (marked running) and up to `hand` more read for it to
// hold (still queued). `held` (lane → ids in workers' hands) is kept up to date as jobs are handed
// out, so two workers of a lane never get the same job.
import { parseSpecJson } from '../../../../shared/schemas.js';
import { toSummary } from '../job-rows.js';
import type { ClaimedJob, Turn, TurnResult } from '../job-types.js';
import { claimed, clipError, type Change } from './change.js';
import { finish } from './finish.js';

/** At most this many unrunnable jobs are failed in one ask; the worker asks again for the rest. */
const REJECT_PER_ASK = 16;

/** Why a claimed row cannot run (its stored spec fails the one parse every spec gets), or null. */
function unrunnable(job: ClaimedJob): string | null {
  const parsed = parseSpecJson(job.specJson);
  return 'problem' in parsed ? `cannot run: its stored command is not one Lanes accepts (${parsed.problem})` : null;
}

export function turn(c: Change, t: Turn, inHand: Map<string, Set<number>>, now: number): TurnResult {
  const result: TurnResult = { finished: null, started: null, dropped: null, claimed: null, handed: [], rejected: [] };
  if (t.done) result.finished = finish(c, t.done, now);
  if (t.started) {
    const row = c.s.startInHand.get({ now, worker: t.started.worker, id: t.started.id });
    result.started = row ? claimed(row) : null;
    if (result.started) c.moves.push({ lane: result.started.lane, from: 'queued', to: 'running' });
  }
  if (t.dropped !== null) {
    const row = c.s.cancelQueued.get(now, t.dropped);
    result.dropped = c.ends(row ? toSummary(row) : null);
    if (result.dropped) c.moves.push({ lane: result.dropped.lane, from: 'queued', to: 'cancelled' });
  }
  if (t.pull) pull(c, t.pull, inHand, now, result);
  return result;
}

function pull(c: Change, p: NonNullable<Turn['pull']>, inHand: Map<string, Set<number>>, now: number, result: TurnResult): void {
  const { lane, worker } = p;
  const mine = inHand.get(lane) ?? new Set<number>();
  inHand.set(lane, mine);
  const skip = () => JSON.stringify([...mine]);
  if (p.claimFirst) {
    for (let tries = 0; tries <= REJECT_PER_ASK; tries++) {
      const row = c.s.claim.get({ now, worker, lane, skip: skip() });
      if (row) c.moves.push({ lane, from: 'queued', to: 'running' });
      result.claimed = row ? claimed(row) : null;
      const problem = result.claimed && tries < REJECT_PER_ASK ? unrunnable(result.claimed) : null;
      if (problem === null) break;
      const j = result.claimed!;
      const failed = c.s.reject.get({ now, error: clipError(problem), id: j.id, worker, attempt: j.attempts });
      if (failed) {
        c.moves.push({ lane, from: 'running', to: 'failed' });
        result.rejected.push(c.ends(toSummary(failed)));
      }
      result.claimed = null;
    }
  }
  if (p.hand > 0 && (result.claimed || !p.claimFirst)) {
    // Read, not marked: still queued until the worker says it went on to one.
    // One whose spec fails the parse stays queued: it is failed when it comes up to be claimed.
    result.handed = c.s.hand.all({ now, lane, skip: skip() }).slice(0, p.hand).map(claimed).filter((j) => unrunnable(j) === null);
    for (const j of result.handed) {
      j.attempts += 1; // the attempt it will be
      mine.add(j.id);
    }
  }
}
