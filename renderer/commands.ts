// What a person asks of the engine beyond one job or one cap: pause and resume everything, quiet a
// nudge, cancel or retry many jobs at once, add a job or a lane, remove a lane. Each says what
// happened in one line (stores/notice.ts), in the engine's words when it refuses; what changed on
// screen comes, as always, from the events the engine sends.
import { splitWords } from '../shared/format';
import type { JobState } from '../shared/model';
import type { RequestInput } from '../shared/requests';
import { client, messageOf } from './live';
import { plural } from './format';
import { useJobs } from './stores/jobs';
import { say } from './stores/notice';
import { LanesError } from '../shared/errors';
import { checkAddJob, checkEdit, fieldOfRequest, type AddJobValues, type FormField } from './add-job-form';

/** A refusal, said; the caller learns whether the request went through. */
async function attempt<T>(what: string, request: () => Promise<T>): Promise<T | null> {
  try {
    return await request();
  } catch (error) {
    say(`${what}: ${messageOf(error)}`, 'bad');
    return null;
  }
}

// ── pause ────────────────────────────────────────────────────────────────────────────────────
/** How long a pause holds: for a while, until a moment, or (neither) until resumed. */
export type PauseChoice = { forSeconds?: number; until?: number };

/** Holds all work, or one lane's: for a while, until a moment, or until resumed. The caps are left as they are. */
export async function pauseAll(choice: PauseChoice = {}, lane?: string): Promise<void> {
  await attempt('Not paused', () => client().call('pause', { ...choice, ...(lane ? { lane } : {}) }));
}

/** Resumes all work, or the one lane paused by itself. */
export async function resumeAll(lane?: string): Promise<void> {
  await attempt('Not resumed', () => client().call('resume', lane ? { lane } : {}));
}

// ── the nudge ────────────────────────────────────────────────────────────────────────────────
/** Quiets a lane's nudge for a while, or (no time) until its backlog has grown materially. */
export async function snoozeNudge(lane: string, forSeconds?: number): Promise<void> {
  await attempt('The nudge stays', () => client().call('snoozeNudge', forSeconds ? { lane, forSeconds } : { lane }));
}

// ── many jobs at once ────────────────────────────────────────────────────────────────────────
/** Which jobs: by id, or by lane and state (the engine picks the states a bulk action applies to). */
export type JobChoice = { ids: number[] } | { lane?: string; state?: JobState };

export async function cancelMany(choice: JobChoice): Promise<void> {
  const answer = await attempt('Not cancelled', () => client().call('cancelJobs', choice as RequestInput<'cancelJobs'>));
  if (!answer) return;
  clearChecked();
  const stopping = answer.stopping > 0 ? `; ${plural(answer.stopping, 'running job')} stopping` : '';
  say(`Cancelled ${plural(answer.cancelled, 'job')}${stopping}.`);
}

export async function retryMany(choice: JobChoice): Promise<void> {
  const answer = await attempt('Not retried', () => client().call('retryJobs', choice as RequestInput<'retryJobs'>));
  if (!answer) return;
  clearChecked();
  const refused = answer.refused ? ` ${plural(answer.refused, 'job')} left as before: each runs after a job that can no longer succeed.` : '';
  say(`Queued ${plural(answer.retried, 'job')} to run again.${refused}`);
}

/**
 * "Clear succeeded…" (or failed, or cancelled): those finished jobs of a lane (or of every lane)
 * removed now with their logs; `olderThanSeconds` keeps to those finished by the moment counted.
 */
export async function clearFinished(choice: { lane?: string; state: 'succeeded' | 'failed' | 'cancelled'; olderThanSeconds: number }): Promise<void> {
  const answer = await attempt('Not cleared', () => client().call('clean', choice));
  if (!answer) return;
  clearChecked();
  say(`Cleared ${plural(answer.removed, `${choice.state} job`)}.`);
}

export function toggleChecked(id: number): void {
  useJobs.setState((s) => {
    const checked = { ...s.checked };
    if (checked[id]) delete checked[id];
    else checked[id] = true;
    return { checked };
  });
}

export function clearChecked(): void {
  useJobs.setState({ checked: {} });
}

// ── adding and removing ──────────────────────────────────────────────────────────────────────
/**
 * A job from the window (add-job-form.ts): a command line for the person's shell, as `lanes add`
 * takes a quoted line, or a JSON payload for a lane with a worker command, with its folder,
 * environment, attempts, timeout, order, time and labels. Null when it was queued; otherwise the
 * refusal, with the form field it is about.
 */
export async function addJob(values: AddJobValues): Promise<Refusal | null> {
  const checked = checkAddJob(values);
  if ('field' in checked) return checked.problems;
  try {
    const { id } = await client().call('addJob', checked.input);
    say(`Job ${id} queued in ${values.lane}.`);
    return null;
  } catch (error) {
    return refusalOf(error);
  }
}

/** What is wrong with a form: the form's own checks all at once, or the engine's refusal (one), each at the field it names. */
export type Refusal = { field: FormField | null; message: string }[];

function refusalOf(error: unknown): Refusal {
  const field = error instanceof LanesError ? fieldOfRequest(error.field) : null;
  // The engine names the request's field; the form calls it Folder, and so does its refusal.
  const message = field === 'cwd' ? messageOf(error).replace(/^cwd\b/, 'the folder') : messageOf(error);
  return [{ field, message }];
}

/** A queued job changed from its detail (the same form); null when it was, else the refusal at its field. */
export async function editJob(id: number, values: AddJobValues, was: AddJobValues): Promise<Refusal | null> {
  const checked = checkEdit(id, values, was);
  if ('field' in checked) return checked.problems;
  try {
    await client().call('editJob', checked.input);
    say(`Job ${id} changed.`);
    return null;
  } catch (error) {
    return refusalOf(error);
  }
}

/** A finished job run again as a new job with the same command (`lanes restart`). */
export async function restartJob(id: number): Promise<void> {
  const answer = await attempt('Not run again', () => client().call('restartJobs', { ids: [id] }));
  if (answer) say(`Job ${id} runs again as job ${answer.ids[0]}.`);
}

export interface LaneForm {
  name: string;
  class: 'cpu' | 'ml';
  cap: number | null;
  /** The worker command as a person types it; split into words as a shell would. */
  workerCommand: string;
}

/** Adds a lane; the engine's refusal in its words, or null when it was added. */
export async function addLane(form: LaneForm): Promise<string | null> {
  try {
    const workerCommand = form.workerCommand.trim() === '' ? undefined : splitWords(form.workerCommand);
    await client().call('addLane', { name: form.name, class: form.class, ...(form.cap !== null ? { cap: form.cap } : {}), ...(workerCommand ? { workerCommand } : {}) });
    say(`Lane ${form.name} added.`);
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

/** Removes a lane; with `cancel`, what it still holds is cancelled first. Null when it went. */
export async function removeLane(name: string, cancel: boolean): Promise<string | null> {
  try {
    await client().call('removeLane', { name, cancel });
    say(`Lane ${name} removed.`);
    return null;
  } catch (error) {
    return messageOf(error);
  }
}
