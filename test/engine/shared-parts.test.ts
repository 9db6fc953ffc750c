// The pure parts of shared lanes, table by table: reading and redacting a Redis address, where
// a shared lane's ids fall, what a shared lane's nudge adds about the other machines, and a lane's
// priorities, counts and completions in BullMQ's terms.
import { describe, expect, it } from 'vitest';
import { isLoopback, parseRedisUrl, redactedRedisUrl } from '../../shared/redis-url.js';
import { bullIdOf, isSharedId, sharedId, SHARED_ID_MIN, slotOf, slotOfId } from '../../electron/engine/store/job-ids.js';
import { withElsewhere } from '../../electron/engine/sizer/elsewhere.js';
import { attemptError, attemptsOf, bullPriority, finishedByLanes } from '../../electron/engine/shared-lanes/job-data.js';
import { countsOf } from '../../electron/engine/shared-lanes/lane-counts.js';

describe('Redis addresses', () => {
  it.each([
    ['redis://127.0.0.1:6380', 'redis://127.0.0.1:6380/0', { tls: false, port: 6380, db: 0, username: null, password: null }],
    ['redis://:s3cret@10.0.0.2/3', 'redis://:***@10.0.0.2:6379/3', { port: 6379, db: 3, username: null, password: 's3cret' }],
    ['rediss://lanes:p%40ss@cache.example:6390/1', 'rediss://lanes:***@cache.example:6390/1', { tls: true, username: 'lanes', password: 'p@ss' }],
    ['redis://worker@[::1]:7000', 'redis://worker@[::1]:7000/0', { host: '::1', username: 'worker', password: null }],
  ])('%s reads, and shows as %s', (text, shown, fields) => {
    const a = parseRedisUrl(text);
    expect(a).toMatchObject(fields);
    expect(redactedRedisUrl(a as never)).toBe(shown);
  });

  it.each([
    ['http://127.0.0.1:6379', /starts with redis:\/\/ or rediss:\/\//],
    ['redis://127.0.0.1:6379/x', /database .* is a number/],
    ['redis://127.0.0.1:6379?tls=1', /no \?options/],
    ['not a url', /not a Redis address/],
  ])('refuses %s', (text, words) => {
    expect((parseRedisUrl(text) as { problem: string }).problem).toMatch(words);
  });

  it('never puts the password in a refusal', () => {
    expect(JSON.stringify(parseRedisUrl('redis://:hunter2@h:6379/abc'))).not.toContain('hunter2');
  });

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['::1', true],
    ['10.0.0.1', false],
    ['redis.internal', false],
  ])('%s is on this machine: %s', (host, loopback) => expect(isLoopback(host)).toBe(loopback));
});

describe('shared job ids', () => {
  it('fall above every local id, stay safe integers, and keep BullMQ’s number at the end', () => {
    const slot = slotOf('render');
    const id = sharedId(slot, '17')!;
    expect(id).toBeGreaterThanOrEqual(SHARED_ID_MIN);
    expect(Number.isSafeInteger(sharedId(slot, '999999999999')!)).toBe(true);
    expect(isSharedId(id)).toBe(true);
    expect(isSharedId(123_456)).toBe(false);
    expect(slotOfId(id)).toBe(slot);
    expect(bullIdOf(id)).toBe('17');
  });

  it('are the same on every engine for a lane name, and refuse ids that are not BullMQ counters', () => {
    expect(slotOf('render')).toBe(slotOf('render'));
    expect(slotOf('render')).not.toBe(slotOf('encode'));
    for (const bad of ['0', '-1', 'abc', '1e3', '1234567890123']) expect(sharedId(slotOf('render'), bad)).toBeNull();
  });
});

describe('a shared lane’s nudge', () => {
  const nudge = { text: '40 waiting and all 2 workers busy. Raise the cap to run more at once — this machine allows up to 7.', suggestedCap: 4 };
  it.each([
    [{ workers: 0, machines: 0 }, nudge.text],
    [{ workers: 1, machines: 1 }, `${nudge.text} 1 more running on 1 other machine.`],
    [{ workers: 3, machines: 2 }, `${nudge.text} 3 more running on 2 other machines.`],
  ])('with %o elsewhere says what they run', (elsewhere, text) => {
    expect(withElsewhere(nudge as never, elsewhere)?.text).toBe(text);
  });
  it('stays quiet when there is no nudge', () => expect(withElsewhere(null, { workers: 5, machines: 2 })).toBeNull());
});

describe('a shared lane in BullMQ’s terms', () => {
  it.each([
    [0, {}],
    [7, { lifo: true }],
    [100, { lifo: true }],
    [-1, { priority: 1 }],
    [-100, { priority: 100 }],
  ])('Lanes priority %i is BullMQ’s %o', (priority, opts) => {
    expect(bullPriority(priority)).toEqual(opts);
  });

  const raw = { wait: 3, prioritized: 2, delayed: 4, active: 1, due: 1, completed: 10, failed: 6, cancelled: 2 };
  it.each([
    ['as BullMQ counts them, cancelled apart from failed', raw, 0, { queued: 9, running: 1, succeeded: 10, failed: 4, cancelled: 2 }, 3],
    ['with completions outside Lanes counted failed', raw, 5, { queued: 9, running: 1, succeeded: 10, failed: 9, cancelled: 2 }, 3],
    ['anything not a count is 0', { ...raw, wait: -1, completed: 'x', cancelled: NaN, due: 9 }, 0, { queued: 6, running: 1, succeeded: 0, failed: 6, cancelled: 0 }, 0],
  ])('counts %s', (_, given, outside, counts, notYet) => {
    expect(countsOf(given, outside)).toEqual({ counts, notYet });
  });

  it.each([
    [{ lanes: 1, id: 1, exitCode: 0, machine: 'a' }, true],
    ['{"lanes":1,"id":1,"exitCode":0}', true],
    ['"done"', false],
    [null, false],
    [{ exitCode: 0 }, false],
  ])('%o was recorded by Lanes: %s', (value, ours) => {
    expect(finishedByLanes(value)).toBe(ours);
  });
});

describe('an attempt’s record in BullMQ’s stacktrace', () => {
  const record = { attempt: 2, startedAt: 1, finishedAt: 2, outcome: 'failed' as const, exitCode: 3, error: 'exited with code 3' };
  it('reads as words first (what BullMQ’s tools show), and back as the record', () => {
    const stack = attemptError(record, new Error('exited with code 3')).stack!;
    expect(stack.split('\n')[0]).toBe('attempt 2 failed: exited with code 3');
    expect(attemptsOf([stack])).toEqual([record]);
  });
  it('reads the records an earlier Lanes wrote (JSON alone), and leaves out entries not Lanes’', () => {
    expect(attemptsOf([JSON.stringify(record), 'Error: boom\n    at x (y.js:1:1)', '{"attempt":"x"}'])).toEqual([record]);
  });
});
