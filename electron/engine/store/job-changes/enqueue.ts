// Queueing new jobs: each row inserted, scheduled for later when its time has not come, and linked
// to what it runs after and its labels. The store runs it in a group commit: on disk before the
// caller hears of it. A batch of many is inserted by one statement over all its rows (json_each):
// ten thousand inserts one by one cost about half again as much, all of it holding the engine.
import type { JobSummary } from '../../../../shared/model.js';
import { commandLine, toSummary, type SummaryRow } from '../job-rows.js';
import type { NewJob } from '../job-types.js';
import { labelsText, type Change } from './change.js';

/** From this many jobs on, one statement inserts them all. */
const ONE_STATEMENT_FROM = 64;

const notBeforeOf = (j: NewJob, now: number) => (j.notBefore !== undefined && j.notBefore !== null && j.notBefore > now ? j.notBefore : null);

export function enqueue(c: Change, jobs: readonly NewJob[], now: number): JobSummary[] {
  const added = jobs.length >= ONE_STATEMENT_FROM ? insertAll(c, jobs, now) : jobs.map((j) => insertOne(c, j, now));
  return added.map((job, i) => {
    const j = jobs[i]!;
    c.moves.push({ lane: j.lane, from: null, to: 'queued' });
    if (notBeforeOf(j, now) !== null) c.waits.changed();
    return j.after === undefined && j.labels === undefined ? job : c.waits.link(job, j.after, j.labels, now, c.moves);
  });
}

function insertOne(c: Change, j: NewJob, now: number): JobSummary {
  return toSummary(c.s.insert.get(j.lane, JSON.stringify(j.spec), commandLine(j.spec), j.maxAttempts, j.timeoutMs, now, j.priority ?? 0, notBeforeOf(j, now), labelsText(j.labels), j.restartOf ?? null)!);
}

/**
 * Every job in one statement, in the order given (its ids rising in that order). Only the ids come
 * back: the rest of each row is what was inserted, so its summary is made from that, as the row
 * would read — ten thousand rows returned whole cost SQLite more than inserting them.
 */
function insertAll(c: Change, jobs: readonly NewJob[], now: number): JobSummary[] {
  const rows = jobs.map((j): SummaryRow => {
    const command = commandLine(j.spec);
    return [0, j.lane, command, 'queued', 0, j.maxAttempts, now, null, null, null, null, null, j.priority ?? 0, notBeforeOf(j, now), 0, labelsText(j.labels), j.restartOf ?? null, null, null];
  });
  const stored = jobs.map((j, i) => [j.lane, JSON.stringify(j.spec), rows[i]![2], j.maxAttempts, j.timeoutMs, j.priority ?? 0, rows[i]![13], rows[i]![15], rows[i]![16]]);
  const ids = c.s.insertAll
    .all(now, JSON.stringify(stored))
    .map(([id]) => id)
    .sort((a, b) => a - b);
  return rows.map((r, i) => {
    r[0] = ids[i]!;
    return toSummary(r);
  });
}
