// Where a job's output lies, for the worker that writes it and the engine that reads it. A job
// that writes to one stream only (most of them) keeps one file: that stream's, which then is
// also "both together". The file of both streams is made only once the second stream speaks,
// starting as a copy of the first one's. When a job that wrote to both ends, its worker joins the
// three into one file (log-join.ts), so a kept job leaves one file whatever it wrote.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { joinedSpans } from './log-join.js';
import type { LogPaths, LogSpan, LogStream } from './log-types.js';

export type { LogPaths, LogSpan, LogStream } from './log-types.js';

const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/**
 * Where each stream's log lies now: the joined file's parts, read from its header once, or each
 * stream's own file, with both together being the one stream's file when only one spoke.
 */
export function logSpans(paths: LogPaths): Record<LogStream, LogSpan> {
  if (exists(paths.joinedPath)) {
    // A joined file that does not parse is read as an empty log, never as another stream's bytes.
    const empty: LogSpan = { path: paths.joinedPath, start: 0, size: 0 };
    return joinedSpans(paths.joinedPath) ?? { stdout: empty, stderr: empty, all: empty };
  }
  const whole = (path: string): LogSpan => ({ path, start: 0, size: null });
  const all = exists(paths.allPath) ? paths.allPath : exists(paths.stderrPath) && !exists(paths.stdoutPath) ? paths.stderrPath : paths.stdoutPath;
  return { stdout: whole(paths.stdoutPath), stderr: whole(paths.stderrPath), all: whole(all) };
}

/** Where to read `stream`. */
export const logSpanFor = (paths: LogPaths, stream: LogStream): LogSpan => logSpans(paths)[stream];

/** Whether the job wrote anything at all. */
export function anyLog(paths: LogPaths): boolean {
  return exists(paths.stdoutPath) || exists(paths.stderrPath) || exists(paths.joinedPath);
}

/** An open span: its descriptor (the caller closes it), where it starts and how long it is now. */
export interface OpenSpan {
  fd: number;
  start: number;
  size: number;
}

/** Opens a span for reading, never through a link; null when its file is not there. */
export function openSpan(span: LogSpan): OpenSpan | null {
  let fd: number;
  try {
    fd = openSync(span.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return null;
  }
  const fileSize = fstatSync(fd).size;
  const size = span.size === null ? fileSize : Math.max(0, Math.min(span.size, fileSize - span.start));
  return { fd, start: span.start, size };
}

/** Reads `length` bytes of an open span from `at` (relative to its start). */
export function readSpan(open: OpenSpan, at: number, length: number): Buffer {
  const buf = Buffer.alloc(Math.max(0, Math.min(length, open.size - at)));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(open.fd, buf, got, buf.length - got, open.start + at + got);
    if (n === 0) break;
    got += n;
  }
  return got === buf.length ? buf : buf.subarray(0, got);
}

export const closeSpan = (open: OpenSpan) => closeSync(open.fd);
