// A job's output as it is kept: stdout and stderr each in a capped file, and both together in a
// third, in the order they came, so a person reads one story with the error where it happened.
// The third is made only once both streams have spoken (job-control/log-paths.ts): until then the
// one stream's file is the whole story, and a job leaves one file instead of two.
// Every file an attempt after the first writes to begins that attempt with a line saying so.
// A job that ends having written to both keeps one file: the three joined (job-control/log-join.ts).
import { lstatSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { CappedLog } from '../job-control/capped-log.js';
import { copyLog, joinLogs, splitLogs } from '../job-control/log-join.js';
import type { LogPaths } from '../job-control/log-paths.js';
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
  private readonly paths: LogPaths;

  constructor(job: Pick<JobAssignment, 'attempt' | 'stdoutPath' | 'stderrPath' | 'allPath' | 'joinedPath'>, cap: number) {
    this.paths = { stdoutPath: job.stdoutPath, stderrPath: job.stderrPath, allPath: job.allPath, joinedPath: job.joinedPath };
    const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
    // A link at one of its names, or at its folder of a thousand jobs' logs (logs/<n>/), is no log
    // Lanes wrote: it goes before anything reads or writes there (O_NOFOLLOW guards a name, not the folders above it).
    const folder = dirname(job.stdoutPath);
    if (/^\d+$/.test(basename(folder)) && lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(folder, { force: true });
    for (const path of [job.stdoutPath, job.stderrPath, job.allPath, job.joinedPath, `${job.joinedPath}.part`]) {
      if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) rmSync(path, { force: true });
    }
    if (job.attempt > 1 && exists(job.joinedPath)) {
      try {
        splitLogs(this.paths);
      } catch {
        // No room to split: this attempt's output starts files of its own beside the joined one.
      }
    }
    this.all = new CappedLog(job.allPath, cap);
    const marked = new Set<CappedLog>();
    /** Whether both together go to a file of their own: once both streams have a file (an earlier attempt's counts). */
    let together = exists(job.allPath);
    // Opened lazily as before: a job that prints nothing leaves no file, and no attempt line.
    const mark = (log: CappedLog) => {
      if (job.attempt <= 1 || marked.has(log)) return;
      marked.add(log);
      log.write(attemptLine(job.attempt, Date.now()));
    };
    /** Which stream has written in this attempt. */
    const spoke = new Set<string>();
    const writer = (path: string, other: string): LogWriter => {
      const own = new CappedLog(path, cap);
      return {
        write: (chunk) => {
          if (!spoke.has(path)) {
            spoke.add(path);
            // The second stream speaks (now, or in an earlier attempt): both together start as
            // what the first one said so far, never over a file that is there and never read
            // through a link planted at the first one's name (copyLog).
            if (!together && (spoke.has(other) || exists(other))) {
              try {
                copyLog(other, job.allPath);
              } catch {
                // Made meanwhile, or no room: the capped log appends to what is there, or stops with a mark.
              }
              together = true;
              // The copy holds this attempt's line already when the other stream wrote in it.
              if (spoke.has(other)) marked.add(this.all);
            }
          }
          mark(own);
          own.write(chunk);
          if (!together) return;
          mark(this.all);
          this.all.write(chunk);
        },
        close: () => own.close(),
      };
    };
    this.stdout = writer(job.stdoutPath, job.stderrPath);
    this.stderr = writer(job.stderrPath, job.stdoutPath);
  }

  close(): void {
    this.stdout.close();
    this.stderr.close();
    this.all.close();
    joinLogs(this.paths);
  }
}
