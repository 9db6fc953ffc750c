// Where one job's output ends in a stream jobs share: before the mark, the mark itself nobody's,
// a possible start of the mark at a chunk's end held back until the next chunk says. Pure.
import { describe, expect, it } from 'vitest';
import { EndMark } from '../../electron/worker/end-mark.js';

const MARK = '\x01lanes-end-abc-1\x01';

/** Feeds the chunks in order; answers the job's bytes and whether the mark came. */
function feed(chunks: string[]): { data: string; reached: boolean } {
  const mark = new EndMark(MARK);
  let data = '';
  let reached = false;
  for (const c of chunks) {
    const r = mark.feed(Buffer.from(c, 'latin1'));
    data += r.data.toString('latin1');
    reached = r.reached;
  }
  return { data, reached };
}

describe('the end mark', () => {
  it.each([
    ['in one chunk', ['hello\n' + MARK], 'hello\n', true],
    ['alone', [MARK], '', true],
    ['split over three chunks', ['out\n\x01lan', 'es-end-a', 'bc-1\x01'], 'out\n', true],
    ['not yet come', ['plain output'], 'plain output', false],
    ['a start of it that was not it', ['a\x01lanes', '-x\n'], 'a\x01lanes-x\n', false],
    ['a start of it at the very end, still open', ['a\x01lanes-end'], 'a', false],
    ['another helper’s mark', ['\x01lanes-end-zzz-1\x01 after'], '\x01lanes-end-zzz-1\x01 after', false],
    ['followed by what the job left running', ['x' + MARK + 'late', ' more'], 'xlate more', true],
    ['the start byte twice', ['\x01\x01lanes-end-abc-1\x01'], '\x01', true],
  ])('%s', (_, chunks, data, reached) => {
    expect(feed(chunks)).toEqual({ data, reached });
  });

  it('holds back nothing of a chunk with no start byte near its end', () => {
    const mark = new EndMark(MARK);
    expect(mark.feed(Buffer.from('x'.repeat(100))).data.length).toBe(100);
  });
});
