// The window's words about jobs and lanes, table by table: what "Took" says while a job runs,
// which log a job opens on, when "Cancelling…" shows and when it is forgotten, how a job's ending
// reads, why a lane runs nothing, and the folded lanes' one line.
import { describe, expect, it as test } from 'vitest';
import type { JobState, JobSummary, LaneStatus } from '../../shared/model.js';
import { badgeOf, formatElapsed, lastLogLine, isCancelling, neverRan, outcomeOf, preferredStream, ranText, settleCancels, tookText } from '../../renderer/job-words.js';
import { dependencyEnded } from '../../shared/dependencies.js';
import { classHint, doneRate, laneEta, laneReason, lanesSummary, laneWait, pipKinds } from '../../renderer/lane-words.js';
import { ledgerLane, reasonWords } from '../../renderer/format.js';
import { splitWords } from '../../shared/format.js';
import { EMPTY_LOG, logForState } from '../../renderer/stores/jobs.js';

function job(patch: Partial<JobSummary> = {}): JobSummary {
  return { id: 7, lane: 'worker', command: 'true', state: 'queued', attempts: 0, maxAttempts: 3, createdAt: 0, startedAt: null, finishedAt: null, exitCode: null, error: null, runAfter: null, ...patch };
}

function lane(patch: Partial<LaneStatus> = {}): LaneStatus {
  return {
    name: 'worker', class: 'cpu', cap: 1, workerCommand: null, workerCwd: null, timeoutMs: null, workers: 0, busy: 0, idle: 0, draining: 0, waiting: 0, delayed: 0, waitingForJobs: 0, scheduled: 0, scheduledNext: null,
    running: 0, succeeded: 0, failed: 0, cancelled: 0, throughputPerMin: 0, medianWaitMs: null, oldestQueuedAt: null, etaMs: null, etaState: 'none', workerLoadMs: null, nudgeQuietUntil: null, mood: 'idle', nudge: null, startsBlockedUntil: null, workerMemoryBytes: null, limit: null, ...patch,
  };
}

describe('took', () => {
  test('running time reads in whole seconds, so a once-a-second tick never shows tenths', () => {
    expect([0, 999, 1_000, 4_600, 59_999, 60_000, 184_000].map(formatElapsed)).toEqual(['0 s', '0 s', '1 s', '4 s', '59 s', '1 min', '3 min 4 s']);
    expect(formatElapsed(-50)).toBe('0 s');
  });

  test('a running job shows how long it has run so far; a finished one how long it took; others nothing', () => {
    expect(tookText(job({ state: 'running', startedAt: 10_000 }), 22_400)).toBe('12 s');
    expect(tookText(job({ state: 'succeeded', startedAt: 10_000, finishedAt: 10_850 }), 99_000)).toBe('850 ms');
    expect(tookText(job({ state: 'queued' }), 99_000)).toBe('');
    // Queued again for a retry: it is not running now, whatever its last start says.
    expect(tookText(job({ state: 'queued', startedAt: 10_000, attempts: 1 }), 99_000)).toBe('');
    expect(tookText(job({ state: 'running', startedAt: 10_000 }), 10_000)).not.toBe('running');
  });
});

test('a failed job opens on stderr, where its error is; every other job on both streams together', () => {
  const states: (JobState | undefined)[] = ['failed', 'succeeded', 'running', 'queued', 'cancelled', undefined];
  expect(states.map(preferredStream)).toEqual(['stderr', 'all', 'all', 'all', 'all', 'all']);
});

describe('cancelling', () => {
  test('shows only while a cancel is out and the job still looks unfinished', () => {
    const sent = { 7: true } as const;
    expect(isCancelling(job({ state: 'running' }), sent)).toBe(true);
    expect(isCancelling(job({ state: 'queued' }), sent)).toBe(true);
    expect(isCancelling(job({ state: 'cancelled' }), sent)).toBe(false);
    expect(isCancelling(job({ state: 'succeeded' }), sent)).toBe(false);
    expect(isCancelling(job({ id: 8, state: 'running' }), sent)).toBe(false);
  });

  test('is forgotten once the job has finished either way, and kept while it runs on', () => {
    const sent: Record<number, true> = { 7: true, 8: true, 9: true };
    const after = settleCancels(sent, [job({ id: 7, state: 'cancelled' }), job({ id: 8, state: 'running' }), job({ id: 9, state: 'succeeded' })]);
    expect(after).toEqual({ 8: true });
    expect(sent).toEqual({ 7: true, 8: true, 9: true });
    // Nothing to settle: the same object, so the store does not re-render for it.
    expect(settleCancels(after, [job({ id: 8, state: 'running' }), job({ id: 3, state: 'failed' })])).toBe(after);
  });
});

