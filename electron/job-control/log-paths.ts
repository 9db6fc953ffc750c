// Where a job's output lies, for the worker that writes it and the engine that reads it. A job
// that writes to one stream only (most of them) keeps one file: that stream's, which then is
// also "both together". The file of both streams is made only once the second stream speaks,
// starting as a copy of the first one's, so a kept shell job leaves at most one file unless it
// wrote to both stdout and stderr.
import { lstatSync } from 'node:fs';

/** A job's log files: each stream, and both together with a line between attempts. */
export interface LogPaths {
  stdoutPath: string;
  stderrPath: string;
  allPath: string;
}

export type LogStream = 'stdout' | 'stderr' | 'all';

const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** The file to read for `stream`: for both together, the one stream's file when only one spoke. */
export function logFileFor(paths: LogPaths, stream: LogStream): string {
  if (stream === 'stdout') return paths.stdoutPath;
  if (stream === 'stderr') return paths.stderrPath;
  if (exists(paths.allPath)) return paths.allPath;
  return exists(paths.stderrPath) && !exists(paths.stdoutPath) ? paths.stderrPath : paths.stdoutPath;
}

/** Whether the job wrote anything at all. */
export function anyLog(paths: LogPaths): boolean {
  return exists(paths.stdoutPath) || exists(paths.stderrPath);
}
