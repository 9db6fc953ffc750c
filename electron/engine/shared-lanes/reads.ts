// Reading a shared lane's jobs from Redis: one job (a summary, or in full), a page of the list,
// a log. A page looks at a bounded window of each state's newest jobs, as the local store looks
// through bounded windows of ids, so no listing costs Redis or the engine more than a few ms.
import type { JobType } from 'bullmq';
import type { Job, JobPage, JobSpec, JobState, JobSummary, LogChunk } from '../../../shared/model.js';
import type { ParsedInput } from '../../../shared/requests.js';
import { RESULT_MAX_BYTES } from '../../../shared/limits.js';
import { readLog } from '../queues/read-log.js';
import { anyLog, logSpanFor } from '../../job-control/log-paths.js';
import type { LaneCounts } from '../store/counts.js';
import type { JobFilter } from '../store/job-queries.js';
import { attemptsOf, checkClaimed, resultOf, summaryOf, withCutShort, type BullFields, type BullState } from './job-data.js';
import { chunkOf } from './logs.js';
import type { LaneParts } from './parts.js';

/** Newest jobs of each BullMQ state a page looks through. */
export const PAGE_WINDOW = 1_000;

const HASH_FIELDS = ['name', 'timestamp', 'processedOn', 'finishedOn', 'ats', 'opts', 'failedReason', 'stacktrace', 'progress', 'pb', 'delay', 'returnvalue'] as const;
const QUEUED: (JobType & BullState)[] = ['wait', 'prioritized', 'delayed'];
const TYPES: Record<JobState | 'all', (JobType & BullState)[]> = {
  all: [...QUEUED, 'active', 'completed', 'failed'],
  queued: QUEUED,
  running: ['active'],
  succeeded: ['completed'],
  failed: ['failed'],
  // Cancelled for good, or asked to be while still waiting to be taken.
  cancelled: ['failed', ...QUEUED],
};
export const QUEUED_STATES = new Set<string>(['wait', 'waiting', 'prioritized', 'delayed', 'paused']);

const json = (s: string | null | undefined): unknown => {
  try {
    return s ? (JSON.parse(s) as unknown) : null;
  } catch {
    return null;
  }
};

function fieldsOfHash(v: (string | null)[], bullId: string): BullFields {
  const opts = json(v[5]) as { attempts?: unknown } | null;
  return {
    name: v[0],
    timestamp: v[1],
    processedOn: v[2],
    finishedOn: v[3],
    attemptsStarted: v[4],
    maxAttempts: opts?.attempts,
    failedReason: v[6],
    stacktrace: json(v[7]),
    progress: json(v[8]),
    processedBy: v[9],
    delay: v[10],
    returnvalue: v[11],
    bullId,
  };
}

export class LaneReads {
  constructor(private readonly p: LaneParts) {}

  private fields(bullIds: string[]): Promise<(string | null)[][]> {
    const pipe = this.p.conns.requests.pipeline();
    for (const id of bullIds) pipe.hmget(this.p.queue.toKey(id), ...HASH_FIELDS);
    return pipe.exec().then((replies) => (replies ?? []).map(([error, value]) => (error ? [] : (value as (string | null)[]))));
  }

  async summary(id: number): Promise<JobSummary | undefined> {
    const bullId = await this.p.names.bullIdFor(id);
    const [[fields], state] = await Promise.all([this.fields([bullId]), this.p.queue.getJobState(bullId)]);
    if (state === 'unknown' || !fields || fields[1] === null || fields[1] === undefined) return undefined;
    return summaryOf(id, this.p.lane.name, state as BullState, fieldsOfHash(fields, bullId));
  }

