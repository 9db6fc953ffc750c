// One file for a finished job that wrote to both streams: its stdout, its stderr and both together,
// one after another behind a header line that says how long each is. Three files per such job
// would be most of a year's files in logs/; the bytes are the same either way. The worker joins
// them when the job ends, and splits them again before a retry appends to them.
//
// The joined file is written beside its final name and renamed into place, so a reader finds the
// three files or the one, never a half-written join; the three go only after the rename.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { LogPaths, LogSpan, LogStream } from './log-types.js';

const HEADER = /^lanes-log 1 (\d{1,15}) (\d{1,15}) (\d{1,15})\n/;
const HEADER_MAX = 64;
const ORDER = ['stdout', 'stderr', 'all'] as const;
const CHUNK = 1 << 16;

const READ = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);
/** A new file only: whatever lies at its name (a link above all) is removed first, never written through. */
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

function createAfresh(path: string): number {
  rmSync(path, { force: true });
  return openSync(path, CREATE, 0o600);
}

const pathOf = (paths: LogPaths, stream: LogStream) => (stream === 'stdout' ? paths.stdoutPath : stream === 'stderr' ? paths.stderrPath : paths.allPath);

/**
 * Where each stream lies in a joined file, or null when its header does not parse or its lengths
 * do not add up to the file: a file in the data directory is not trusted to be what Lanes wrote.
 */
export function joinedSpans(path: string): Record<LogStream, LogSpan> | null {
  let fd: number;
  try {
    fd = openSync(path, READ);
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(HEADER_MAX);
    const n = readSync(fd, head, 0, HEADER_MAX, 0);
    const m = HEADER.exec(head.subarray(0, n).toString('latin1'));
    if (!m) return null;
    const sizes = [Number(m[1]), Number(m[2]), Number(m[3])];
    let at = m[0].length;
    if (at + sizes[0]! + sizes[1]! + sizes[2]! !== fstatSync(fd).size) return null;
    const spans = {} as Record<LogStream, LogSpan>;
    ORDER.forEach((stream, i) => {
      spans[stream] = { path, start: at, size: sizes[i]! };
      at += sizes[i]!;
    });
    return spans;
  } finally {
    closeSync(fd);
  }
}

/** Copies `size` bytes of `from` (at `start`) to the end of `to`. */
function copyInto(to: number, from: number, start: number, size: number): void {
  const buf = Buffer.alloc(Math.min(CHUNK, Math.max(1, size)));
  let done = 0;
  while (done < size) {
    const n = readSync(from, buf, 0, Math.min(buf.length, size - done), start + done);
    if (n === 0) throw new Error('the file was shorter than it said');
    let w = 0;
    while (w < n) w += writeSync(to, buf, w, n - w);
    done += n;
  }
}

/**
 * Joins a finished job's three files into one. Only when all three are there (both streams spoke):
 * a job of one stream already has one file. On any failure (a full disk) the three stay as they
 * are and the partial file goes: nothing the job wrote is lost to the join.
 */
export function joinLogs(paths: LogPaths): boolean {
  // Both together exist only once both streams spoke: most jobs stop here, at one stat that throws nothing.
  if (lstatSync(paths.allPath, { throwIfNoEntry: false }) === undefined) return false;
  const parts: number[] = [];
  const partial = `${paths.joinedPath}.part`;
  let out: number | null = null;
  try {
    // A link at any of the three fails the open (ELOOP): nothing is read through it, and the files stay.
    for (const stream of ORDER) parts.push(openSync(pathOf(paths, stream), READ));
    const sizes = parts.map((fd) => fstatSync(fd).size);
    out = createAfresh(partial);
    writeSync(out, Buffer.from(`lanes-log 1 ${sizes.join(' ')}\n`));
    parts.forEach((fd, i) => copyInto(out!, fd, 0, sizes[i]!));
    closeSync(out);
    out = null;
    renameSync(partial, paths.joinedPath);
  } catch {
    // One of the three missing (nothing to join), or no room: the files stay as they are.
    if (out !== null) closeSync(out);
    rmSync(partial, { force: true });
    return false;
  } finally {
    for (const fd of parts) closeSync(fd);
  }
  for (const stream of ORDER) rmSync(pathOf(paths, stream), { force: true });
  return true;
}

/**
 * Before a retry writes to a joined job's logs: the three files again, as they were when it was
 * joined, and the joined file gone. A joined file that does not parse holds nothing Lanes can
 * read back, and would hide the retry's output: it goes, and the retry starts new files.
 */
export function splitLogs(paths: LogPaths): void {
  const spans = joinedSpans(paths.joinedPath);
  if (!spans) {
    rmSync(paths.joinedPath, { force: true });
    return;
  }
  const from = openSync(paths.joinedPath, READ);
  try {
    for (const stream of ORDER) {
      const span = spans[stream];
      // With the joined file there the three are not: anything at their names (a link) is no log of this job's.
      const to = createAfresh(pathOf(paths, stream));
      try {
        copyInto(to, from, span.start, span.size!);
      } finally {
        closeSync(to);
      }
    }
  } finally {
    closeSync(from);
  }
  rmSync(paths.joinedPath, { force: true });
}

/**
 * Both together, begun as a copy of the stream that spoke first: read without following a link,
 * written only as a new file (a link or a file at its name fails it, EEXIST). Throws on either.
 */
export function copyLog(from: string, to: string): void {
  const src = openSync(from, READ);
  let dst: number | null = null;
  try {
    dst = openSync(to, CREATE, 0o600);
    copyInto(dst, src, 0, fstatSync(src).size);
  } finally {
    closeSync(src);
    if (dst !== null) closeSync(dst);
  }
}
