// What a worker process says, checked before the engine acts on it. The runtime is ours, but it
// relays what a job's command printed, so its messages are a boundary like any other: a message
// of the wrong shape ends that worker (its job runs again), and an answer too deep or too large
// fails that job — never the engine.
import { ERROR_MAX_CHARS, JSON_DEPTH_MAX, RESULT_MAX_BYTES } from '../../../shared/limits.js';
import { jsonProblem } from '../../../shared/json-limits.js';
import { readProgress } from '../../../shared/progress.js';
import type { FromWorker } from '../../worker-protocol/protocol.js';
import { HAND_MAX } from '../store/job-statements.js';

const OUTCOMES = new Set(['succeeded', 'failed', 'cancelled']);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** What a worker said, as the engine may use it, or why it may not: what a worker process delivers. */
export type WorkerSaid = { ok: true; message: FromWorker } | { ok: false; why: string };

/** The message as the engine may use it, or why it may not. */
export function checkMessage(m: unknown): WorkerSaid {
  const bad = (why: string) => ({ ok: false as const, why });
  if (m === null || typeof m !== 'object') return bad('a message that is not an object');
  const t = (m as { t?: unknown }).t;
  if (t === 'pull') return { ok: true, message: { t: 'pull' } };
  if (t === 'pong') return isCount((m as { n?: unknown }).n) ? { ok: true, message: { t: 'pong', n: (m as { n: number }).n } } : bad('a pong without its number');
  if (t === 'spawned') {
    const { jobId, pgid } = m as { jobId?: unknown; pgid?: unknown };
    return isCount(jobId) && isCount(pgid) && pgid > 0 ? { ok: true, message: { t: 'spawned', jobId, pgid } } : bad('a spawned message without a job and a process group');
  }
  if (t === 'started') {
    const { jobId, attempt } = m as { jobId?: unknown; attempt?: unknown };
    return isCount(jobId) && isCount(attempt) ? { ok: true, message: { t: 'started', jobId, attempt } } : bad('a started message without a job and an attempt');
  }
  if (t === 'progress') {
    const { jobId, attempt, progress, ignored } = m as { jobId?: unknown; attempt?: unknown; progress?: unknown; ignored?: unknown };
    if (!isCount(jobId) || !isCount(attempt) || !isCount(ignored)) return bad('a progress message without a job, an attempt and a count');
    // Read again here: the runtime is ours, but what it relays is the job's.
    const reading = readProgress(progress);
    return reading.ok ? { ok: true, message: { t: 'progress', jobId, attempt, progress: reading.report, ignored } } : bad(`a progress message that is not progress (${reading.why})`);
  }
  if (t === 'dropped') {
    const { jobId } = m as { jobId?: unknown };
    return isCount(jobId) ? { ok: true, message: { t: 'dropped', jobId } } : bad('a dropped message without a job');
  }
  if (t !== 'done') return bad(`a message of unknown kind ${JSON.stringify(String(t)).slice(0, 40)}`);
  const { jobId, attempt, outcome, pull, next, returned } = m as { jobId?: unknown; attempt?: unknown; outcome?: unknown; pull?: unknown; next?: unknown; returned?: unknown };
  const n = next as { jobId?: unknown; attempt?: unknown } | undefined | null;
  if (n !== undefined && (n === null || typeof n !== 'object' || !isCount(n.jobId) || !isCount(n.attempt))) return bad('a done message whose next job is of the wrong shape');
  // A hand holds at most HAND_MAX; ids it was not handed are ignored where the hand is known.
  if (returned !== undefined && (!Array.isArray(returned) || returned.length > HAND_MAX || !returned.every(isCount))) return bad('a done message whose returned jobs are not a short list of ids');
  const o = outcome as { state?: unknown; exitCode?: unknown; error?: unknown; result?: unknown; loadMs?: unknown; ranMs?: unknown; final?: unknown } | null;
  if (!isCount(jobId) || !isCount(attempt) || typeof pull !== 'boolean' || o === null || typeof o !== 'object') return bad('a done message of the wrong shape');
  if (typeof o.state !== 'string' || !OUTCOMES.has(o.state)) return bad('an outcome with no known state');
  const exitCode = typeof o.exitCode === 'number' && Number.isInteger(o.exitCode) ? o.exitCode : null;
  const error = typeof o.error === 'string' ? o.error.slice(0, ERROR_MAX_CHARS) : null;
  const problem = o.result === undefined ? null : jsonProblem(o.result, { maxDepth: JSON_DEPTH_MAX, maxBytes: RESULT_MAX_BYTES });
  const state = o.state as 'succeeded' | 'failed' | 'cancelled';
  const checked = problem
    ? { state: 'failed' as const, exitCode, error: `the worker's answer ${problem}` }
    : { state, exitCode, error, ...(o.result === undefined ? {} : { result: o.result }) };
  const loadMs = typeof o.loadMs === 'number' && Number.isFinite(o.loadMs) && o.loadMs >= 0 ? Math.round(o.loadMs) : undefined;
  if (loadMs !== undefined) Object.assign(checked, { loadMs });
  if (typeof o.ranMs === 'number' && Number.isFinite(o.ranMs) && o.ranMs >= 0) Object.assign(checked, { ranMs: o.ranMs });
  if (o.final === true && o.state === 'failed') Object.assign(checked, { final: true });
  return { ok: true, message: { t: 'done', jobId, attempt, pull, outcome: checked, ...(n ? { next: { jobId: n.jobId as number, attempt: n.attempt as number } } : {}), ...(returned ? { returned: returned as number[] } : {}) } };
}
