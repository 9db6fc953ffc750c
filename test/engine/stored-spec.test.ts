// A spec is parsed wherever it is loaded, by the rules an add request is checked by: a row
// written straight into lanes.db that the API would have refused fails its own job, once, with
// words that say why, and the engine runs on with everything else.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Job } from '../../shared/model.js';
import { parseSpec } from '../../shared/schemas.js';
import { engineEachTest, jobsFinished } from '../support/engine.js';

const t = engineEachTest();

/** Rows as someone with the data directory could write them, and counts to be taken afresh (as after a crash). */
function writeBehindTheEngine(dir: string, specs: string[]): number[] {
  const db = new Database(join(dir, 'lanes.db'));
  try {
    const insert = db.prepare('INSERT INTO jobs (lane, spec, command, max_attempts, timeout_ms, created_at) VALUES (?, ?, ?, ?, NULL, ?) RETURNING id');
    const ids = specs.map((spec) => (insert.get('worker', spec, 'written by hand', 3, Date.now()) as { id: number }).id);
    db.prepare("UPDATE store_flags SET value = 0 WHERE name = 'counts_exact'").run();
    return ids;
  } finally {
    db.close();
  }
}

describe('specs loaded from the store', () => {
  it('a relative cwd, a body that is not JSON or a kind Lanes has not got fails that job once, with why; the rest run', async () => {
    await t.engine.stop({ graceMs: 1000 });
    const bad = writeBehindTheEngine(t.dir, [
      JSON.stringify({ kind: 'shell', script: 'echo escaped', cwd: '../..' }),
      '{"kind": "shell", "script": ',
      JSON.stringify({ kind: 'exec', command: 'true' }),
      JSON.stringify({ kind: 'argv', argv: ['true'], env: { 'A=B': 'x' } }),
    ]);
    const engine = await t.restart();
    const { id: good } = await engine.request('addJob', { shell: 'echo fine' });
    const finished = await jobsFinished(engine, [...bad, good]);
    const byId = new Map(finished.map((j: Job) => [j.id, j]));
    expect(byId.get(good)).toMatchObject({ state: 'succeeded' });
    for (const id of bad) {
      const job = byId.get(id)!;
      expect(job).toMatchObject({ state: 'failed', attempts: 1 });
      expect(job.error).toMatch(/^cannot run: its stored command is not one Lanes accepts/);
    }
    expect(byId.get(bad[0]!)!.error).toMatch(/cwd must be an absolute directory/);
    expect(byId.get(bad[1]!)!.error).toMatch(/not JSON/);
    expect(byId.get(bad[2]!)!.error).toMatch(/kind "exec" is none of argv, shell or payload/);
    expect(byId.get(bad[3]!)!.error).toMatch(/environment variable name/);
    // Shown, a row that cannot be read says so instead of failing the request.
    const shown = await engine.request('job', { id: bad[1]! });
    expect(shown).toMatchObject({ state: 'failed', spec: { kind: 'payload', payload: { unreadable: '{"kind": "shell", "script": ' } } });
    expect(engine.status().lanes.find((l) => l.name === 'worker')).toMatchObject({ waiting: 0, failed: 4, succeeded: 1 });
  });
});

describe('parseSpec: one parse for every door', () => {
  const cases: [string, unknown, RegExp | null][] = [
    ['a shell command', { kind: 'shell', script: 'make test', cwd: '/tmp' }, null],
    ['a program and arguments', { kind: 'argv', argv: ['ls', '-l'], env: { A: '1' } }, null],
    ['a payload', { kind: 'payload', payload: { text: 'x' } }, null],
    ['a relative directory', { kind: 'argv', argv: ['ls'], cwd: 'sub/dir' }, /cwd must be an absolute directory/],
    ['an empty command', { kind: 'shell', script: '  ' }, /command is empty/],
    ['a NUL byte', { kind: 'argv', argv: ['ls\0x'] }, /NUL/],
    ['an unknown field', { kind: 'shell', script: 'x', sudo: true }, /unknown field "sudo"/],
    ['no kind', { script: 'x' }, /none of argv, shell or payload/],
    ['not an object', 'rm -rf /', /not an object/],
    ['a payload too deep', { kind: 'payload', payload: JSON.parse('['.repeat(200) + ']'.repeat(200)) }, /payload/],
  ];
  it.each(cases)('%s', (_name, spec, problem) => {
    const parsed = parseSpec(spec);
    if (problem === null) expect(parsed).toEqual({ spec });
    else expect('problem' in parsed && parsed.problem).toMatch(problem);
  });
});
