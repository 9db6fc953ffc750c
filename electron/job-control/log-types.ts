// The names of a job's log files and of the parts a reader asks for: what the writer (the worker,
// log-join.ts) and the readers (log-paths.ts, the engine) share, apart from either, so that
// neither has to import the other to know them.

/** A job's log files: each stream, both together with a line between attempts, and all three joined. */
export interface LogPaths {
  stdoutPath: string;
  stderrPath: string;
  allPath: string;
  joinedPath: string;
}

export type LogStream = 'stdout' | 'stderr' | 'all';

/** Where one stream's log is: a whole file, or a part of the joined one. */
export interface LogSpan {
  path: string;
  start: number;
  /** Bytes from `start`; null: to the end of the file as it is when read. */
  size: number | null;
}
