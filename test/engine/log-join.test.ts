// A job that wrote to both streams keeps one file once it ends: the three joined behind a header.
// Read by the same spans the engine reads every log with; split again before a retry; and a
// joined file that is not what Lanes wrote reads as an empty log, never as another stream's bytes.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { joinLogs } from '../../electron/job-control/log-join.js';
import { logSpanFor, type LogPaths, type LogStream } from '../../electron/job-control/log-paths.js';
import { readLog } from '../../electron/engine/queues/read-log.js';
import { JobLogs } from '../../electron/worker/job-logs.js';

let dir = '';
let paths: LogPaths;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lanes-join-'));
  const base = join(dir, '7');
  paths = { stdoutPath: `${base}.stdout.log`, stderrPath: `${base}.stderr.log`, allPath: `${base}.log`, joinedPath: `${base}.logs` };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const read = (stream: LogStream, offset?: number) =>
  readLog(logSpanFor(paths, stream), { id: 7, stream, maxBytes: 1 << 20, ...(offset !== undefined ? { offset } : {}) });

describe('joined logs', () => {
  it('read each stream as the three files did, and keep a follower its place across the join', () => {
    const logs = new JobLogs({ attempt: 1, ...paths }, 1 << 20);
    logs.stdout.write('one\n');
    logs.stderr.write('oops\n');
    const before = read('all');
    expect(before.text).toBe('one\noops\n');
    logs.stdout.write('two\n');
    logs.close();
    expect(readdirSync(dir)).toEqual(['7.logs']);
    expect(read('stdout').text).toBe('one\ntwo\n');
    expect(read('stderr').text).toBe('oops\n');
    // Followed from where it was before the job ended: only what came after.
    const after = read('all', before.nextOffset);
    expect([after.offset, after.text, after.nextOffset]).toEqual([before.nextOffset, 'two\n', 13]);
  });

  it('are split again for a retry, which appends after its attempt line and joins once more', () => {
    const first = new JobLogs({ attempt: 1, ...paths }, 1 << 20);
    first.stdout.write('a1\n');
    first.stderr.write('e1\n');
    first.close();
    const second = new JobLogs({ attempt: 2, ...paths }, 1 << 20);
    expect(readdirSync(dir).sort()).toEqual(['7.log', '7.stderr.log', '7.stdout.log']);
    second.stderr.write('e2\n');
    second.close();
    expect(readdirSync(dir)).toEqual(['7.logs']);
    expect(read('stdout').text).toBe('a1\n');
    expect(read('stderr').text).toMatch(/^e1\n── attempt 2 · \d\d:\d\d:\d\d ──\ne2\n$/);
    expect(read('all').text).toMatch(/^a1\ne1\n── attempt 2 · \d\d:\d\d:\d\d ──\ne2\n$/);
  });

  it('leave a job of one stream with its one file, untouched', () => {
    const logs = new JobLogs({ attempt: 1, ...paths }, 1 << 20);
    logs.stderr.write('only\n');
    logs.close();
    expect(readdirSync(dir)).toEqual(['7.stderr.log']);
    expect(joinLogs(paths)).toBe(false);
    expect(read('all').text).toBe('only\n');
  });

  it.each([
    ['no header', 'just some bytes\n'],
    ['lengths longer than the file', 'lanes-log 1 100 0 0\nshort\n'],
    ['lengths shorter than the file', 'lanes-log 1 1 1 1\nabcdef\n'],
    ['a header too long to be one', `lanes-log 1 ${'9'.repeat(40)} 0 0\n`],
  ])('that do not parse (%s) read as empty logs', (_what, content) => {
    writeFileSync(paths.joinedPath, content);
    for (const stream of ['stdout', 'stderr', 'all'] as const) expect([read(stream).text, read(stream).nextOffset]).toEqual(['', 0]);
  });

  it('that do not parse give way to a retry: its output starts files of its own, and reads back', () => {
    writeFileSync(paths.joinedPath, 'garbage');
    const logs = new JobLogs({ attempt: 2, ...paths }, 1 << 20);
    logs.stdout.write('fresh\n');
    logs.close();
    expect(readdirSync(dir)).toEqual(['7.stdout.log']);
    expect(read('all').text).toMatch(/── attempt 2 · .* ──\nfresh\n$/);
  });
});
