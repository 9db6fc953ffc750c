// The Add job form's own checks: values in, the request or the field at fault out (add-job-form.ts),
// and the label filter the search box reads.
import { describe, expect, it } from 'vitest';
import { checkAddJob, EMPTY_VALUES, fieldOfRequest, type AddJobValues } from '../../renderer/add-job-form.js';
import { labelOf } from '../../renderer/stores/jobs.js';

const NOW = Date.UTC(2026, 11, 1, 20, 0);
const values = (o: Partial<AddJobValues>): AddJobValues => ({ ...EMPTY_VALUES, lane: 'worker', asPayload: false, text: 'make', ...o });

describe('the Add job form', () => {
  it('sends every field it was given, and nothing it was not', () => {
    expect(checkAddJob(values({}), NOW)).toEqual({ input: { lane: 'worker', shell: 'make' } });
    const at = '2026-12-02T02:00';
    expect(
      checkAddJob(values({ cwd: ' /srv/photos ', env: 'A=1\n\nB=two=2', attempts: '5', timeout: '30m', after: [41, 42], when: 'at', whenText: at, priority: '-7', labels: 'nightly, photos big' }), NOW),
    ).toEqual({
      input: { lane: 'worker', shell: 'make', cwd: '/srv/photos', env: { A: '1', B: 'two=2' }, maxAttempts: 5, timeoutSeconds: 1800, after: [41, 42], notBefore: Date.parse(at), priority: -7, labels: ['nightly', 'photos', 'big'] },
    });
    expect(checkAddJob(values({ when: 'delay', whenText: '1h30m' }), NOW)).toEqual({ input: { lane: 'worker', shell: 'make', delaySeconds: 5400 } });
    expect(checkAddJob(values({ asPayload: true, text: '{"n":1}', cwd: '/ignored' }), NOW)).toEqual({ input: { lane: 'worker', payload: { n: 1 } } });
  });

  it.each([
    ['an empty command', { text: ' ' }, 'text'],
    ['a payload that is not JSON', { asPayload: true, text: '{n:1}' }, 'text'],
    ['an env line without =', { env: 'JUST_A_NAME' }, 'env'],
    ['attempts as a fraction', { attempts: '1.5' }, 'attempts'],
    ['attempts out of range', { attempts: '0' }, 'attempts'],
    ['a timeout that is no span', { timeout: 'soon' }, 'timeout'],
    ['a delay that is no span', { when: 'delay' as const, whenText: '' }, 'when'],
    ['a time already past', { when: 'at' as const, whenText: '2020-01-01T00:00' }, 'when'],
    ['a priority above 100', { priority: '101' }, 'priority'],
    ['too many labels', { labels: 'a b c d e f g h i' }, 'labels'],
  ])('refuses %s at its field', (_what, o, field) => {
    expect(checkAddJob(values(o), NOW)).toMatchObject({ field });
  });

  it('names every field that is wrong at once, each with its own words, and sends nothing', () => {
    const checked = checkAddJob(values({ text: '', env: 'A=1\nJUST_A_NAME\nALSO', attempts: '0', timeout: 'soon', priority: '101' }), NOW);
    expect('problems' in checked && checked.problems.map((p) => p.field)).toEqual(['text', 'env', 'attempts', 'timeout', 'priority']);
    // One env line named, not one refusal per bad line.
    expect('problems' in checked && checked.problems[1]!.message).toBe('each line is NAME=value; "JUST_A_NAME" is not');
    expect(checked).not.toHaveProperty('input');
  });

  it('shows an engine refusal at the field it names', () => {
    expect(['cwd', 'labels.2', 'notBefore', 'delaySeconds', 'argv', 'maxAttempts', 'after', 'nope', undefined].map(fieldOfRequest)).toEqual(['cwd', 'labels', 'when', 'when', 'text', 'attempts', 'after', null, null]);
  });

  it('reads label:NAME in the search box as the label filter', () => {
    expect([labelOf('label:nightly'), labelOf(' label:a.b '), labelOf('label: x'), labelOf('nightly')]).toEqual(['nightly', 'a.b', null, null]);
  });
});

describe('a lane whose work cannot run yet', () => {
  it('says what it waits for instead of nothing', async () => {
    const { notYetText } = await import('../../renderer/lane-words.js');
    expect(notYetText({ waitingForJobs: 12, scheduled: 0, scheduledNext: null })).toBe('12 waiting for other jobs');
    const two = new Date(2026, 11, 2, 2, 0).getTime();
    // Several due at several times: the time is the next one's, not all of theirs; to the minute, 24-hour.
    expect(notYetText({ waitingForJobs: 0, scheduled: 3, scheduledNext: two })).toMatch(/^3 scheduled, the next at (2026-12-02 )?02:00$/);
    expect(notYetText({ waitingForJobs: 0, scheduled: 1, scheduledNext: new Date(2026, 11, 2, 14, 30).getTime() })).toMatch(/^1 scheduled for (2026-12-02 )?14:30$/);
    expect(notYetText({ waitingForJobs: 0, scheduled: 0, scheduledNext: null })).toBeNull();
  });
});

describe('editing a queued job with the same form', () => {
  it('sends what the form shows, the command only when it changed, and clears what was emptied', async () => {
    const { checkEdit, valuesOfJob } = await import('../../renderer/add-job-form.js');
    const job = {
      id: 9, lane: 'worker', command: 'make all', state: 'queued' as const, attempts: 0, maxAttempts: 3, createdAt: 0, startedAt: null, finishedAt: null, exitCode: null, error: null, runAfter: null,
      spec: { kind: 'argv' as const, argv: ['make', 'all'], cwd: '/srv' }, result: null, timeoutMs: 60_000, loadMs: null, history: [],
      priority: 4, labels: ['a'], after: [{ id: 3, state: 'running' as const, command: 'x' }], waitingFor: 1,
    };
    const was = valuesOfJob(job);
    expect(was).toMatchObject({ text: 'make all', cwd: '/srv', attempts: '3', timeout: '60s', after: [3], when: 'now', priority: '4', labels: 'a' });
    expect(checkEdit(9, { ...was, priority: '6', labels: '' }, was, NOW)).toEqual({ input: { id: 9, after: [3], priority: 6, labels: [], maxAttempts: 3, timeoutSeconds: 60, notBefore: null } });
    expect(checkEdit(9, { ...was, text: 'make clean', after: [] }, was, NOW)).toMatchObject({ input: { shell: 'make clean', after: [] } });
  });
});
