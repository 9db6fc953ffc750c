// The CLI end to end against a real `lanes daemon` child process: add, run, wait, log, follow,
// cancel, retry. Tests wait on printed lines, exits and the event stream — never on a clock.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Job, JobPage } from '../../shared/model.js';
import { tempDataDir } from '../support/daemon.js';
import { daemonForFile } from '../support/daemon-suite.js';

describe('lanes add / wait / log / cancel / retry', () => {
  const t = daemonForFile();
  const work = tempDataDir('lanes-work-');
  afterAll(() => work.remove());
  const jobReaches = t.reaches;

  async function add(...args: string[]): Promise<number> {
    const res = await t.daemon.cli('add', ...args);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    // Only the id, so `id=$(lanes add -- …)` just works.
    expect(res.stdout).toMatch(/^\d+\n$/);
    return Number(res.stdout);
  }

  it('adds a job, waits for it and prints its log', async () => {
    const id = await add('--', 'sh', '-c', 'echo "hello $WHO"; echo oops >&2', );
    const wait = await t.daemon.cli('wait', String(id));
    expect(wait.code).toBe(0);
    expect(wait.stdout).toMatch(new RegExp(`^job ${id}: succeeded`));
    expect((await t.daemon.cli('log', String(id))).stdout).toBe('hello \n');
    expect((await t.daemon.cli('log', String(id), '--stderr')).stdout).toBe('oops\n');
  });

  /** The names in logs/ of job `id`'s files (logs/<id ÷ 1000>/<id>.*): none until it first writes. */
  const filesOf = (id: number) => {
    const folder = join(t.daemon.dataDir, 'logs', String(Math.floor(id / 1000)));
    return existsSync(folder) ? readdirSync(folder).filter((name) => name.startsWith(`${id}.`)) : [];
  };

  it('keeps no file for a job that writes nothing, and shows its log empty everywhere', async () => {
    const input = join(work.dir, 'input');
    writeFileSync(input, 'words to squeeze\n'.repeat(100));
    const id = await add('--', `gzip -9 -c '${input}' > /dev/null`);
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    expect(filesOf(id)).toEqual([]);
    for (const stream of ['--stdout', '--stderr', '--all', '--follow']) {
      const log = await t.daemon.cli('log', String(id), stream);
      expect([log.code, log.stdout, log.stderr]).toEqual([0, '', '']);
    }
    for (const stream of ['stdout', 'stderr', 'all'] as const) {
      expect(await t.daemon.api('logTail', { id, stream })).toMatchObject({ text: '', offset: 0, nextOffset: 0, truncated: false });
    }
  });

  it('keeps one file for a job that writes to stderr alone, read as its stderr and as both together', async () => {
    const id = await add('--', 'echo only-here >&2');
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    expect(filesOf(id)).toEqual([`${id}.stderr.log`]);
    expect((await t.daemon.cli('log', String(id))).stdout).toBe('');
    expect((await t.daemon.cli('log', String(id), '--stderr')).stdout).toBe('only-here\n');
    expect((await t.daemon.cli('log', String(id), '--all')).stdout).toBe('only-here\n');
    expect((await t.daemon.api('logTail', { id, stream: 'stdout' })).text).toBe('');
  });

  it('passes --env and --cwd, and runs one quoted command line in the shell', async () => {
    const id = await add('--env', 'WHO=lanes', '--env', 'N=2', '--cwd', work.dir, '--', 'echo "$WHO $N" && pwd');
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    const out = (await t.daemon.cli('log', String(id))).stdout;
    expect(out.split('\n')[0]).toBe('lanes 2');
    expect(out).toContain(work.dir.split('/').pop());
    const job = JSON.parse((await t.daemon.cli('show', String(id), '--json')).stdout) as Job;
    expect(job.spec).toMatchObject({ kind: 'shell', cwd: work.dir, env: { WHO: 'lanes', N: '2' } });
  });

  it('prints {"id": N} with --json and runs several words without a shell', async () => {
    const res = await t.daemon.cli('add', '--json', '--', 'printf', '%s|', 'a b', '$HOME');
    expect(res.code).toBe(0);
    const { id } = JSON.parse(res.stdout) as { id: number };
    expect(Object.keys(JSON.parse(res.stdout) as object)).toEqual(['id']);
    expect((await t.daemon.cli('wait', String(id))).code).toBe(0);
    expect((await t.daemon.cli('log', String(id))).stdout).toBe('a b|$HOME|');
  });

  it('queues one job per line with --from, in one batch, printing the ids', async () => {
    const list = join(work.dir, 'commands.txt');
    writeFileSync(list, '# three jobs\necho one\n\necho "two $N"\nprintf three\n');
    const res = await t.daemon.cli('add', '--from', list, '--env', 'N=2');
    expect(res.code).toBe(0);
    const ids = res.stdout.trim().split('\n');
    expect(ids).toHaveLength(3);
    expect((await t.daemon.cli('wait', ...ids)).code).toBe(0);
    const logs = await Promise.all(ids.map(async (id) => (await t.daemon.cli('log', id)).stdout));
    expect(logs).toEqual(['one\n', 'two 2\n', 'three']);
    const json = await t.daemon.cli('add', '--from', list, '--json', '--lane', 'nosuch');
    expect(json.code).toBe(1);
    expect(json.stderr).toMatch(/nosuch/);
  });

  it('exits 1 from wait when any job failed, reporting each', async () => {
    const ok = await add('--', 'true');
    const bad = await add('--attempts', '1', '--', 'sh', '-c', 'exit 3');
    const wait = await t.daemon.cli('wait', String(ok), String(bad), '--json');
    expect(wait.code).toBe(1);
    const jobs = JSON.parse(wait.stdout) as Job[];
    expect(jobs.map((j) => [j.id, j.state, j.exitCode])).toEqual([
      [ok, 'succeeded', 0],
      [bad, 'failed', 3],
    ]);
  });

  it('follows a log until the job finishes', async () => {
    const gate = join(work.dir, 'follow-gate');
    const id = await add('--', 'sh', '-c', `echo first; while [ ! -f "${gate}" ]; do sleep 0.05; done; echo second`);
    const follow = t.daemon.spawn('log', String(id), '--follow');
    await follow.line(/^first$/);
    expect(follow.child.exitCode).toBeNull();
    writeFileSync(gate, '');
    const done = await follow.done;
    expect(done.code).toBe(0);
    expect(done.stdout).toBe('first\nsecond\n');
  });

  it('follows a log until the job fails, and ends as `lanes wait` does: 1, saying how on stderr', async () => {
    const gate = join(work.dir, 'follow-fail-gate');
    const id = await add('--attempts', '1', '--', 'sh', '-c', `echo first; while [ ! -f "${gate}" ]; do sleep 0.05; done; echo second; exit 4`);
    const follow = t.daemon.spawn('log', String(id), '--follow');
    await follow.line(/^first$/);
    writeFileSync(gate, '');
    const done = await follow.done;
    expect([done.code, done.stdout]).toEqual([1, 'first\nsecond\n']);
    expect(done.stderr).toBe(`job ${id}: failed (exit 4)\n`);
    expect((await t.daemon.cli('wait', String(id))).code).toBe(1);
    // Followed once it has failed: said before its log (on stderr), and the same exit.
    const again = await t.daemon.cli('log', String(id), '--follow');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^job ${id}: failed \\(exit 4\\)[^\\n]*; its stderr follows \\(--stdout for its output\\)\\n$`));
  });

  it('cancels a running job and a queued one, then retries', async () => {
    const started = join(work.dir, 'started');
    const marker = join(work.dir, 'ran-before');
    // Fails the first time it runs, succeeds on a retry.
    const flaky = `if [ -f "${marker}" ]; then echo retried; else touch "${marker}" "${started}"; exec sleep 60; fi`;
    const running = await add('--attempts', '1', '--', flaky);
    await jobReaches(running, 'running');
    const queued = await add('--', 'echo', 'never');
    const cancelQueued = await t.daemon.cli('cancel', String(queued));
    expect(cancelQueued.code).toBe(0);
    expect(cancelQueued.stdout).toMatch(new RegExp(`^job ${queued}: cancelled`));

    const cancel = await t.daemon.cli('cancel', String(running), '--json');
    expect(cancel.code).toBe(0);
    // It answers once the job has really stopped.
    expect((JSON.parse(cancel.stdout) as Job).state).toBe('cancelled');
    expect(existsSync(started)).toBe(true);
    expect((await t.daemon.cli('wait', String(queued))).code).toBe(1);
    expect((await t.daemon.cli('log', String(queued))).stdout).toBe('');

    const retry = await t.daemon.cli('retry', String(running));
    expect(retry.code).toBe(0);
    expect(retry.stdout).toMatch(new RegExp(`^job ${running}: queued`));
    expect((await t.daemon.cli('wait', String(running))).code).toBe(0);
    // The retry is the job's second attempt: its log keeps the first, with the line between.
    expect((await t.daemon.cli('log', String(running))).stdout).toMatch(/^── attempt 2 · [\d:]+ ──\nretried\n$/);
  });

  it('lists jobs in aligned columns with filters', async () => {
    const res = await t.daemon.cli('jobs', '--state', 'cancelled');
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\s*ID\s+LANE\s+STATE\s+TRIES\s+QUEUED\s+TOOK\s+COMMAND$/);
    expect(lines.slice(1).every((l) => l.includes('cancelled'))).toBe(true);
    // Columns line up: every row has LANE where the header has it.
    const laneAt = (lines[0] as string).indexOf('LANE');
    expect(lines.slice(1).every((l) => l.slice(laneAt).startsWith('worker'))).toBe(true);
  });

  it('sends the JSON given with --payload exactly, null and "" included', async () => {
    // Cap 0: the jobs only need to be stored, not run.
    const lane = await t.daemon.cli('lane', 'add', 'held', '--cap', '0', '--worker-command', `${JSON.stringify(process.execPath)} -e 0`);
    expect(lane.code, lane.stderr).toBe(0);
    for (const text of ['null', '""', '0', 'false', '{"a":[1,null]}']) {
      const id = await add('--lane', 'held', '--payload', text);
      const job = JSON.parse((await t.daemon.cli('show', String(id), '--json')).stdout) as Job;
      expect(job.spec, text).toEqual({ kind: 'payload', payload: JSON.parse(text) });
    }
  });

  it('fills a filtered page though the matches lie behind a long queue', async () => {
    const done = await add('--', 'true');
    expect((await t.daemon.cli('wait', String(done))).code).toBe(0);
    await t.daemon.api('addLane', { name: 'parked', cap: 0 });
    for (let i = 0; i < 3; i++) await t.daemon.api('addJobs', { jobs: Array.from({ length: 10_000 }, () => ({ lane: 'parked', argv: ['true'] })) });
    const page = JSON.parse((await t.daemon.cli('jobs', '--state', 'succeeded', '--limit', '2', '--json')).stdout) as JobPage;
    expect(page.jobs).toHaveLength(2);
    expect(page.jobs[0]!.id).toBe(done);
    expect(page.jobs.every((j) => j.state === 'succeeded')).toBe(true);
    await t.daemon.api('removeLane', { name: 'parked' }).catch(() => {});
  });

  it('refuses bad job input with a message and no new job', async () => {
    const before = (JSON.parse((await t.daemon.cli('jobs', '--json')).stdout) as JobPage).total;
    const cases: [string[], number, RegExp][] = [
      [['add'], 2, /no command/],
      [['add', '--'], 2, /no command/],
      [['add', '--lane', 'nosuch', '--', 'true'], 1, /no lane named "nosuch"/],
      [['add', '--lane', 'Bad!', '--', 'true'], 1, /lane/],
      [['add', '--attempts', '0', '--', 'true'], 2, /attempts/],
      [['add', '--payload', '{oops', '--'], 2, /JSON/],
      [['add', '--payload', '1', '--', 'true'], 2, /one of/],
      [['add', '--from', join(work.dir, 'missing.txt')], 1, /cannot read/],
      [['add', '--env', 'NOEQUALS', '--', 'true'], 2, /KEY=VALUE/],
      [['wait', 'abc'], 2, /job id/],
      [['log', '999999'], 1, /999999/],
      [['cancel', '999999'], 1, /999999/],
      [['retry', '0'], 2, /job id/],
    ];
    for (const [args, code, message] of cases) {
      const res = await t.daemon.cli(...args);
      expect(res.code, args.join(' ')).toBe(code);
      expect(res.stderr, args.join(' ')).toMatch(message);
      expect(res.stdout, args.join(' ')).toBe('');
    }
    expect((JSON.parse((await t.daemon.cli('jobs', '--json')).stdout) as JobPage).total).toBe(before);
  });
});