describe('how a job ended', () => {
  test('a failure leads with the engine’s reason, or the exit code when it gave none', () => {
    expect(outcomeOf(job({ state: 'failed', attempts: 3, exitCode: 3 }))).toEqual({ tone: 'bad', title: 'Failed after 3 attempts', why: 'exited with code 3' });
    expect(outcomeOf(job({ state: 'failed', attempts: 1, error: 'timed out after 5 s' }))).toEqual({ tone: 'bad', title: 'Failed', why: 'timed out after 5 s' });
    expect(outcomeOf(job({ state: 'cancelled', error: 'cancelled while running' }))).toEqual({ tone: 'quiet', title: 'Cancelled', why: 'cancelled while running' });
  });

  test('a retry waiting for its moment says which attempt failed and that it runs again', () => {
    const waiting = outcomeOf(job({ state: 'queued', attempts: 1, error: 'exit 1', runAfter: Date.UTC(2030, 0, 1, 12, 0, 5) }));
    expect(waiting?.tone).toBe('warn');
    expect(waiting?.title).toMatch(/^Attempt 1 of 3 failed; it runs again at /);
    expect(outcomeOf(job({ state: 'queued', attempts: 1, error: 'exit 1' }))?.title).toBe('Attempt 1 of 3 failed; it runs again when there is room');
  });

  test('a dependent that never ran says so and why, apart from a job that ran and failed', () => {
    const blocked = job({ state: 'failed', error: dependencyEnded(41, 'failed'), blockedBy: 41, finishedAt: 5 });
    expect(outcomeOf(blocked)).toEqual({ tone: 'quiet', title: 'Did not run: job 41 failed', why: null });
    expect(outcomeOf(job({ state: 'failed', error: dependencyEnded(41, 'cancelled'), blockedBy: 41 }))?.title).toBe('Did not run: job 41 was cancelled');
    expect(badgeOf(blocked)).toMatchObject({ word: 'Blocked', tone: 'blocked' });
    expect(neverRan(blocked)).toBe(true);
    // One that ran before (an earlier attempt) keeps its log; one that failed in its own words is a failure.
    expect(neverRan({ ...blocked, startedAt: 3 })).toBe(false);
    expect(badgeOf(job({ state: 'failed', error: 'job 41 failed to open its file' }))).toBeNull();
    // Blocked is the engine's stored fact, never the words: a worker's error that reads exactly like them is a failure.
    expect(badgeOf(job({ state: 'failed', error: 'job 41 failed' }))).toBeNull();
    expect(outcomeOf(job({ state: 'failed', error: 'job 3: upload failed' }))?.tone).toBe('bad');
    expect(badgeOf(job({ state: 'failed', exitCode: 1 }))).toBeNull();
    // A queued job's own words are never Blocked, whatever its last error said.
    expect(badgeOf(job({ state: 'queued', error: 'job 41 failed', blockedBy: 41 }))).toBeNull();
  });

  test('a job waiting for others or for its time has its own badge, never the lane’s word Waiting', () => {
    expect(badgeOf(job({ waitingFor: 1 }))).toMatchObject({ word: 'After 1 job', tone: 'after' });
    expect(badgeOf(job({ waitingFor: 2, notBefore: 9 }))).toMatchObject({ word: 'After 2 jobs' });
    expect(badgeOf(job({ notBefore: 9 }))).toMatchObject({ word: 'Scheduled' });
    expect([job(), job({ state: 'running' }), job({ state: 'succeeded' })].map(badgeOf)).toEqual([null, null, null]);
  });

  test('a failed job’s headline line is the last thing its log said, not a separator or a blank', () => {
    expect(lastLogLine('reading photos\nconvert: cannot open IMG_1040.jpg\n\n')).toBe('convert: cannot open IMG_1040.jpg');
    expect(lastLogLine('first try broke\n── attempt 2 · 14:03:11 ──\n')).toBe('first try broke');
    expect(lastLogLine('\x1b[31mError:\x1b[0m disk full\n')).toBe('Error: disk full');
    expect(lastLogLine('x'.repeat(500))).toHaveLength(200);
    expect([lastLogLine(''), lastLogLine('\n \n')]).toEqual([null, null]);
  });

  test('success, running and a fresh job need no banner', () => {
    expect([job({ state: 'succeeded', exitCode: 0 }), job({ state: 'running' }), job()].map(outcomeOf)).toEqual([null, null, null]);
  });
});

