// The nudge: a lane telling its person that raising the cap would help right now, and what a
// higher cap buys. Pure: facts in, the nudge (or none) out.
import type { Nudge } from '../../../shared/model.js';
import { aboutDuration, groupedCount, plural } from '../../../shared/format.js';
import { capIsTheLimit, machineAllows, type WorkerRoom } from './wants.js';
import { timeByRuns, type RunTimes } from './run-time.js';

export interface NudgeFacts extends WorkerRoom {
  /** When the lane's oldest waiting job was queued; null when nothing waits. */
  waitingSince: number | null;
  now: number;
  tickMs: number;
  /** Worker processes alive across all lanes. */
  machineInUse: number;
  /** Jobs the lane finishes per minute now (live); 0 when none finished lately. */
  perMinute: number;
  /** A person quieted it (lowered the cap, snoozed, dismissed): until then, unless the backlog grows past `backlog`. */
  quiet: { until: number; backlog: number } | null;
  /** What bounds the lane when not the ceiling: the GPU's memory is said as such. */
  limitBy?: string;
  /**
   * Where running jobs say how far they have got (status/eta.ts): each running job's time left
   * and what a job takes. Then what a cap buys is worked out from them, not from the pace.
   */
  runs?: RunTimes | null;
  /** Workers other lanes hold now, by lane: the ceiling's share of them is not this lane's to get. */
  othersHold?: readonly { lane: string; workers: number }[];
}

/**
 * The most workers the lane would get now if its cap allowed: what the machine allows it, less
 * what other lanes' workers hold of the ceiling.
 */
export function getsNow(f: Pick<NudgeFacts, 'ceiling' | 'limit' | 'othersHold'>): number {
  const held = (f.othersHold ?? []).reduce((n, o) => n + o.workers, 0);
  return Math.max(0, Math.min(machineAllows(f), f.ceiling - held));
}

/** "worker holds 1", "worker holds 2, thumbs holds 1": the lanes whose workers keep the rest. */
function holders(f: Pick<NudgeFacts, 'othersHold'>): string {
  const by = [...(f.othersHold ?? [])].filter((o) => o.workers > 0).sort((a, b) => b.workers - a.workers || a.lane.localeCompare(b.lane));
  return by.map((o) => `${o.lane} holds ${groupedCount(o.workers)}`).join(', ');
}

/** The backlog that counts as grown materially past the one a person saw when they quieted the nudge. */
export const grownPast = (backlog: number): number => Math.max(2 * backlog, backlog + 100);

/** Quiet: a person said so, and the backlog has not grown materially since. */
export const isQuiet = (f: Pick<NudgeFacts, 'quiet' | 'now' | 'waiting'>): boolean =>
  f.quiet !== null && f.now < f.quiet.until && f.waiting < grownPast(f.quiet.backlog);

/**
 * Fires only when a higher cap would run more work now, work has waited at least a tick (short
 * jobs don't make it flicker), and no one has quieted it.
 */
export function nudgeFor(f: NudgeFacts): Nudge | null {
  if (!capIsTheLimit(f) || f.waitingSince === null || f.now - f.waitingSince < f.tickMs || isQuiet(f)) return null;
  const waiting = groupedCount(f.waiting);
  const suggestedCap = suggestCap(f);
  const estimate = estimateAt(f, suggestedCap);
  const buys = estimate ? ` — ${aboutDuration(estimate.atCapMs)} at ${plural(f.cap, 'worker')}, ${aboutDuration(estimate.atSuggestedMs)} at ${suggestedCap}` : '';
  const most = machineAllows(f);
  // Where memory bounds the lane, the number the person reads is what fits, and it says so.
  const fits = plural(most, 'of these workers', 'of these workers');
  const bound = most >= f.ceiling ? `this machine allows up to ${most}` : f.limitBy === 'gpu' ? `the GPU has memory for ${fits}` : `this machine has memory for ${fits}`;
  // Other lanes' workers hold part of the ceiling: the number promised is what the lane gets now.
  const now = getsNow(f);
  const allows = now < most ? `${bound}; ${now} now — ${holders(f)}` : bound;
  const text =
    f.cap === 0
      ? `${waiting} waiting and this lane may use no workers (cap 0). Raise the cap to run them — ${allows}.`
      : `${waiting} waiting and all ${plural(f.busy, 'worker')} busy${buys}. Raise the cap to run more at once — ${allows}.`;
  return { text, waiting: f.waiting, busy: f.busy, ceiling: most, suggestedCap, estimate };
}

/** Jobs per minute one of the lane's workers does, from the live pace; null until there is one. */
const perWorker = (f: NudgeFacts): number | null => (f.perMinute > 0 && f.busy > 0 ? f.perMinute / f.busy : null);

/**
 * The cap to suggest: the headroom — what the machine allows the lane — or, for a backlog smaller
 * than that, one worker per job (busy and waiting). Never from the pace: a suggestion that moved
 * as the pace became known would say 7, then 2, then one step at a time, and a person would
 * raise the cap three times for one backlog. The pace only says what the suggestion buys.
 */
export function suggestCap(f: NudgeFacts): number {
  const most = getsNow(f);
  return Math.max(Math.min(f.cap + 1, most), Math.min(most, f.busy + f.waiting));
}

/**
 * About how long the backlog takes at the current cap and at `cap`: from the running jobs' own
 * progress where they give it (what runs ends when it says, what waits takes a job's time each,
 * spread over the workers), else from the pace; null with neither.
 */
export function estimateAt(f: NudgeFacts, cap: number): Nudge['estimate'] {
  if (f.cap === 0) return null;
  const runs = f.runs;
  if (runs && runs.leftMs.length > 0) {
    const byRuns = (workers: number) => Math.round(timeByRuns(runs, f.waiting, workers));
    return { atCapMs: byRuns(Math.max(1, f.cap)), atSuggestedMs: byRuns(cap) };
  }
  const each = perWorker(f);
  if (each === null) return null;
  const left = f.busy + f.waiting;
  const msAt = (workers: number) => Math.round((left / (each * workers)) * 60_000);
  return { atCapMs: msAt(Math.max(1, f.cap)), atSuggestedMs: msAt(cap) };
}

/** When a lane held by its cap will have waited long enough to nudge; null if nothing is pending. */
export function nudgeDueAt(f: NudgeFacts): number | null {
  if (!capIsTheLimit(f) || f.waitingSince === null) return null;
  // Quieted: look again when the quiet ends (a grown backlog shows up with the next status anyway).
  const due = isQuiet(f) ? f.quiet!.until : f.waitingSince + f.tickMs;
  return due > f.now ? due : null;
}
