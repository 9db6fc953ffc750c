// One parser per kind of value, refusing what it cannot represent rather than reading it as
// something else: calendar dates that do not exist, spans without a unit, numbers with spaces,
// lone surrogates, keys that name an object's machinery, numbers JSON cannot carry, and bytes
// that are not HTTP. Each refusal names its field, and nothing changes. Real CLI processes, a real
// engine behind a real HTTP server, and real worker processes.
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIsoTime } from '../../shared/moment.js';
import { parseSpan, SPAN_LIMITS } from '../../shared/span.js';
import { keepFromEnv } from '../../electron/engine/retention/policy.js';
import { duration, wholeNumber } from '../../electron/cli/args.js';
import { atTime } from '../../electron/cli/ordering.js';
import { checkAddJob } from '../../renderer/add-job-form.js';
import { ensureBuilt, lanes, tempDataDir } from '../support/daemon.js';
import { hostedApiForAll } from '../support/http.js';
import { jobsFinished } from '../support/engine.js';

describe('dates the calendar does not have', () => {
  it.each([
    ['2027-02-30T00:00', /2027-02-30 is not a date: that month has 28 days/],
    ['2027-02-29', /that month has 28 days/],
    ['2027-04-31', /that month has 30 days/],
    ['2027-13-01T00:00', /no month 13/],
    ['2027-01-01T24:00', /hours go to 23/],
    ['2027-01-01T10:60', /minutes and seconds to 59/],
  ])('%s is refused, not rolled over', (text, words) => {
    expect(parseIsoTime(text)).toEqual({ problem: expect.stringMatching(words) });
    expect(() => atTime(text, new Date(2026, 0, 1))).toThrow(/^--at: /);
  });

  it('dates that exist are read as before', () => {
    expect(parseIsoTime('2028-02-29T00:00')).toEqual({ ms: new Date(2028, 1, 29).getTime() });
    expect(parseIsoTime('2027-03-02T01:00Z')).toEqual({ ms: Date.UTC(2027, 2, 2, 1) });
  });

  it('the window refuses it in the same words', () => {
    const v = { lane: 'worker', asPayload: false, text: 'true', cwd: '', env: '', attempts: '', timeout: '', after: [], when: 'at' as const, whenText: '2027-02-30T00:00', priority: '', labels: '' };
    expect(checkAddJob(v, new Date(2026, 0, 1).getTime())).toMatchObject({ field: 'when', message: expect.stringMatching(/is not a date/) });
  });
});

describe('spans', () => {
  it('a bare number has no unit: refused, naming the units', () => {
    expect(parseSpan('30')).toEqual({ problem: 'a span needs a unit: s, m, h, d or w (90s, 15m, 1h30m, 2d, 2w); "30" has none' });
    expect(() => keepFromEnv({ LANES_KEEP: '30' })).toThrow(/^LANES_KEEP: a span needs a unit: s, m, h, d or w .*"30" has none$/);
  });

  it('--delay takes what the API takes (a year), the window too; --for what pause takes (a week)', () => {
    expect(duration('--delay', SPAN_LIMITS.schedule)('8d')).toBe(8 * 86_400);
    expect(duration('--delay', SPAN_LIMITS.schedule)('366d')).toBe(366 * 86_400);
    expect(() => duration('--delay', SPAN_LIMITS.schedule)('367d')).toThrow('--delay: a span must be at most a year (366d), not "367d"');
    expect(() => duration('--for', SPAN_LIMITS.week)('8d')).toThrow('--for: a span must be at most a week (7d), not "8d"');
    const v = { lane: 'worker', asPayload: false, text: 'true', cwd: '', env: '', attempts: '', timeout: '', after: [], when: 'delay' as const, whenText: '8d', priority: '', labels: '' };
    expect(checkAddJob(v, Date.now())).toMatchObject({ input: { delaySeconds: 8 * 86_400 } });
  });

  it('numbers with spaces are refused', () => {
    expect(() => wholeNumber('--priority', -100, 100)(' 5')).toThrow('--priority must be a whole number, not " 5"');
    expect(() => wholeNumber('--priority', -100, 100)('5 ')).toThrow(/whole number/);
  });
});

