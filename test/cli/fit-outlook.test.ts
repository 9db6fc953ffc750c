// At 80 columns `lanes status` cuts the outlook first: what is cut is its count ("298 left, "),
// which WAITING shows already, never its time — "about 5 min" is what a person looks for.
// A DETAIL longer than the terminal goes on under its own column (`lanes events`), not back under TIME.
import { describe, expect, it } from 'vitest';
import { fittedTable, table, wrapLast } from '../../electron/cli/format.js';

const header = ['LANE', 'CLASS', 'CAP', 'WORKERS', 'BUSY', 'WAITING', 'KEPT', 'FAILED', 'PER MIN', 'STATE', 'OUTLOOK'];
const align = ['left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left', 'left'] as const;
const fit = (width: number, outlook: string) =>
  fittedTable(header, [['embeddings-large', 'cpu', '3', '3 of 3', '3', '295', '1,978', '0', '90.0', 'saturated', outlook]], [...align], {
    width,
    shrink: [['OUTLOOK', 16], ['LANE', 12]],
    drop: ['CLASS', 'PER MIN', 'KEPT', 'FAILED', 'WORKERS'],
    shorter: { OUTLOOK: (cell) => cell.replace(/^[\d,]+ left, /, '') },
  });

describe('the outlook cut to fit', () => {
  it.each([
    ['the time kept, its count let go', 80, '298 left, about 5 min', 'about 5 min'],
    ['estimating… kept whole', 80, '1,298 left, estimating…', 'estimating…'],
    ['room for all of it: as it is', 140, '298 left, about 5 min', '298 left, about 5 min'],
  ])('%s', (_what, width, outlook, shown) => {
    const row = fit(width, outlook).split('\n')[1]!;
    expect(row.trimEnd().endsWith(shown)).toBe(true);
    expect(row).not.toContain('…'.repeat(2));
    expect(row.trimEnd().length).toBeLessThanOrEqual(width);
  });
});

describe('a last column longer than the width', () => {
  const header = ['TIME', 'LANE', 'WORKERS', 'REASON', 'DETAIL'];
  const detail = 'cap lowered to 1: 2 workers finishing their jobs first, then the lane runs one at a time';
  const text = table(header, [['09:01:02', 'thumbnails', '3 → 3', 'cap lowered', detail]], ['left', 'left', 'right', 'left', 'left']);
  const start = text.split('\n')[0]!.indexOf('DETAIL');

  it('goes on under its own column at spaces, every line within the width, every word kept', () => {
    const lines = wrapLast(text, start, 80).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    for (const line of lines.slice(2)) expect(line.slice(0, start).trim()).toBe('');
    expect(lines.slice(1).map((l) => l.slice(start)).join(' ')).toBe(detail);
  });

  it('stays whole with --wide, or with too little room to wrap into', () => {
    expect(wrapLast(text, start, null)).toBe(text);
    expect(wrapLast(text, start, start + 10)).toBe(text);
  });
});
