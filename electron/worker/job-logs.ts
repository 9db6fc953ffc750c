// A job's output as it is kept: stdout and stderr each in a capped file, and both together in a
// third, in the order they came, so a person reads one story with the error where it happened.
// Every file an attempt after the first writes to begins that attempt with a line saying so.
import { CappedLog } from '../job-control/capped-log.js';
import type { JobAssignment } from '../worker-protocol/protocol.js';

export interface LogWriter {
  write(chunk: Buffer | string): void;
  close(): void;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Local time as 14:03:09. Not through Intl: a DateTimeFormat costs a worker about 20 ms to build,
 * and every worker that starts is part of a cold start a person waits on.
 */
const clock = (at: number) => {
  const d = new Date(at);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

/** The line between attempts. */
export const attemptLine = (attempt: number, at: number) => `── attempt ${attempt} · ${clock(at)} ──\n`;

export class JobLogs {
  readonly stdout: LogWriter;
  readonly stderr: LogWriter;
  private readonly all: CappedLog;

  constructor(job: Pick<JobAssignment, 'attempt' | 'stdoutPath' | 'stderrPath' | 'allPath'>, cap: number) {
    this.all = new CappedLog(job.allPath, cap);
    const marked = new Set<CappedLog>();
    // Opened lazily as before: a job that prints nothing leaves no file, and no attempt line.
    const mark = (log: CappedLog) => {
      if (job.attempt <= 1 || marked.has(log)) return;
      marked.add(log);
      log.write(attemptLine(job.attempt, Date.now()));
    };
    const writer = (path: string): LogWriter => {
      const own = new CappedLog(path, cap);
      return {
        write: (chunk) => {
          mark(own);
          own.write(chunk);
          mark(this.all);
          this.all.write(chunk);
        },
        close: () => own.close(),
      };
    };
    this.stdout = writer(job.stdoutPath);
    this.stderr = writer(job.stderrPath);
  }

  close(): void {
    this.stdout.close();
    this.stderr.close();
    this.all.close();
  }
}
