// A lane whose worker command stays up between jobs (a script that loads a model once) and
// answers one JSON line per job. Protocol: docs/worker-protocol.md. Its answers are untrusted:
// a line too long, an answer too deep or too large fails that job, never this process.
import type { JobSpec } from '../../shared/model.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { JSON_DEPTH_MAX, RESULT_MAX_BYTES } from '../../shared/limits.js';
import { jsonProblem } from '../../shared/json-limits.js';
import { WORKER_ENV, type JobAssignment, type JobOutcome } from '../worker-protocol/protocol.js';
import type { RunningProcess } from './shell-job.js';
import { JobLogs, type LogWriter } from './job-logs.js';
import { inCgroup, makeCgroup, removeCgroup } from '../job-control/containment.js';
import { signalGroup, stopGroup, TIMEOUT_GRACE_MS } from '../job-control/process-group.js';
import { baseEnv } from './job-env.js';
import { LineReader } from './line-reader.js';

interface Current {
  job: JobAssignment;
  logs: JobLogs;
  stdout: LogWriter;
  stderr: LogWriter;
  /** When it went to the command (which may still be loading). */
  sentAt: number;
  resolve: (o: JobOutcome) => void;
  stopping: 'cancelled' | 'timed out' | null;
  timer: NodeJS.Timeout | null;
}

const isReadyLine = (line: string): boolean => {
  try {
    return (JSON.parse(line) as { ready?: unknown } | null)?.ready === true;
  } catch {
    return false;
  }
};

/** A line longer than an answer can be is not one; what is beyond this is dropped. */
const LINE_MAX_BYTES = RESULT_MAX_BYTES + 64 * 1024;

export class PersistentCommand {
  private child: ChildProcessWithoutNullStreams | null = null;
  private group: string | null = null;
  private current: Current | null = null;
  private answered = false;
  /** When the command said it had loaded (a `{"ready": true}` line); null until it does, or if it never says. */
  private readyAt: number | null = null;
  /** The command exited before it answered anything: it cannot start, so trying again at once is no use. */
  diedWhileStarting = false;

  constructor(
    private readonly argv: string[],
    private readonly logCap: number,
    private readonly cwd: string | undefined,
    /** Where its cgroup goes (containment.ts), or null. */
    private readonly cgroupBase: string | null,
    /** A `{"id": …, "progress": …}` line: how far the job it names has got. */
    private readonly onProgress: (jobId: number, progress: unknown) => void = () => {},
  ) {}

  run(job: JobAssignment): RunningProcess {
    const child = this.child ?? this.start();
    const logs = new JobLogs(job, this.logCap);
    const done = new Promise<JobOutcome>((resolve) => {
      this.current = { job, logs, stdout: logs.stdout, stderr: logs.stderr, sentAt: Date.now(), resolve, stopping: null, timer: null };
    });
    const stopFor = (why: 'cancelled' | 'timed out', graceMs: number) => {
      if (!this.current || this.current.job.id !== job.id || this.current.stopping) return;
      // The command is mid-job with state we cannot see; the only clean stop is a restart.
      this.current.stopping = why;
      this.stop(graceMs);
    };
    if (job.timeoutMs !== null) this.current!.timer = setTimeout(() => stopFor('timed out', TIMEOUT_GRACE_MS), job.timeoutMs);
    const spec = JSON.parse(job.specJson) as JobSpec;
    const payload = spec.kind === 'payload' ? spec.payload : spec;
    child.stdin.write(JSON.stringify({ id: job.id, attempt: job.attempt, payload }) + '\n');
    return { pgid: child.pid, done, cancel: (graceMs) => stopFor('cancelled', graceMs) };
  }

