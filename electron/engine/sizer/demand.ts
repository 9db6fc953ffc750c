// A lane's demand, defined once: what of its queued work more workers could take now, what a
// worker already holds in its hand, and what cannot run yet. The sizing pass, the status, the
// mood, the nudge and the estimate all read this one shape, so "waiting" means one thing. Pure.
//
// Queued jobs fall into exactly one of three parts:
// - not yet: a retry waiting out its backoff, a job waiting for other jobs to succeed, or one
//   scheduled for later; it neither grows workers nor feeds the nudge. A retry counts toward an
//   estimate (it is due soon); a job waiting for others or for its time counts only once it can run;
// - in hand: ready and taken by a worker, which starts it next; no other worker could run it;
// - ready: ready and untaken; the only part more workers would help with.

export interface LaneDemand {
  /** Queued, runnable now, and in no worker's hand. */
  ready: number;
  /** Queued and runnable, but already in a worker's hand: it runs next there. */
  inHand: number;
  /** Queued but not runnable yet. */
  notYet: number;
  /** Of `notYet`, waiting for other jobs to succeed. */
  afterJobs: number;
  /** Of `notYet`, scheduled for later. */
  scheduled: number;
  /** When the first of the scheduled ones is due; null when none is. */
  scheduledNext: number | null;
  /** The soonest moment a job that is not runnable yet becomes so by time alone; null when none does. */
  nextReadyAt: number | null;
  /** Running now. */
  running: number;
}

export interface DemandInputs {
  /** Every queued job of the lane, runnable or not. */
  queued: number;
  running: number;
  /** Queued jobs not runnable yet, and the soonest one's moment; of those, how many wait for other jobs or their time. */
  notYet?: { n: number; next: number | null; afterJobs?: number; scheduled?: number; scheduledNext?: number | null };
  /** Jobs the lane's workers hold in hand. */
  inHand: number;
}

export const NO_DEMAND: LaneDemand = { ready: 0, inHand: 0, notYet: 0, afterJobs: 0, scheduled: 0, scheduledNext: null, nextReadyAt: null, running: 0 };

/**
 * Splits a lane's queued jobs. Counts read a moment apart can disagree (a shared lane's queue as
 * last read may trail its workers' hands): each part is clamped so none is ever negative.
 */
export function demandOf(i: DemandInputs): LaneDemand {
  const notYet = Math.min(Math.max(0, i.notYet?.n ?? 0), Math.max(0, i.queued));
  const runnable = Math.max(0, i.queued - notYet);
  const inHand = Math.min(Math.max(0, i.inHand), runnable);
  const afterJobs = Math.min(notYet, Math.max(0, i.notYet?.afterJobs ?? 0));
  const scheduled = Math.min(notYet - afterJobs, Math.max(0, i.notYet?.scheduled ?? 0));
  const scheduledNext = scheduled > 0 ? (i.notYet?.scheduledNext ?? null) : null;
  return { ready: runnable - inHand, inHand, notYet, afterJobs, scheduled, scheduledNext, nextReadyAt: notYet > 0 ? (i.notYet?.next ?? null) : null, running: Math.max(0, i.running) };
}

/** What a person reads as "waiting": runnable jobs not started yet, those in a worker's hand too. */
export const waitingOf = (d: LaneDemand): number => d.ready + d.inHand;

/** Retries waiting out their backoff: what of `notYet` is neither waiting for other jobs nor scheduled. */
export const retryingOf = (d: LaneDemand): number => d.notYet - d.afterJobs - d.scheduled;

/** The queued jobs an estimate counts: what waits, and retries soon due; not what waits for other jobs or its time. */
export const toRunOf = (d: LaneDemand): number => waitingOf(d) + retryingOf(d);

/** Everything still to do that an estimate counts: what it will run, and what runs now. */
export const leftOf = (d: LaneDemand): number => toRunOf(d) + d.running;
