// The Add job form as data: what a person typed in each field, turned into an addJob request, or
// every field that is wrong and why. Only what the engine cannot see is checked here (a number typed
// as text, a span, an env line without "="); the engine checks the rest with the one schema every
// door uses, and its refusal names the field, which the form shows at that field. Pure.
import { parseSpan, SPAN_LIMITS } from '../shared/span.js';
import { parseIsoTime } from '../shared/moment.js';
import { LABELS_MAX, MAX_ATTEMPTS_LIMIT, PRIORITY_MAX, PRIORITY_MIN } from '../shared/limits.js';
import type { Job } from '../shared/model.js';
import type { RequestInput } from '../shared/requests.js';

export type When = 'now' | 'delay' | 'at';

export interface AddJobValues {
  lane: string;
  /** A command line for the shell, or a JSON payload for a lane with a worker command. */
  text: string;
  asPayload: boolean;
  /** An absolute folder; '' for the home folder. */
  cwd: string;
  /** KEY=VALUE, one a line. */
  env: string;
  attempts: string;
  timeout: string;
  /** Ids of the jobs it runs after. */
  after: number[];
  when: When;
  /** A span ("15m") when `when` is delay; a local date and time ("2026-12-02T02:00") when it is at. */
  whenText: string;
  priority: string;
  /** Separated by commas or spaces. */
  labels: string;
}

/** The form's fields, each one a request field maps onto. */
export type FormField = 'lane' | 'text' | 'cwd' | 'env' | 'attempts' | 'timeout' | 'after' | 'when' | 'priority' | 'labels';

export const EMPTY_VALUES: Omit<AddJobValues, 'lane' | 'asPayload'> = { text: '', cwd: '', env: '', attempts: '', timeout: '', after: [], when: 'now', whenText: '', priority: '', labels: '' };

/** The form field an engine refusal names (`labels.2`, `notBefore`, `argv` …), so it shows there. */
export function fieldOfRequest(field: string | undefined): FormField | null {
  const head = (field ?? '').split('.')[0];
  const map: Record<string, FormField> = {
    lane: 'lane', argv: 'text', shell: 'text', payload: 'text', cwd: 'cwd', env: 'env', maxAttempts: 'attempts', timeoutSeconds: 'timeout',
    after: 'after', delaySeconds: 'when', notBefore: 'when', priority: 'priority', labels: 'labels',
  };
  return head !== undefined && head in map ? map[head]! : null;
}

const whole = (text: string) => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

/** What is wrong with one field, in words that name it. */
export interface Problem {
  field: FormField;
  message: string;
}

/** The request, or every field that cannot be sent as it is (the first also as `field` and `message`). */
export type Checked = { input: RequestInput<'addJob'> } | (Problem & { problems: Problem[] });

/**
 * The request the values ask for, or every field that cannot be sent as it is: all at once, so a
 * person mends the form in one go rather than meeting one refusal per try.
 */
