// A lane whose worker command stays up between jobs (a script that loads a model once) and
// answers one JSON line per job. Protocol: docs/worker-protocol.md.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { homedir } from 'node:os';
import { WORKER_ENV, type JobAssignment, type JobOutcome } from './protocol.js';
import type { RunningProcess } from './shell-job.js';
import { CappedLog } from './capped-log.js';
import { signalGroup } from './process-group.js';
import { jobEnv } from './job-env.js';

interface Current {
  job: JobAssignment;
  stdout: CappedLog;
  stderr: CappedLog;
  resolve: (o: JobOutcome) => void;
  cancelled: boolean;
}

export class PersistentCommand {
  private child: ChildProcessWithoutNullStreams | null = null;
  private current: Current | null = null;

  constructor(
    private readonly argv: string[],
    private readonly logCap: number,
    private readonly cwd: string | undefined,
  ) {}

  run(job: JobAssignment): RunningProcess {
    const child = this.child ?? this.start(job);
    const stdout = new CappedLog(job.stdoutPath, this.logCap);
    const stderr = new CappedLog(job.stderrPath, this.logCap);
    const done = new Promise<JobOutcome>((resolve) => {
      this.current = { job, stdout, stderr, resolve, cancelled: false };
    });
    const payload = job.spec.kind === 'payload' ? job.spec.payload : job.spec;
    child.stdin.write(JSON.stringify({ id: job.id, attempt: job.attempt, payload }) + '\n');
    return {
      pgid: child.pid,
      done,
      cancel: (graceMs) => {
        if (!this.current || this.current.job.id !== job.id) return;
        // The command is mid-job with state we cannot see; the only clean stop is a restart.
        this.current.cancelled = true;
        this.stop(graceMs);
      },
    };
  }

  /** Ends the command and everything it started. */
  stop(graceMs = 0): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    signalGroup(pid, graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
    if (graceMs > 0) setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs).unref();
  }

  private start(first: JobAssignment): ChildProcessWithoutNullStreams {
    const [cmd, ...args] = this.argv;
    const child = spawn(cmd!, args, {
      cwd: this.cwd ?? homedir(),
      env: { ...jobEnv(first, undefined), [WORKER_ENV.lane]: process.env[WORKER_ENV.lane] ?? '' },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.child = child;
    createInterface({ input: child.stdout }).on('line', (line) => this.onLine(line));
    child.stderr.on('data', (d: Buffer) => this.current?.stderr.write(d));
    child.stdin.on('error', () => {}); // EPIPE when it dies mid-write; 'exit' reports it.
    let startError: Error | undefined;
    child.on('error', (e) => (startError = e));
    child.on('close', (code, signal) => {
      if (this.child === child) this.child = null;
      signalGroup(child.pid ?? -1, 'SIGKILL');
      const why = startError
        ? `could not start worker command: ${startError.message}`
        : `worker command exited ${signal ? `on ${signal}` : `with code ${code}`} during the job`;
      this.finish(this.current?.cancelled ? { state: 'cancelled', exitCode: code, error: 'cancelled while running' } : { state: 'failed', exitCode: code, error: why });
    });
    return child;
  }

  private onLine(line: string): void {
    const cur = this.current;
    if (!cur) return;
    const reply = parseReply(line);
    // Anything that is not this job's answer is output the command printed: keep it in the log.
    if (!reply || reply.id !== cur.job.id) {
      cur.stdout.write(line + '\n');
      return;
    }
    // stderr travels on its own pipe; what the command wrote there before answering is usually
    // read in the same turn, so finishing a turn later keeps it with this job.
    setImmediate(() => this.finish(
      reply.ok
        ? { state: 'succeeded', exitCode: null, error: null, result: reply.result ?? null }
        : { state: 'failed', exitCode: null, error: typeof reply.error === 'string' ? reply.error : 'worker reported failure' },
    ));
  }

  private finish(outcome: JobOutcome): void {
    const cur = this.current;
    if (!cur) return;
    this.current = null;
    cur.stdout.close();
    cur.stderr.close();
    cur.resolve(outcome);
  }
}

interface Reply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: unknown;
}

function parseReply(line: string): Reply | null {
  if (!line.startsWith('{')) return null;
  try {
    const v = JSON.parse(line) as Partial<Reply>;
    return typeof v.id === 'number' && typeof v.ok === 'boolean' ? (v as Reply) : null;
  } catch {
    return null;
  }
}
