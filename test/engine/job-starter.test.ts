// The worker's job starter (one /bin/sh per worker that forks each job, where jobs have cgroups):
// when it dies under a job, the job fails once, saying so, and the worker starts another for the
// next; output past the log cap, or written by what a job left running, stays that job's; a job
// cancelled or timed out leaves the starter to the next job; words, variables and directories
// with quotes, newlines and dollars reach the job as given. Real engines, workers and shells.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownCgroup } from '../../electron/job-control/containment.js';
import { engineEachTest, jobsFinished, nextEvent, WORKER_PID } from '../support/engine.js';
import { gone, lines, pidIn } from '../support/poll.js';

const log = async (t: ReturnType<typeof engineEachTest>, id: number, stream: 'stdout' | 'stderr' = 'stdout') => (await t.engine.request('logTail', { id, stream, maxBytes: 1_000_000 })).text;
const comm = (pid: number) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim();

describe.skipIf(ownCgroup() === null)('the job starter', () => {
  const t = engineEachTest({ cores: 3, cgroups: true });

  it('is a shell the worker keeps: jobs one after another have the same parent, not the worker', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const { ids } = await t.engine.request('addJobs', { jobs: [1, 2, 3].map(() => ({ shell: `echo $PPID ${WORKER_PID}` })) });
    await jobsFinished(t.engine, ids);
    const seen = await Promise.all(ids.map((id) => log(t, id)));
    expect(new Set(seen).size).toBe(1);
    const [starter, worker] = seen[0]!.trim().split(' ').map(Number);
    expect(starter).not.toBe(worker);
  });

  it('dying under a job fails that job once, in words, ends what it started, and the worker goes on with another', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const pidFile = join(t.dir, 'child.pid');
    const first = await t.engine.request('addJob', { shell: `echo ${WORKER_PID} > worker.pid; sleep 300 & echo $! > ${pidFile}; echo before; kill -9 $PPID; sleep 300`, cwd: t.dir, maxAttempts: 1 });
    const child = await pidIn(pidFile);
    const [job] = await jobsFinished(t.engine, [first.id], 30_000);
    expect(job).toMatchObject({ state: 'failed', exitCode: null, error: expect.stringMatching(/^the worker's job starter \(\/bin\/sh\) was killed by SIGKILL while the job ran/) });
    expect(await log(t, first.id)).toBe('before\n');
    await gone(child, 'the dead starter job’s child');
    const next = await t.engine.request('addJob', { shell: `echo ${WORKER_PID}; echo ok`, maxAttempts: 1 });
    const [after] = await jobsFinished(t.engine, [next.id]);
    expect(after!.state).toBe('succeeded');
    // The same worker, with a starter of its own again.
    expect(await log(t, next.id)).toBe(`${lines(join(t.dir, 'worker.pid'))[0]}\nok\n`);
    expect((await t.engine.request('job', { id: first.id })).history).toHaveLength(1);
  });

  it('killed between jobs is started again for the next', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const a = await t.engine.request('addJob', { shell: 'echo $PPID' });
    await jobsFinished(t.engine, [a.id]);
    const starter = Number((await log(t, a.id)).trim());
    expect(comm(starter)).toBe('sh');
    process.kill(starter, 'SIGKILL');
    await gone(starter, 'the starter');
    const b = await t.engine.request('addJob', { shell: 'echo $PPID' });
    const [job] = await jobsFinished(t.engine, [b.id]);
    expect(job!.state).toBe('succeeded');
    expect(Number((await log(t, b.id)).trim())).not.toBe(starter);
  });

  it('keeps a job that writes past the log cap within it, its tail kept, and the next job’s log its own', async () => {
    await t.restart({ logCapBytes: 4096 });
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const loud = await t.engine.request('addJob', { shell: 'i=0; while [ $i -lt 3000 ]; do echo "out $i"; echo "err $i" >&2; i=$((i+1)); done; printf tail' });
    const quiet = await t.engine.request('addJob', { argv: ['echo', 'only this'] });
    await jobsFinished(t.engine, [loud.id, quiet.id]);
    const out = await t.engine.request('logTail', { id: loud.id, maxBytes: 100_000 });
    expect(out.truncated).toBe(true);
    expect(out.text.length).toBeLessThanOrEqual(4096);
    expect(out.text.endsWith('out 2999\ntail')).toBe(true);
    expect((await log(t, loud.id, 'stderr')).endsWith('err 2999\n')).toBe(true);
    expect(await log(t, quiet.id)).toBe('only this\n');
    expect(await log(t, quiet.id, 'stderr')).toBe('');
  });

  it('gives what a job left running to that job: its output stays there and it is ended, in a new session or not', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const pidFile = join(t.dir, 'loud.pid');
    const leaver = await t.engine.request('addJob', { shell: `setsid sh -c 'echo $$ > ${pidFile}; while :; do echo left; sleep 0.01; done' & sleep 0.3; echo main`, cwd: t.dir });
    const next = await t.engine.request('addJob', { argv: ['echo', 'mine'] });
    await jobsFinished(t.engine, [leaver.id, next.id], 30_000);
    await gone(await pidIn(pidFile), 'the child that kept writing');
    expect(await log(t, leaver.id)).toMatch(/^(left\n)*main\n(left\n)*$/);
    expect(await log(t, next.id)).toBe('mine\n');
  });

  it('outlives a job cancelled or timed out, and runs the next one', async () => {
    await t.engine.request('setCap', { lane: 'worker', cap: 1 });
    const timed = await t.engine.request('addJob', { shell: 'echo $PPID; sleep 300', timeoutSeconds: 1, maxAttempts: 1 });
    const [out] = await jobsFinished(t.engine, [timed.id], 20_000);
    expect(out).toMatchObject({ state: 'failed', error: 'timed out after 1 s' });
    const cancelled = await t.engine.request('addJob', { shell: 'echo $PPID; exec sleep 300' });
    await nextEvent(t.engine, (e) => e.type === 'job' && e.data.id === cancelled.id && e.data.state === 'running');
    await t.engine.request('cancel', { id: cancelled.id });
    const [c] = await jobsFinished(t.engine, [cancelled.id], 20_000);
    expect(c!.state).toBe('cancelled');
    const last = await t.engine.request('addJob', { shell: 'echo $PPID' });
    await jobsFinished(t.engine, [last.id]);
    const starters = new Set(await Promise.all([timed.id, last.id].map(async (id) => (await log(t, id)).trim())));
    expect(starters.size).toBe(1);
  });

  it('hands words, variables and a directory with quotes, newlines and dollars to the job as given', async () => {
    const dir = join(t.dir, `it's a "dir" $HOME`);
    mkdirSync(dir);
    const odd = `a'b "c" $x \`y\`\nz\\`;
    const { id } = await t.engine.request('addJob', { argv: ['/usr/bin/printf', '%s|%s|%s', odd, '-n', ''], cwd: dir, env: { ODD: odd }, maxAttempts: 1 });
    const env = await t.engine.request('addJob', { shell: 'printf "%s|" "$ODD" "$PWD"; pwd -P', cwd: dir, env: { ODD: odd }, maxAttempts: 1 });
    await jobsFinished(t.engine, [id, env.id]);
    expect(await log(t, id)).toBe(`${odd}|-n|`);
    expect(await log(t, env.id)).toBe(`${odd}|${dir}|${dir}\n`);
  });

  it('a status above 128 is the signal the job died of', async () => {
    const { id } = await t.engine.request('addJob', { argv: ['sh', '-c', 'kill -TERM $$'], maxAttempts: 1 });
    const [job] = await jobsFinished(t.engine, [id]);
    expect(job).toMatchObject({ state: 'failed', exitCode: null, error: 'killed by SIGTERM' });
  });
});
