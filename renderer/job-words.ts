// What a job says about itself in the list and the detail: how long it took (or has been running),
// how it ended, which log to open first, and whether a cancel is on its way. Pure, so the rules
// have a table test of their own (test/renderer/words.test.ts).
import type { Job, JobState, JobSummary, LogChunk } from '../shared/model.js';
import { blockedBy } from '../shared/dependencies.js';
import { formatClock, formatDuration, plural } from './format.js';

/** Running time, read once a second: whole seconds, so the figure does not flicker in tenths. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1_000));
  return s < 60 ? `${s} s` : formatDuration(s * 1_000);
}

/** The list's "Took": how long it ran, or how long it has been running so far. */
export function tookText(job: JobSummary, now: number): string {
  if (job.startedAt === null) return '';
  if (job.finishedAt !== null) return formatDuration(job.finishedAt - job.startedAt);
  return job.state === 'running' ? formatElapsed(now - job.startedAt) : '';
}

/**
 * Both streams together, in the order they came, with a line between attempts, is the one story
 * of a job. The error is what a person opens a failed job for, and a failing command writes it on
 * stderr, so a failed job opens there.
 */
export function preferredStream(state: JobState | undefined): LogChunk['stream'] {
  return state === 'failed' ? 'stderr' : 'all';
}

/**
 * How long it ran, and apart from that how long it waited for its worker to load (a persistent
 * lane's first job). The engine counts the job as started once the command had loaded, so the
 * run is start to finish and the load is told beside it, never inside it.
 */
export function ranText(job: Pick<Job, 'startedAt' | 'finishedAt' | 'loadMs'>, now: number): string {
  if (job.startedAt === null) return '';
  if (job.finishedAt === null) return `running for ${formatElapsed(now - job.startedAt)}`;
  const ran = `ran ${formatDuration(job.finishedAt - job.startedAt)}`;
  return job.loadMs !== null && job.loadMs > 0 ? `${ran}, after ${formatDuration(job.loadMs)} loading its worker` : ran;
}

/** The engine's line between attempts in a combined log ("── attempt 2 · 14:03:11 ──"). */
export const ATTEMPT_LINE = /^── attempt \d+ · .+ ──$/;
/** A headline line is read at a glance: longer than this, it is cut. */
const HEADLINE_CHARS = 200;

/**
 * The line a failed job's log ends on — where a failing command writes why ("convert: cannot
 * open IMG_1040.jpg") — for its headline beside "exited with code 1". Null when there is none.
 */
export function lastLogLine(text: string): string | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    // Colour codes are for a terminal; the headline is plain text (ESC is what they start with).
    // eslint-disable-next-line no-control-regex
    const line = lines[i]!.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').trim();
    if (line === '' || ATTEMPT_LINE.test(line)) continue;
    return line.length > HEADLINE_CHARS ? `${line.slice(0, HEADLINE_CHARS - 1)}…` : line;
  }
  return null;
}

/** A cancel sent and not yet seen through: shown only while the job still looks unfinished. */
export function isCancelling(job: Pick<JobSummary, 'id' | 'state'>, cancelling: Readonly<Record<number, true>>): boolean {
  return cancelling[job.id] === true && (job.state === 'queued' || job.state === 'running');
}

/** Cancels that the jobs' new states have answered (they finished one way or another) are forgotten. */
export function settleCancels(cancelling: Record<number, true>, jobs: readonly Pick<JobSummary, 'id' | 'state'>[]): Record<number, true> {
  let out = cancelling;
  for (const job of jobs) {
    if (out[job.id] && job.state !== 'queued' && job.state !== 'running') {
      if (out === cancelling) out = { ...cancelling };
      delete out[job.id];
    }
  }
  return out;
}

export interface Outcome {
  tone: 'bad' | 'warn' | 'quiet';
  title: string;
  /** The engine's words for why (signal, timeout, exit status …), when it gave any. */
  why: string | null;
}

/**
 * What a job's badge says, where the state's own word would mislead: a job waiting for others is
 * "After 2 jobs" (the lane's Waiting counts only jobs that could run now), a job waiting for its
 * time "Scheduled", and a dependent that never ran because a job it runs after ended badly
 * "Blocked", never "Failed". Null: the state's word. `tone` picks the badge's colour.
 */
export function badgeOf(job: Pick<JobSummary, 'state' | 'waitingFor' | 'notBefore' | 'error' | 'blockedBy'>): { word: string; tone: string; hint: string | null } | null {
  if (job.state === 'queued' && job.waitingFor !== undefined) {
    return { word: `After ${plural(job.waitingFor, 'job')}`, tone: 'after', hint: `Runs once ${job.waitingFor === 1 ? 'the job' : `the ${plural(job.waitingFor, 'job')}`} it runs after ${job.waitingFor === 1 ? 'has' : 'have'} succeeded` };
  }
  if (job.state === 'queued' && job.notBefore !== undefined) return { word: 'Scheduled', tone: 'queued', hint: `Not before ${formatClock(job.notBefore)}` };
  const blocked = blockedBy(job);
  if (blocked) return { word: 'Blocked', tone: 'blocked', hint: `Did not run: ${blocked.words}` };
  return null;
}

/** A dependent that never ran: it has no log and no exit code to show. */
export function neverRan(job: Pick<JobSummary, 'state' | 'error' | 'startedAt' | 'blockedBy'>): boolean {
  return job.startedAt === null && blockedBy(job) !== null;
}

/** How a job ended — or why it is waiting to run again — in a line a person reads first. */
export function outcomeOf(job: JobSummary): Outcome | null {
  const why = job.error ?? (job.exitCode !== null && job.exitCode !== 0 ? `exited with code ${job.exitCode}` : null);
  const blocked = blockedBy(job);
  if (blocked) return { tone: 'quiet', title: `Did not run: ${blocked.words}`, why: null };
  if (job.state === 'failed') {
    return { tone: 'bad', title: job.attempts > 1 ? `Failed after ${plural(job.attempts, 'attempt')}` : 'Failed', why };
  }
  if (job.state === 'cancelled') return { tone: 'quiet', title: 'Cancelled', why: job.error };
  if (job.state === 'queued' && job.waitingFor !== undefined) return { tone: 'quiet', title: `Waiting for ${plural(job.waitingFor, 'job')} to succeed first`, why: null };
  if (job.state === 'queued' && job.notBefore !== undefined) return { tone: 'quiet', title: `Scheduled for ${formatClock(job.notBefore)}`, why: null };
  if (job.state === 'queued' && job.attempts > 0 && why !== null) {
    const when = job.runAfter !== null ? `runs again at ${formatClock(job.runAfter)}` : 'runs again when there is room';
    return { tone: 'warn', title: `Attempt ${job.attempts} of ${job.maxAttempts} failed; it ${when}`, why };
  }
  return null;
}
