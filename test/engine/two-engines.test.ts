// Two engines of one user (two data directories, or two engines of a shared lane on one host)
// number their jobs alike: job 1, attempt 1 exists in both. Ending one engine's job by the id its
// processes carry must never end the other's.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINE_VAR, endJob, processesOfJobs } from '../../electron/job-control/containment.js';
import { within } from '../support/poll.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A process of job 1, attempt 1 of `engine`, as a job's processes carry it; resolves once it runs. */
function jobProcess(engine: string): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', 'echo up; exec sleep 60'], { env: { ...process.env, LANES_JOB_ID: '1', LANES_ATTEMPT: '1', [ENGINE_VAR]: engine }, stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  return within(new Promise((resolve) => child.stdout!.once('data', () => resolve(child))), `a process of ${engine}'s job started`);
}

describe.runIf(process.platform === 'linux')('two engines, one user', () => {
  it("finds only its own engine's job processes by id", async () => {
    const a = await jobProcess('host-aaaaaaaaaaaa');
    const b = await jobProcess('host-bbbbbbbbbbbb');
    const all = () => true;
    expect(await processesOfJobs('host-aaaaaaaaaaaa', all)).toEqual([a.pid]);
    expect(await processesOfJobs('host-bbbbbbbbbbbb', all)).toEqual([b.pid]);
  });

  it("ending a job ends that engine's processes and leaves the other's running", async () => {
    const a = await jobProcess('host-aaaaaaaaaaaa');
    const b = await jobProcess('host-bbbbbbbbbbbb');
    const aExit = new Promise((resolve) => a.once('exit', (_code, signal) => resolve(signal)));
    await endJob({ id: 1, attempt: 1 }, { engine: 'host-aaaaaaaaaaaa' });
    expect(await within(aExit, "the ended job's process exiting")).toBe('SIGKILL');
    expect(b.exitCode).toBeNull();
    expect(b.signalCode).toBeNull();
    expect(await processesOfJobs('host-bbbbbbbbbbbb', () => true)).toEqual([b.pid]);
  });
});
