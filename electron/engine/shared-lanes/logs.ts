// A shared job's output for every engine of the lane. The engine that runs a job writes its
// output to files as for any job; the end of each (stdout, stderr, both together: the last 16 KiB
// of each) goes to Redis as the job's
// one BullMQ log row, while it runs (every couple of seconds, when it grew) and when it ends.
// Any engine reads it from there; the engine that ran it reads its own files while it has them.
import { rmSync } from 'node:fs';
import { z } from 'zod';
import type { LogChunk } from '../../../shared/model.js';
import type { ParsedInput } from '../../../shared/requests.js';
import { headDropped, leadingContinuation } from '../queues/read-log.js';
import { anyLog, closeSpan, logSpans, openSpan, readSpan, type LogPaths, type LogSpan } from '../../job-control/log-paths.js';

/** Of each stream, the tail kept in Redis. */
export const TAIL_BYTES = 16 * 1024;

interface StreamTail {
  /** Bytes in the log when the tail was taken. */
  size: number;
  text: string;
  /** Output was dropped before the tail (beyond the tail, or by the log's own cap). */
  cut: boolean;
}

export interface TailRow {
  v: 1;
  stdout: StreamTail;
  stderr: StreamTail;
  /** Both streams as they came (absent in rows an older engine wrote). */
  all?: StreamTail;
}

/** The end of a stream's log, never starting inside a character; null when the job wrote nothing there. */
function tailOf(span: LogSpan): StreamTail | null {
  const open = openSpan(span);
  if (!open) return null;
  try {
    const size = open.size;
    const from = Math.max(0, size - TAIL_BYTES);
    const buf = readSpan(open, from, size - from);
    const skip = from > 0 ? leadingContinuation(buf) : 0;
    return { size, text: buf.subarray(skip).toString('utf8'), cut: from + skip > 0 || headDropped(open) };
  } finally {
    closeSpan(open);
  }
}

/** The row for Redis, or null when the job has printed nothing (most jobs of a busy lane). */
export function tailRow(paths: LogPaths): string | null {
  // Checked without opening, which costs an error object per file not there.
  if (!anyLog(paths)) return null;
  const spans = logSpans(paths);
  const stdout = tailOf(spans.stdout);
  const stderr = tailOf(spans.stderr);
  if (!stdout && !stderr) return null;
  const none = { size: 0, text: '', cut: false };
  return JSON.stringify({ v: 1, stdout: stdout ?? none, stderr: stderr ?? none, all: tailOf(spans.all) ?? none } satisfies TailRow);
}

/** How big the logs are now: a running job's tail is sent again only when they grew. */
export function sizesOf(paths: LogPaths): number {
  let n = 0;
  const spans = logSpans(paths);
  for (const stream of ['stdout', 'stderr'] as const) {
    const open = openSpan(spans[stream]);
    if (!open) continue; // not written yet
    n += open.size;
    closeSpan(open);
  }
  return n;
}

export function removeFiles(paths: LogPaths): void {
  for (const p of Object.values(paths)) rmSync(p, { force: true });
}

const streamShape = z.object({ size: z.number().int().min(0), text: z.string().max(TAIL_BYTES * 2), cut: z.boolean() });
const rowShape = z.object({ v: z.literal(1), stdout: streamShape, stderr: streamShape, all: streamShape.optional() });

/**
 * A read of the tail as if it were the file: offsets count bytes of the whole log, so following
 * a job that runs elsewhere reads on from where it left off, and a gap says what was not kept.
 */
export function chunkOf(row: string | undefined, input: ParsedInput<'logTail'>): LogChunk {
  const empty: LogChunk = { jobId: input.id, stream: input.stream, offset: 0, nextOffset: 0, text: '', truncated: false };
  let parsed: TailRow;
  try {
    const r = rowShape.safeParse(JSON.parse(row ?? 'null'));
    if (!r.success) return empty;
    parsed = r.data as TailRow;
  } catch {
    return empty;
  }
  const none = { size: 0, text: '', cut: false };
  const tail = (input.stream === 'all' ? parsed.all : parsed[input.stream]) ?? none;
  const bytes = Buffer.from(tail.text, 'utf8');
  const start = Math.max(0, tail.size - bytes.length);
  let from = input.offset !== undefined && input.offset <= tail.size ? Math.max(input.offset, start) : Math.max(start, tail.size - input.maxBytes);
  const end = Math.min(tail.size, from + input.maxBytes);
  let slice = bytes.subarray(from - start, end - start);
  // Never half a character at the start of a tail read.
  let skip = 0;
  while (input.offset === undefined && skip < slice.length && skip < 3 && (slice[skip]! & 0xc0) === 0x80) skip++;
  slice = slice.subarray(skip);
  from += skip;
  return { jobId: input.id, stream: input.stream, offset: from, nextOffset: from + slice.length, text: slice.toString('utf8'), truncated: tail.cut || start > 0 };
}