describe('the CLI refuses before sending anything', () => {
  const tmp = tempDataDir();
  beforeAll(() => ensureBuilt());
  afterAll(() => tmp.remove());

  it.each([
    [['add', '--at', '2027-02-30T00:00', '--', 'true'], /--at: 2027-02-30 is not a date/],
    [['add', '--priority', ' 5', '--', 'true'], /--priority must be a whole number, not " 5"/],
    [['add', '--delay', '30', '--', 'true'], /--delay: a span needs a unit/],
  ])('lanes %j exits 2', async (args, words) => {
    const r = await lanes(['--data-dir', join(tmp.dir, 'none'), ...args]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(words);
  });

  it('LANES_KEEP=30 refuses the start in one line naming the variable and the units', async () => {
    const r = await lanes(['daemon', '--data-dir', join(tmp.dir, 'keep')], { env: { LANES_KEEP: '30' } });
    expect(r.code).not.toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/LANES_KEEP: a span needs a unit: s, m, h, d or w/);
  });
});

describe('over HTTP, into a real engine', () => {
  const h = hostedApiForAll();

  const total = async () => (await h.client.call('listJobs', {})).total;
  async function refused(path: string, body: string, field: string, words: RegExp): Promise<void> {
    const res = await h.call.post(path, body);
    expect(res.status, body).toBe(400);
    expect(res.json).toMatchObject({ error: { code: 'bad_request', field, message: expect.stringMatching(words) } });
  }

  it('an escaped lone surrogate is refused with its field, not run as U+FFFD', async () => {
    const before = await total();
    await refused('/api/jobs', '{"argv":["echo","\\ud800"]}', 'argv.1', /lone UTF-16 surrogate/);
    await refused('/api/jobs', '{"argv":["true"],"env":{"A":"x\\udc00"}}', 'env.A', /lone UTF-16 surrogate/);
    await refused('/api/jobs', '{"payload":{"k\\ud800":1}}', 'payload.k\ufffd', /lone UTF-16 surrogate/);
    expect(await total()).toBe(before);
  });

  it('__proto__, constructor and prototype keys are refused with their field, on add and on edit', async () => {
    const before = await total();
    await refused('/api/jobs', '{"argv":["true"],"env":{"__proto__":"x"}}', 'env.__proto__', /"__proto__" is not allowed as a key/);
    await refused('/api/jobs', '{"argv":["true"],"env":{"constructor":"x"}}', 'env.constructor', /not allowed as a key/);
    await refused('/api/jobs/batch', '{"jobs":[{"payload":{"a":{"prototype":1}}}]}', 'jobs.0.payload.a.prototype', /not allowed as a key/);
    expect(await total()).toBe(before);
    const { id } = await h.client.call('addJob', { argv: ['true'], delaySeconds: 3600, env: { KEEP: 'me' } });
    await refused(`/api/jobs/${id}/edit`, '{"env":{"__proto__":"x","B":"y"}}', 'env.__proto__', /not allowed as a key/);
    const job = await h.client.call('job', { id });
    expect(job.spec).toMatchObject({ env: { KEEP: 'me' } });
    await h.client.call('cancel', { id });
  });

  it("a worker's result of 1e999 fails the job in words, never stored as null", async () => {
    const script = join(h.dir, 'huge.cjs');
    writeFileSync(script, "process.stdout.write('{\"ready\":true}\\n');\nrequire('readline').createInterface({ input: process.stdin }).on('line', (l) => process.stdout.write('{\"id\":' + JSON.parse(l).id + ',\"ok\":true,\"result\":1e999}\\n'));\n");
    await h.client.call('addLane', { name: 'huge', workerCommand: [process.execPath, script] });
    const { id } = await h.client.call('addJob', { lane: 'huge', payload: {} });
    const [job] = await jobsFinished(h.host.engine, [id]);
    expect(job).toMatchObject({ state: 'failed', error: expect.stringMatching(/^the worker's answer holds a number JSON cannot carry \(Infinity/) });
    expect(job!.result ?? null).toBeNull();
  });

  it('a raw non-ASCII byte in the request line gets the JSON error and headers of any refusal', async () => {
    const plain = await h.call.get('/api/no-such-route');
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(h.host.port, '127.0.0.1', () => socket.end(Buffer.concat([Buffer.from('GET /api/st'), Buffer.from([0xff]), Buffer.from('atus HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')])));
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = answer.split('\r\n\r\n');
    const lines = head!.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 400 Bad Request');
    const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    for (const name of ['content-type', 'cache-control', 'x-content-type-options', 'x-frame-options']) expect(headers[name], name).toBe(plain.headers[name]);
    expect(JSON.parse(body!)).toEqual({ error: { code: 'bad_request', message: expect.stringMatching(/not valid HTTP/) } });
  });
});
