// One job of a shell lane: a child in its own process group, output streamed to capped logs.
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import type { JobAssignment, JobOutcome } from './protocol.js';
import { CappedLog } from './capped-log.js';
import { signalGroup } from './process-group.js';
import { jobEnv } from './job-env.js';

export interface RunningProcess {
  pgid: number | undefined;
  done: Promise<JobOutcome>;
  cancel(graceMs: number): void;
}

export function runShellJob(job: JobAssignment, logCap: number): RunningProcess {
  const spec = job.spec;
  if (spec.kind === 'payload') throw new Error('payload jobs need a lane with a worker command');
  const stdout = new CappedLog(job.stdoutPath, logCap);
  const stderr = new CappedLog(job.stderrPath, logCap);
  const options = {
    cwd: spec.cwd ?? homedir(),
    env: jobEnv(job, spec.env),
    // Its own process group, so cancelling or a dying worker can end everything it started.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  };
  const child =
    spec.kind === 'argv'
      ? spawn(spec.argv[0]!, spec.argv.slice(1), options)
      : spawn(spec.script, { ...options, shell: process.env.SHELL || true });

  let cancelled = false;
  let killTimer: NodeJS.Timeout | undefined;
  child.stdout.on('data', (d: Buffer) => stdout.write(d));
  child.stderr.on('data', (d: Buffer) => stderr.write(d));

  const done = new Promise<JobOutcome>((resolve) => {
    let spawnError: Error | undefined;
    child.on('error', (e) => (spawnError = e));
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      // Whatever the job left running in its group goes with it.
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      if (spawnError) stderr.write(`lanes: could not start ${describe(spec)}: ${spawnError.message}\n`);
      stdout.close();
      stderr.close();
      if (cancelled) resolve({ state: 'cancelled', exitCode: code, error: 'cancelled while running' });
      else if (spawnError) resolve({ state: 'failed', exitCode: null, error: `could not start: ${spawnError.message}` });
      else if (code === 0) resolve({ state: 'succeeded', exitCode: 0, error: null });
      else resolve({ state: 'failed', exitCode: code, error: signal ? `killed by ${signal}` : `exited with code ${code}` });
    });
  });

  return {
    pgid: child.pid,
    done,
    cancel(graceMs) {
      if (cancelled || child.pid === undefined) return;
      cancelled = true;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), graceMs);
    },
  };
}

function describe(spec: { kind: 'argv'; argv: string[] } | { kind: 'shell'; script: string }): string {
  return spec.kind === 'argv' ? spec.argv[0]! : 'the shell';
}
