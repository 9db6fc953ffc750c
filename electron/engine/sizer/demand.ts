// A lane's demand, defined once: what of its queued work more workers could take now, what a
// worker already holds in its hand, and what cannot run yet. The sizing pass, the status, the
// mood, the nudge and the estimate all read this one shape, so "waiting" means one thing. Pure.
//
// Queued jobs fall into exactly one of three parts:
// - not yet: a retry waiting out its backoff (later: a job waiting for another, or for its time);
//   it neither grows workers nor feeds the nudge, and counts toward an estimate only once due;
// - in hand: ready and taken by a worker, which starts it next; no other worker could run it;
// - ready: ready and untaken; the only part more workers would help with.

export interface LaneDemand {
  /** Queued, runnable now, and in no worker's hand. */
  ready: number;
  /** Queued and runnable, but already in a worker's hand: it runs next there. */
  inHand: number;
  /** Queued but not runnable yet. */
  notYet: number;
  /** The soonest moment a job that is not runnable yet becomes so; null when none waits. */
  nextReadyAt: number | null;
  /** Running now. */
  running: number;
}

export interface DemandInputs {
  /** Every queued job of the lane, runnable or not. */
  queued: number;
  running: number;
  /** Queued jobs not runnable yet, and the soonest one's moment. */
  notYet?: { n: number; next: number };
  /** Jobs the lane's workers hold in hand. */
  inHand: number;
}

export const NO_DEMAND: LaneDemand = { ready: 0, inHand: 0, notYet: 0, nextReadyAt: null, running: 0 };

/**
 * Splits a lane's queued jobs. Counts read a moment apart can disagree (a shared lane's queue as
 * last read may trail its workers' hands): each part is clamped so none is ever negative.
 */
export function demandOf(i: DemandInputs): LaneDemand {
  const notYet = Math.min(Math.max(0, i.notYet?.n ?? 0), Math.max(0, i.queued));
  const runnable = Math.max(0, i.queued - notYet);
  const inHand = Math.min(Math.max(0, i.inHand), runnable);
  return { ready: runnable - inHand, inHand, notYet, nextReadyAt: notYet > 0 ? (i.notYet?.next ?? null) : null, running: Math.max(0, i.running) };
}

/** What a person reads as "waiting": runnable jobs not started yet, those in a worker's hand too. */
export const waitingOf = (d: LaneDemand): number => d.ready + d.inHand;
