// At 80 columns `lanes status` cuts the outlook first: what is cut is its count ("298 left, "),
// which WAITING shows already, never its time — "about 5 min" is what a person looks for.
import { describe, expect, it } from 'vitest';
import { fittedTable } from '../../electron/cli/format.js';

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
