// Why a lane's workers changed, in words: one list for the window's ledger and `lanes events`
// (which writes them in lower case, as its tables are), so the two never name a reason apart.
import type { ScaleEvent, ScaleReason } from './model.js';

export const REASON_WORDS: Record<ScaleReason, string> = {
  demand: 'Work waiting',
  idle: 'Nothing to do',
  cap: 'Cap changed',
  budget: 'Machine budget',
  turn: 'Took turns',
  pause: 'All work paused',
  machine: 'Machine limit',
  crash: 'Worker crashed',
  unresponsive: 'Worker stopped answering',
  shutdown: 'Engine stopping',
  start: 'Engine started',
  outage: 'Queue unreachable',
};

/** The lane a ledger row names; `*` is the engine as a whole (its starts and stops). */
export const ledgerLane = (e: Pick<ScaleEvent, 'lane'>): string => (e.lane === '*' ? 'engine' : e.lane);

/**
 * A ledger row's reason in words: a cap change says which way it went (the engine's detail says
 * "cap raised to 7", "cap lowered to 1"), so a raise never reads as "work waiting".
 */
export function reasonWords(e: Pick<ScaleEvent, 'reason' | 'detail' | 'lane'>): string {
  if (e.reason === 'cap') return /^cap raised/.test(e.detail) ? 'Cap raised' : /^cap lowered/.test(e.detail) ? 'Cap lowered' : REASON_WORDS.cap;
  if (e.reason === 'shutdown' && e.lane === '*') return 'Engine stopped';
  return REASON_WORDS[e.reason] ?? e.reason;
}