  async get(id: number): Promise<Job | undefined> {
    const bullId = await this.p.names.bullIdFor(id);
    // Null: there, but its record is not one BullMQ can read (not written by Lanes); shown by its summary, with nothing to run.
    const job = await this.p.queue.getJob(bullId).catch(() => null);
    const summary = await this.summary(id);
    if (job === undefined || !summary) return undefined;
    if (job === null) return { ...summary, loadMs: null, spec: { kind: 'payload', payload: null }, result: null, timeoutMs: null, history: [] };
    const checked = checkClaimed(job.data, this.p.lane.workerCommand !== null, this.p.deps.machine);
    const data = job.data as { spec?: JobSpec; timeoutMs?: number | null } | null;
    // A spec this engine would not run (its directory missing here) is still shown as it is.
    const spec: JobSpec = 'spec' in checked ? checked.spec : checked.retry && data?.spec ? data.spec : { kind: 'payload', payload: null };
    const answer = resultOf(job.returnvalue);
    const result = JSON.stringify(answer ?? null).length > RESULT_MAX_BYTES ? null : answer;
    return { ...summary, loadMs: null, spec, result, timeoutMs: 'spec' in checked ? checked.timeoutMs : null, history: withCutShort(attemptsOf(job.stacktrace), { attempts: summary.attempts, state: summary.state, machine: summary.machine, at: summary.finishedAt ?? summary.startedAt ?? summary.createdAt }) };
  }

  /**
   * Newest (or oldest) first past the cursor, among each state's PAGE_WINDOW newest jobs: BullMQ
   * keeps finished jobs for a bounded while anyway (job-data.ts), so the window covers most of them.
   */
  async page(filter: JobFilter, counts: LaneCounts): Promise<Omit<JobPage, 'seq'>> {
    const newest = filter.order !== 'oldest';
    const past = newest ? (id: number) => id < (filter.beforeId ?? Number.MAX_SAFE_INTEGER) : (id: number) => id > (filter.afterId ?? 0);
    const types = TYPES[filter.state ?? 'all'];
    const lists = await Promise.all(
      types.map(async (t) => {
        const bullIds = await this.p.queue.getRanges([t], 0, PAGE_WINDOW - 1, false);
        // A job its producer named is listed under the number Lanes gave it (named-ids.ts).
        const ids = await this.p.names.idsFor(bullIds);
        return bullIds.map((b, i) => [ids[i]!, b, t] as const);
      }),
    );
    const seen = new Set<number>();
    const candidates: { id: number; bullId: string; state: BullState }[] = [];
    for (const [id, bullId, state] of lists.flat()) {
      if (id === null || !past(id) || seen.has(id)) continue;
      seen.add(id);
      candidates.push({ id, bullId, state });
    }
    candidates.sort((a, b) => (newest ? b.id - a.id : a.id - b.id));
    const text = filter.text?.toLowerCase();
    const jobs: JobSummary[] = [];
    for (let i = 0; i < candidates.length && jobs.length <= filter.limit; i += filter.limit + 1) {
      const chunk = candidates.slice(i, i + filter.limit + 1);
      const rows = await this.fields(chunk.map((c) => c.bullId));
      chunk.forEach((c, k) => {
        const row = rows[k];
        if (!row || row[1] === null || row[1] === undefined) return;
        const s = summaryOf(c.id, this.p.lane.name, c.state, fieldsOfHash(row, c.bullId));
        if (filter.state && s.state !== filter.state) return;
        if (text !== undefined && !s.command.toLowerCase().includes(text)) return;
        jobs.push(s);
      });
    }
    const more = jobs.length > filter.limit;
    const shown = jobs.slice(0, filter.limit);
    const total = filter.state ? counts[filter.state] : counts.queued + counts.running + counts.succeeded + counts.failed + counts.cancelled;
    const next = more ? shown.at(-1)!.id : null;
    return { jobs: shown, total, nextBeforeId: newest ? next : null, nextAfterId: newest ? null : next };
  }

  /** While this engine has the job's files (it runs it, or could not send its tail), they are read; otherwise the tail in Redis. */
  async log(id: number, input: ParsedInput<'logTail'>): Promise<LogChunk> {
    const paths = this.p.deps.logPaths(id);
    if (anyLog(paths)) return readLog(logSpanFor(paths, input.stream), input);
    const { logs } = await this.p.queue.getJobLogs(await this.p.names.bullIdFor(id), 0, -1);
    return chunkOf(logs.at(-1), input);
  }
}
