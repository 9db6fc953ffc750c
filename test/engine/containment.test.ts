// Every job contained and bounded: what a job starts ends with it, whatever it did to escape
// (a new session holding its output open, a worker killed as the job began), and a job that runs
// past its time limit fails and is ended. Run twice: with a cgroup per job where this machine
// lets the engine make one, and with the fallbacks alone (process groups and the job's id).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownCgroup } from '../../electron/job-control/containment.js';
import { engineEachTest, jobsFinished, nextEvent, pidAlive, WORKER_PID } from '../support/engine.js';
import { gone, lines, pidIn } from '../support/poll.js';


const modes = [
  { name: 'with a cgroup per job', cgroups: true, skip: ownCgroup() === null ? 'this machine gives no writable cgroup v2' : null },
  { name: 'with process groups and job ids only', cgroups: false, skip: null },
];

for (const mode of modes) {
  describe.skipIf(mode.skip !== null)(`containment, ${mode.name}`, () => {
    const t = engineEachTest({ cores: 3, cgroups: mode.cgroups });

    it('a child that starts its own session and holds the output open ends with the job', async () => {
      const pidFile = join(t.dir, 'escaped.pid');
      const { id } = await t.engine.request('addJob', { shell: `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' & sleep 0.3; echo done`, cwd: t.dir });
      const [job] = await jobsFinished(t.engine, [id], 20_000);
      expect(job).toMatchObject({ state: 'succeeded' });
      const escaped = await pidIn(pidFile);
      await gone(escaped, 'the escaped child');
      expect((await t.engine.request('logTail', { id })).text).toBe('done\n');
    });

    it.skipIf(!mode.cgroups)('a job is in its own cgroup from its first instruction, and the worker that started it is not', async () => {
      // `cat` is the job's first program: what it reads is where the job began.
      const first = await t.engine.request('addJob', { argv: ['cat', '/proc/self/cgroup'] });
      const second = await t.engine.request('addJob', { argv: ['sh', '-c', `echo ${WORKER_PID}`] });
      await jobsFinished(t.engine, [first.id, second.id]);
      const where = (await t.engine.request('logTail', { id: first.id })).text;
      expect(where).toMatch(new RegExp(`^0::.*/lanes-${process.pid}/job-${first.id}-1$`, 'm'));
      // The worker stepped into each job's group only for the fork: it is back where it was.
      const worker = Number((await t.engine.request('logTail', { id: second.id })).text.trim());
      expect(readFileSync(`/proc/${worker}/cgroup`, 'utf8')).not.toMatch(/job-\d+-\d+/);
    });

    it('a child that escapes into its own session and closes its output is ended soon after the job', async () => {
      const pidFile = join(t.dir, 'daemon.pid');
      const { id } = await t.engine.request('addJob', { shell: `setsid sleep 300 >/dev/null 2>&1 </dev/null & echo $! > ${pidFile}; sleep 0.2`, cwd: t.dir });
      const [job] = await jobsFinished(t.engine, [id], 20_000);
      expect(job!.state).toBe('succeeded');
      await gone(await pidIn(pidFile), 'the daemonized child');
    });

    it('cancelling a job ends a child that escaped into its own session', async () => {
      const pidFile = join(t.dir, 'escaped.pid');
      const { id } = await t.engine.request('addJob', { shell: `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' & wait`, cwd: t.dir });
      const escaped = await pidIn(pidFile);
      await t.engine.request('cancel', { id });
      const [job] = await jobsFinished(t.engine, [id], 20_000);
      expect(job!.state).toBe('cancelled');
      await gone(escaped, 'the escaped child');
    });

    it('a worker killed as its job begins leaves no run of that attempt behind', async () => {
      // The job's first instruction kills its own worker: the engine may not yet know anything
      // of the job's processes. Five times, since it is a race.
      // Each attempt's shell that lives past the kill notes its pid, so the test can wait for it.
      const script = `if [ "$LANES_ATTEMPT" = 1 ]; then kill -9 ${WORKER_PID}; fi; echo $$ >> shells; sleep 1; echo "end $LANES_ATTEMPT" >> ends`;
      await t.engine.request('setCap', { lane: 'worker', cap: 2 });
      const { ids } = await t.engine.request('addJobs', { jobs: Array.from({ length: 5 }, () => ({ shell: script, cwd: t.dir })) });
      const jobs = await jobsFinished(t.engine, ids, 60_000);
      expect(jobs.map((j) => j.state)).toEqual(Array(5).fill('succeeded'));
      // A first attempt left running would still be in its sleep, or have written "end 1" by
      // the time it is gone: wait for every attempt's shell to be gone, then look.
      const shells = lines(join(t.dir, 'shells')).map(Number);
      expect(shells.length).toBeGreaterThanOrEqual(5);
      for (const pid of shells) await gone(pid, 'an attempt of the job');
      expect(lines(join(t.dir, 'ends'))).toEqual(Array(5).fill('end 2'));
    });

    it('a job that runs past its timeout fails as timed out, with everything it started', async () => {
      const pidFile = join(t.dir, 'child.pid');
      const { id } = await t.engine.request('addJob', { shell: `sleep 300 & echo $! > ${pidFile}; wait`, cwd: t.dir, timeoutSeconds: 1, maxAttempts: 1 });
      const child = await pidIn(pidFile);
      const [job] = await jobsFinished(t.engine, [id], 20_000);
      expect(job).toMatchObject({ state: 'failed', error: 'timed out after 1 s' });
      await gone(child, 'the timed-out job’s child');
    });

    it("a lane's timeout applies to its jobs, and a persistent command that stops answering is restarted", async () => {
      const script = join(t.dir, 'stuck_worker.py');
      writeFileSync(
        script,
        'import json, os, signal, sys\nfor line in sys.stdin:\n    job = json.loads(line)\n    if job["payload"] == "stop":\n        os.kill(os.getpid(), signal.SIGSTOP)\n    print(json.dumps({"id": job["id"], "ok": True, "result": os.getpid()}), flush=True)\n',
      );
      await t.engine.request('addLane', { name: 'stuck', cap: 1, workerCommand: ['python3', script], timeoutSeconds: 1 });
      const first = await t.engine.request('addJob', { lane: 'stuck', payload: 'ok' });
      const [ok] = await jobsFinished(t.engine, [first.id]);
      const stuck = await t.engine.request('addJob', { lane: 'stuck', payload: 'stop', maxAttempts: 1 });
      const after = await t.engine.request('addJob', { lane: 'stuck', payload: 'ok' });
      const [s, a] = await jobsFinished(t.engine, [stuck.id, after.id], 30_000);
      expect(s).toMatchObject({ state: 'failed', error: expect.stringMatching(/^timed out after 1 s; the worker command was restarted/) });
      expect(a!.state).toBe('succeeded');
      expect(a!.result).not.toBe(ok!.result);
      expect(pidAlive(ok!.result as number)).toBe(false);
    });
  });
}

