// Reading a job's log for a client: a tail, or from an offset to follow it, never splitting a
// UTF-8 character, and saying whether the head was dropped to keep the file within its cap.
import type { LogChunk } from '../../../shared/model.js';
import type { ParsedInput } from '../../../shared/requests.js';
import { TRUNCATION_MARK } from '../../job-control/capped-log.js';
import { closeSpan, openSpan, readSpan, type LogSpan, type OpenSpan } from '../../job-control/log-paths.js';

/** Offsets are within the stream's own log, wherever it lies: a job's logs joined as it ends keep a follower's place. */
export function readLog(span: LogSpan, input: ParsedInput<'logTail'>): LogChunk {
  const jobId = input.id;
  // Never through a link: a log is a file the worker wrote, or nothing.
  const open = openSpan(span);
  if (!open) return { jobId, stream: input.stream, offset: 0, nextOffset: 0, text: '', truncated: false };
  try {
    const size = open.size;
    // A log compacted since the caller's last read is shorter than their offset: start over.
    const from = input.offset !== undefined && input.offset <= size ? input.offset : Math.max(0, size - input.maxBytes);
    const wanted = Math.min(input.maxBytes, size - from);
    const raw = readSpan(open, from, wanted);
    // Never hand out half a character: skip a split one at the start (a tail read), and leave
    // one split at the end for the next read.
    const skip = input.offset === undefined ? leadingContinuation(raw) : 0;
    const end = completeUtf8Length(raw);
    const buf = raw.subarray(skip, Math.max(skip, end));
    return { jobId, stream: input.stream, offset: from + skip, nextOffset: from + skip + buf.length, text: buf.toString('utf8'), truncated: headDropped(open) };
  } finally {
    closeSpan(open);
  }
}

/** Whether the log's head was dropped to keep it within its cap: it then starts with the mark. */
export function headDropped(open: OpenSpan): boolean {
  const mark = Buffer.from(TRUNCATION_MARK);
  return readSpan(open, 0, mark.length).equals(mark);
}

/** Bytes at the start that continue a character begun before them. */
export function leadingContinuation(b: Buffer): number {
  let i = 0;
  while (i < b.length && i < 3 && (b[i]! & 0xc0) === 0x80) i++;
  return i;
}

/** Length of `b` without a multi-byte character cut off at its end. */
function completeUtf8Length(b: Buffer): number {
  for (let back = 1; back <= Math.min(4, b.length); back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? b.length - back : b.length;
  }
  return b.length;
}