  /** Ends the command and everything it started. */
  stop(graceMs = 0): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    stopGroup(pid, graceMs);
  }

  private start(): ChildProcessWithoutNullStreams {
    this.readyAt = null;
    this.answered = false;
    this.diedWhileStarting = false;
    this.group = this.newGroup();
    const command = this.group ? inCgroup(this.group, this.argv) : this.argv;
    const child = spawn(command[0]!, command.slice(1), {
      cwd: this.cwd ?? homedir(),
      // Not any one job's id: the command outlives the job it started for.
      env: { ...baseEnv(), [WORKER_ENV.lane]: process.env[WORKER_ENV.lane] ?? '' },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.child = child;
    const lines = new LineReader(LINE_MAX_BYTES, (line) => this.onLine(line), () => this.onOverlong());
    child.stdout.on('data', (d: Buffer) => lines.push(d));
    child.stderr.on('data', (d: Buffer) => this.current?.stderr.write(d));
    child.stdin.on('error', () => {}); // EPIPE when it dies mid-write; 'exit' reports it.
    let startError: Error | undefined;
    child.on('error', (e) => (startError = e));
    child.on('close', (code, signal) => {
      if (this.child === child) this.child = null;
      if (!this.answered && !this.current?.stopping) this.diedWhileStarting = true;
      signalGroup(child.pid ?? -1, 'SIGKILL');
      if (this.group) void removeCgroup(this.group);
      const why = startError
        ? `could not start worker command: ${startError.message}`
        : `worker command exited ${signal ? `on ${signal}` : `with code ${code}`} during the job`;
      const stopping = this.current?.stopping;
      if (stopping === 'cancelled') this.finish({ state: 'cancelled', exitCode: code, error: 'cancelled while running' });
      else if (stopping === 'timed out') this.finish({ state: 'failed', exitCode: code, error: `timed out after ${(this.current!.job.timeoutMs ?? 0) / 1000} s; the worker command was restarted` });
      else this.finish({ state: 'failed', exitCode: code, error: why });
    });
    return child;
  }

  private newGroup(): string | null {
    if (this.cgroupBase === null || process.platform === 'win32') return null;
    return makeCgroup(join(this.cgroupBase, `command-${process.pid}`));
  }

  private onLine(line: string): void {
    // `{"ready": true}`: loaded. What a job waited for that is shown apart from the job's own time.
    if (this.readyAt === null && isReadyLine(line)) {
      this.readyAt = Date.now();
      return;
    }
    const cur = this.current;
    if (!cur) return;
    const reply = parseReply(line);
    // How far it has got: not an answer, and not output either.
    if (reply?.kind === 'progress') return this.onProgress(reply.id, reply.progress);
    // Anything that is not this job's answer is output the command printed: keep it in the log.
    if (!reply || reply.id !== cur.job.id) {
      cur.stdout.write(line + '\n');
      return;
    }
    this.answered = true;
    const problem = reply.ok ? jsonProblem(reply.result ?? null, { maxDepth: JSON_DEPTH_MAX, maxBytes: RESULT_MAX_BYTES }) : null;
    // stderr travels on its own pipe; what the command wrote there before answering is usually
    // read in the same turn, so finishing a turn later keeps it with this job.
    setImmediate(() =>
      this.finish(
        problem
          ? { state: 'failed', exitCode: null, error: `the worker's answer ${problem}` }
          : reply.ok
            ? { state: 'succeeded', exitCode: null, error: null, result: reply.result ?? null }
            : { state: 'failed', exitCode: null, error: typeof reply.error === 'string' ? reply.error : 'worker reported failure', ...(reply.retry === false ? { final: true } : {}) },
      ),
    );
  }

  /** A line longer than any answer may be: it cannot be read as one, so the job cannot finish well. */
  private onOverlong(): void {
    this.current?.stdout.write(`[lanes: a line of more than ${LINE_MAX_BYTES.toLocaleString('en-US')} bytes was dropped]\n`);
    this.finish({ state: 'failed', exitCode: null, error: `the worker answered with a line of more than ${LINE_MAX_BYTES.toLocaleString('en-US')} bytes` });
  }

  private finish(outcome: JobOutcome): void {
    const cur = this.current;
    if (!cur) return;
    this.current = null;
    if (cur.timer) clearTimeout(cur.timer);
    cur.logs.close();
    const loadMs = this.readyAt !== null && this.readyAt > cur.sentAt ? this.readyAt - cur.sentAt : undefined;
    cur.resolve(loadMs === undefined ? outcome : { ...outcome, loadMs });
  }
}

interface Reply {
  kind: 'answer';
  id: number;
  ok: boolean;
  result?: unknown;
  error?: unknown;
  /** `false` with `ok: false`: the payload itself is refused, so no retry would do better. */
  retry?: unknown;
}

/** `{"id": 17, "progress": …}`: a report, read by the relay (shared/progress.ts). */
interface ProgressLine {
  kind: 'progress';
  id: number;
  progress: unknown;
}

function parseReply(line: string): Reply | ProgressLine | null {
  if (!line.startsWith('{')) return null;
  try {
    const v = JSON.parse(line) as Partial<Omit<Reply, 'kind'> & Omit<ProgressLine, 'kind'>> | null;
    if (typeof v?.id !== 'number') return null;
    // An answer is an answer whatever else it carries: a `progress` key beside `ok` does not make it a report.
    if (typeof v.ok === 'boolean') return { ...v, kind: 'answer' } as Reply;
    return 'progress' in v ? { kind: 'progress', id: v.id, progress: v.progress } : null;
  } catch {
    return null;
  }
}