describe('a lane’s pips and pace', () => {
  test('a worker finishing its job holds its slot: a paused cap-1 lane shows one pip, a lowered cap its leavers past it', () => {
    expect(pipKinds(0, 0, 1, 1)).toEqual(['draining']);
    expect(pipKinds(1, 0, 0, 1)).toEqual(['busy']);
    expect(pipKinds(0, 0, 0, 2)).toEqual(['free', 'free']);
    expect(pipKinds(1, 0, 2, 1)).toEqual(['busy', 'draining', 'draining']);
    expect(pipKinds(1, 1, 0, 4)).toEqual(['busy', 'idle', 'free', 'free']);
  });

  test('Done / min is a pace only once it is one: as many jobs in its window as an estimate needs', () => {
    // One quick job 5 s into a batch is "12 a minute" by arithmetic, and no pace.
    expect(doneRate({ throughputPerMin: 12, finishedLately: 1 }).text).toBe('—');
    expect(doneRate({ throughputPerMin: 12, finishedLately: 2 }).text).toBe('—');
    expect(doneRate({ throughputPerMin: 12, finishedLately: 3 }).text).toBe('12');
    expect(doneRate({ throughputPerMin: 2.5, finishedLately: 40 }).text).toBe('2.5');
    expect(doneRate({ throughputPerMin: 0, finishedLately: 0 }).text).toBe('0');
    // An engine from before the count: its figure as it gives it.
    expect(doneRate({ throughputPerMin: 7 }).text).toBe('7');
  });
});

describe('lanes', () => {
  const now = 1_000_000;

  test('a lane that runs nothing says why; a busy one needs no reason', () => {
    expect(laneReason(lane({ cap: 0, mood: 'off' }), now)).toBe('cap 0 — raise the cap to run its jobs');
    expect(laneReason(lane({ startsBlockedUntil: now + 30_000, waiting: 4 }), now)).toMatch(/^its worker command keeps exiting as it starts — next try at /);
    // A hold that has passed is no reason any more.
    expect(laneReason(lane({ startsBlockedUntil: now - 1 }), now)).toBeNull();
    const shared = { redis: 'redis://127.0.0.1:6379/0', unreachableSince: null, notAnswering: false, error: null, elsewhere: { workers: 0, machines: 0 } };
    expect(laneReason(lane({ shared: { ...shared, outsideWorker: { seenAt: now - 2_000, jobId: 7, how: 'took' } } }), now)).toMatch(/^a worker that is not Lanes is taking its jobs \(seen at .+\) — what it completes shows as failed; stop it$/);
    expect(laneReason(lane({ shared: { ...shared, outsideWorker: null } }), now)).toBeNull();
    expect(laneReason(lane({ delayed: 2 }), now)).toBe('2 retries waiting to run again');
    expect(laneReason(lane({ delayed: 2, waiting: 1 }), now)).toBeNull();
    expect(laneReason(lane({ mood: 'working', busy: 1 }), now)).toBeNull();
  });

  test('a lane paused by itself says so and until when; all work paused says that first', () => {
    expect(laneReason(lane({ paused: { since: now, until: null } }), now)).toBe('paused until you resume it');
    expect(laneReason(lane({ paused: { since: now, until: now + 60_000 } }), now)).toMatch(/^paused until \d\d:\d\d:\d\d$/);
    expect(laneReason(lane({ paused: { since: now, until: null } }), now, { since: now, until: null })).toBe('all work paused until you resume');
  });

  test('an ml lane off by default, and a paused one, say so and until when', () => {
    expect(laneReason(lane({ name: 'ml', class: 'ml', cap: 0, mood: 'off' }), now)).toBe('ml lanes start off — raise the cap to run jobs');
    expect(laneReason(lane({ mood: 'paused', waiting: 3 }), now, { since: now - 1, until: null })).toBe('all work paused until you resume');
    expect(laneReason(lane({ mood: 'paused' }), now, { since: now - 1, until: now + 3_600_000 })).toMatch(/^all work paused until \d/);
    // Off is off, paused or not: the cap is the nearer reason.
    expect(laneReason(lane({ cap: 0 }), now, { since: now - 1, until: null })).toBe('cap 0 — raise the cap to run its jobs');
  });

  test('the outlook: an ETA only once there is a pace; the wait is the oldest waiting job’s, growing', () => {
    expect(laneEta(lane({ waiting: 4_500, running: 33, etaMs: 38 * 60_000, etaState: 'known' }))).toBe('4,533 left, about 38 min');
    expect(laneEta(lane({ waiting: 4_500, etaState: 'estimating' }))).toBe('4,500 left, estimating…');
    expect(laneEta(lane({ waiting: 4_500, etaState: 'paused' }))).toBeNull();
    expect(laneEta(lane({ waiting: 4_500, etaMs: null }))).toBeNull();
    expect(laneEta(lane({ etaMs: 1_000 }))).toBeNull();
    expect(laneWait(lane({ oldestQueuedAt: now - 125_000, medianWaitMs: 11_000 }), now).text).toBe('2 min 5 s');
    expect(laneWait(lane({ medianWaitMs: 11_000 }), now).text).toBe('11 s');
    expect(laneWait(lane(), now).text).toBe('—');
  });

  test('the ledger says which way a cap went, and names the engine’s own starts and stops', () => {
    expect(reasonWords({ reason: 'cap', detail: 'cap raised to 7: 40 waiting', lane: 'w' })).toBe('Cap raised');
    expect(reasonWords({ reason: 'cap', detail: 'cap lowered to 1: 3 workers finishing their jobs first', lane: 'w' })).toBe('Cap lowered');
    expect(reasonWords({ reason: 'demand', detail: '4 waiting', lane: 'w' })).toBe('Work waiting');
    expect(reasonWords({ reason: 'shutdown', detail: 'the engine stopped', lane: '*' })).toBe('Engine stopped');
    expect(reasonWords({ reason: 'start', detail: 'the engine started', lane: '*' })).toBe('Engine started');
    expect(reasonWords({ reason: 'pause', detail: 'all work paused', lane: 'w' })).toBe('All work paused');
    expect(ledgerLane({ lane: '*' })).toBe('engine');
  });

  test('the class tag says how jobs run, and that an ml lane without a worker command loads its model per job', () => {
    expect(classHint({ class: 'ml', workerCommand: null })).toContain('without a worker command');
    expect(classHint({ class: 'ml', workerCommand: ['python3', 'w.py'] })).toContain('loads the model once');
    expect(classHint({ class: 'cpu', workerCommand: null })).toContain('own command');
  });

  test('folded, the lanes read as one line that still says when one could run faster', () => {
    const nudge = { text: 'n', waiting: 4, busy: 1, ceiling: 7, suggestedCap: 5, estimate: null };
    expect(lanesSummary([lane({ busy: 1, waiting: 4, nudge }), lane({ name: 'ml', cap: 0 })])).toBe('2 lanes · 1 worker busy · 4 jobs waiting · 1 lane could run faster');
    expect(lanesSummary([lane({ failed: 3 }), lane({ nudge }), lane({ nudge })])).toBe('3 lanes · 0 workers busy · 0 jobs waiting · 3 failed jobs · 2 lanes could run faster');
  });
});

