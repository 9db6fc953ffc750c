// A job's output as it is kept: stdout and stderr each in a capped file, and both together in a
// third, in the order they came, so a person reads one story with the error where it happened.
// Every file an attempt after the first writes to begins that attempt with a line saying so.
import { CappedLog } from './capped-log.js';
import type { JobAssignment } from './protocol.js';

export interface LogWriter {
  write(chunk: Buffer | string): void;
  close(): void;
}

const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

/** The line between attempts. */
export const attemptLine = (attempt: number, at: number) => `── attempt ${attempt} · ${clock.format(at)} ──\n`;

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
