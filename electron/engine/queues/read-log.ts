// Reading a job's log for a client: a tail, or from an offset to follow it, never splitting a
// UTF-8 character, and saying whether the head was dropped to keep the file within its cap.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { LogChunk } from '../../../shared/model.js';
import type { ParsedInput } from '../../../shared/requests.js';
import { TRUNCATION_MARK } from '../../job-control/capped-log.js';

export function readLog(path: string, input: ParsedInput<'logTail'>): LogChunk {
  const jobId = input.id;
  let fd: number;
  try {
    // Never through a link: a log is a file the worker wrote, or nothing.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return { jobId, stream: input.stream, offset: 0, nextOffset: 0, text: '', truncated: false };
  }
  try {
    const size = fstatSync(fd).size;
    // A log compacted since the caller's last read is shorter than their offset: start over.
    const from = input.offset !== undefined && input.offset <= size ? input.offset : Math.max(0, size - input.maxBytes);
    const wanted = Math.min(input.maxBytes, size - from);
    const raw = Buffer.alloc(wanted);
    readSync(fd, raw, 0, wanted, from);
    // Never hand out half a character: skip a split one at the start (a tail read), and leave
    // one split at the end for the next read.
    const skip = input.offset === undefined ? leadingContinuation(raw) : 0;
    const end = completeUtf8Length(raw);
    const buf = raw.subarray(skip, Math.max(skip, end));
    const mark = Buffer.from(TRUNCATION_MARK);
    const head = Buffer.alloc(Math.min(mark.length, size));
    readSync(fd, head, 0, head.length, 0);
    return { jobId, stream: input.stream, offset: from + skip, nextOffset: from + skip + buf.length, text: buf.toString('utf8'), truncated: head.equals(mark) };
  } finally {
    closeSync(fd);
  }
}

/** Bytes at the start that continue a character begun before them. */
function leadingContinuation(b: Buffer): number {
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