describe('a job’s run', () => {
  test('a persistent worker’s load is told apart from the run', () => {
    // The engine counts the job as started once its worker had loaded: the load is told beside the run.
    expect(ranText({ startedAt: 12_000, finishedAt: 14_000, loadMs: 12_000 }, 0)).toBe('ran 2 s, after 12 s loading its worker');
    expect(ranText({ startedAt: 0, finishedAt: 2_000, loadMs: null }, 0)).toBe('ran 2 s');
    expect(ranText({ startedAt: 0, finishedAt: null, loadMs: null }, 5_000)).toBe('running for 5 s');
  });
});

describe('a worker command typed as one line', () => {
  test.each([
    ['python3 serve.py --model small', ['python3', 'serve.py', '--model', 'small']],
    [`python3 "my worker.py" --name 'a b'`, ['python3', 'my worker.py', '--name', 'a b']],
    ['  spaced   out  ', ['spaced', 'out']],
  ])('%j', (text, words) => expect(splitWords(text)).toEqual(words));
  test('refuses an unterminated quote', () => expect(() => splitWords('a "b')).toThrow(/unterminated/));
});

describe('the open job’s log', () => {
  const followed = { ...EMPTY_LOG, text: 'partial output\n', nextOffset: 15 };

  test('turns to stderr when the job turns out to have failed, starting from its tail', () => {
    expect(logForState(followed, 'failed')).toEqual({ ...EMPTY_LOG, stream: 'stderr', loading: true });
  });

  test('stays where it is otherwise, and always when the person picked the stream', () => {
    expect(logForState(followed, 'succeeded')).toBe(followed);
    expect(logForState(followed, 'running')).toBe(followed);
    const picked = { ...followed, chosen: true };
    expect(logForState(picked, 'failed')).toBe(picked);
    const onStderr = { ...followed, stream: 'stderr' as const };
    expect(logForState(onStderr, 'failed')).toBe(onStderr);
    // A failed job that was retried and then succeeded: stderr stays, the person is reading it.
    expect(logForState(onStderr, 'succeeded')).toBe(onStderr);
  });
});