export function checkAddJob(v: AddJobValues, now = Date.now()): Checked {
  const input: RequestInput<'addJob'> = { lane: v.lane };
  const problems: Problem[] = [];
  const wrong = (field: FormField, message: string) => void problems.push({ field, message });
  if (v.text.trim() === '') wrong('text', v.asPayload ? 'give a JSON payload' : 'give a command line');
  else if (v.asPayload) {
    try {
      input.payload = JSON.parse(v.text) as unknown;
    } catch {
      wrong('text', 'the payload is not JSON (a string needs its quotes: "photo.jpg")');
    }
  } else input.shell = v.text;
  if (!v.asPayload) {
    if (v.cwd.trim() !== '') input.cwd = v.cwd.trim();
    const env: Record<string, string> = {};
    for (const line of v.env.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const eq = line.indexOf('=');
      if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
      else if (!problems.some((p) => p.field === 'env')) wrong('env', `each line is NAME=value; "${line}" is not`);
    }
    if (Object.keys(env).length > 0) input.env = env;
  }
  if (v.attempts.trim() !== '') {
    const n = whole(v.attempts);
    if (n >= 1 && n <= MAX_ATTEMPTS_LIMIT) input.maxAttempts = n;
    else wrong('attempts', `attempts is a whole number from 1 to ${MAX_ATTEMPTS_LIMIT}`);
  }
  if (v.timeout.trim() !== '') {
    const s = parseSpan(v.timeout, SPAN_LIMITS.week);
    if ('problem' in s) wrong('timeout', /at most/.test(s.problem) ? `a timeout is at most ${SPAN_LIMITS.week.words}` : 'a timeout is a span like 90s, 15m or 2h');
    else input.timeoutSeconds = s.ms / 1000;
  }
  if (v.after.length > 0) input.after = v.after;
  if (v.when === 'delay') {
    const s = parseSpan(v.whenText, SPAN_LIMITS.schedule);
    if ('problem' in s) wrong('when', /at most/.test(s.problem) ? `a delay is at most ${SPAN_LIMITS.schedule.words}` : 'a delay is a span like 90s, 15m, 1h30m or 2d');
    else input.delaySeconds = s.ms / 1000;
  } else if (v.when === 'at') {
    const at = parseIsoTime(v.whenText);
    if ('problem' in at) wrong('when', v.whenText.trim() === '' ? 'pick a date and a time' : at.problem);
    else if (at.ms <= now) wrong('when', 'that time is already past');
    else if (at.ms > now + SPAN_LIMITS.schedule.ms) wrong('when', `that is more than ${SPAN_LIMITS.schedule.words} ahead`);
    else input.notBefore = at.ms;
  }
  if (v.priority.trim() !== '') {
    const n = whole(v.priority);
    if (n >= PRIORITY_MIN && n <= PRIORITY_MAX) input.priority = n;
    else wrong('priority', `priority is a whole number from ${PRIORITY_MIN} to ${PRIORITY_MAX}`);
  }
  const labels = v.labels.split(/[\s,]+/).filter(Boolean);
  if (labels.length > LABELS_MAX) wrong('labels', `at most ${LABELS_MAX} labels per job`);
  else if (labels.length > 0) input.labels = labels;
  return problems.length > 0 ? { ...problems[0]!, problems } : { input };
}

/** A queued job's fields as the form shows them, to edit. */
export function valuesOfJob(job: Job): AddJobValues {
  const spec = job.spec;
  const text = spec.kind === 'payload' ? JSON.stringify(spec.payload) : spec.kind === 'shell' ? spec.script : spec.argv.map((w) => (/^[\w./:=@%+,-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
  const env = spec.kind === 'payload' ? '' : Object.entries(spec.env ?? {}).map(([k, val]) => `${k}=${val}`).join('\n');
  const at = job.notBefore === undefined ? '' : localInputTime(job.notBefore);
  return {
    lane: job.lane,
    asPayload: spec.kind === 'payload',
    text,
    cwd: spec.kind === 'payload' ? '' : (spec.cwd ?? ''),
    env,
    attempts: String(job.maxAttempts),
    timeout: job.timeoutMs === null ? '' : `${job.timeoutMs / 1000}s`,
    after: (job.after ?? []).filter((l) => l.state !== 'succeeded').map((l) => l.id),
    when: at === '' ? 'now' : 'at',
    whenText: at,
    priority: job.priority === undefined ? '' : String(job.priority),
    labels: (job.labels ?? []).join(', '),
  };
}

/** A moment as a datetime-local field holds it: local time to the minute. */
function localInputTime(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The edit the form asks for: every field as the form now shows it (an emptied one clears what the
 * job had), the command, folder and environment only when they changed, so an untouched argv stays argv.
 */
export function checkEdit(id: number, v: AddJobValues, was: AddJobValues, now = Date.now()): { input: RequestInput<'editJob'> } | (Problem & { problems: Problem[] }) {
  const atWas = v.when === 'at' && was.when === 'at' && v.whenText === was.whenText;
  const checked = checkAddJob(atWas ? { ...v, when: 'now' } : v, now);
  if ('field' in checked) return checked;
  const a = checked.input;
  const input: RequestInput<'editJob'> = { id, after: a.after ?? [], priority: a.priority ?? 0, labels: a.labels ?? [] };
  if (v.text !== was.text) Object.assign(input, a.payload !== undefined ? { payload: a.payload } : { shell: a.shell });
  if (!v.asPayload && v.cwd !== was.cwd && a.cwd !== undefined) input.cwd = a.cwd;
  if (!v.asPayload && v.env !== was.env) input.env = a.env ?? {};
  if (a.maxAttempts !== undefined) input.maxAttempts = a.maxAttempts;
  if (a.timeoutSeconds !== undefined) input.timeoutSeconds = a.timeoutSeconds;
  if (v.when === 'now') input.notBefore = null;
  else if (!atWas) Object.assign(input, a.delaySeconds !== undefined ? { delaySeconds: a.delaySeconds } : { notBefore: a.notBefore });
  return { input };
}