describe('a worker', () => {
  const t = engineEachTest({ cores: 3 });

  it('that sends a message of the wrong shape is ended and its job runs again; the engine carries on', async () => {
    // A stand-in runtime that answers a job with an outcome of no known state.
    const entry = join(t.dir, 'bent-worker.cjs');
    writeFileSync(
      entry,
      "process.on('message', (m) => {\n" +
        "  if (m.t === 'jobs' && m.jobs[0]) process.send({ t: 'done', jobId: m.jobs[0].id, attempt: m.jobs[0].attempt, outcome: { state: 'exploded' }, pull: true });\n" +
        "  if (m.t === 'ping') process.send({ t: 'pong', n: m.n });\n" +
        "});\nprocess.on('disconnect', () => process.exit(0));\nprocess.send({ t: 'pull' });\n",
    );
    const engine = await t.restart({ workerEntry: entry });
    const crash = nextEvent(engine, (e) => e.type === 'scale' && e.data.reason === 'crash');
    const { id } = await engine.request('addJob', { argv: ['true'], maxAttempts: 2 });
    expect((await crash).data).toMatchObject({ detail: expect.stringMatching(/misbehaved/) });
    const [job] = await jobsFinished(engine, [id], 30_000);
    expect(job).toMatchObject({ state: 'failed', attempts: 2 });
    expect((await engine.request('job', { id })).history.map((a) => a.outcome)).toEqual(['interrupted', 'interrupted']);
    expect(engine.status().lanes.length).toBeGreaterThan(0);
  });
});
