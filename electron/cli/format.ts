// Human output: aligned columns, grouped digits, short durations. Machine output is `--json`,
// never a parse of these tables.
import { isCleaned, type FinishedJob, type JobSummary } from '../../shared/model.js';
import { cleanedOutcome, clock, groupedCount } from '../../shared/format.js';
import { progressCount } from '../../shared/progress.js';
import { blockedBy } from '../../shared/dependencies.js';

/** 4060 → "4,060". */
export const count = groupedCount;

export function rate(perMin: number): string {
  return perMin >= 10 ? count(Math.round(perMin)) : perMin.toFixed(1);
}

/** 1234 → "1.2s", 95000 → "1m35s", 7200000 → "2h00m". */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.floor(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export { clock };

/** How long a job ran, or has been running, or "" when it has not started. */
export function jobTime(job: JobSummary, now = Date.now()): string {
  if (job.startedAt === null) return '';
  return duration((job.finishedAt ?? now) - job.startedAt);
}

export type Align = 'left' | 'right';

/**
 * Rows padded into columns. Numbers go right-aligned so digits line up; the last column is left
 * unpadded so long commands do not drag trailing spaces.
 */
export function table(header: string[], rows: string[][], align: Align[], atLeast: readonly number[] = []): string {
  const widths = columnWidths(header, rows, atLeast);
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => {
        if (i === cells.length - 1 && align[i] !== 'right') return cell;
        return align[i] === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0);
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/**
 * A table's lines whose last column runs past `width` go on under that column (from `start`), at
 * spaces: the terminal's own wrap would start them at its left edge, under the first column.
 * With no width (`--wide`), or too little room for it, lines stay whole.
 */
export function wrapLast(text: string, start: number, width: number | null): string {
  if (width === null || width - start < 20) return text;
  const indent = ' '.repeat(start);
  return text.replace(/^.*$/gm, (line) => {
    if (line.length <= width) return line;
    const out: string[] = [];
    let now = line.slice(0, start);
    for (const word of line.slice(start).split(' ')) {
      if (now.length > start && now.length + 1 + word.length > width) {
        out.push(now);
        now = indent;
      }
      now += now.length > start ? ` ${word}` : word;
    }
    return [...out, now].join('\n');
  });
}

/** Each column as wide as its widest cell, its header, and `atLeast` (a table printed in parts keeps its columns). */
export const columnWidths = (header: string[], rows: string[][], atLeast: readonly number[] = []): number[] =>
  header.map((h, i) => Math.max(h.length, atLeast[i] ?? 0, ...rows.map((r) => (r[i] ?? '').length)));

/** The state in a few words: exit codes for failures, a dependent that never ran, and how a cancel happened. */
export function outcome(job: JobSummary): string {
  if (job.state === 'failed') {
    // A dependent that never ran has no exit code of its own: the job it ran after is the reason.
    const blocked = blockedBy(job);
    if (blocked) return `did not run (${blocked.words})`;
    if (job.exitCode !== null) return `failed (exit ${job.exitCode})`;
    return job.error ? `failed (${job.error})` : 'failed';
  }
  // The engine words its cancel reasons "cancelled before it ran" / "… while running".
  if (job.state === 'cancelled' && job.error?.startsWith('cancelled')) return job.error;
  if (job.state === 'queued' && job.waitingFor !== undefined) return `waiting for ${job.waitingFor === 1 ? '1 job' : `${job.waitingFor} jobs`}`;
  if (job.state === 'queued' && job.notBefore !== undefined) return `scheduled for ${clock(job.notBefore)}`;
  if (job.state === 'running' && job.progress) return `running, ${progressCount(job.progress)}`;
  return job.state;
}

/** One line for a finished job: `job 7: failed (exit 2) in 1.2s`; of a cleaned one, how it ended. */
export function finishedLine(job: FinishedJob): string {
  if (isCleaned(job)) return `job ${job.id}: ${cleanedOutcome(job)}`;
  const took = job.startedAt !== null && job.finishedAt !== null ? ` in ${duration(job.finishedAt - job.startedAt)}` : '';
  return `job ${job.id}: ${outcome(job)}${took}`;
}

/**
 * How a table fits its width: which columns may be cut (with "…", each to at least `min`
 * characters), in order, and which may go, in order, when cutting is not enough. `width` null: all
 * of every column (`--wide`).
 */
export interface Fit {
  width: number | null;
  shrink: readonly (readonly [column: string, min: number])[];
  drop: readonly string[];
  /** Per column, a shorter form of a cell that does not fit, tried before it is cut: what matters kept whole. */
  shorter?: Readonly<Record<string, (cell: string) => string>>;
}

/** The width tables fit: the terminal's, or 80 columns when output is not a terminal; null with `--wide`. */
export const tableWidth = (wide: boolean | undefined): number | null => (wide ? null : process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : 80);

/**
 * `table`, fitted to `fit.width`: the shrinkable columns are cut first, in their order; if that is
 * not enough, empty columns go, then columns in the drop order (the cut ones grow back into the
 * room made) until it fits.
 */
export function fittedTable(header: string[], rows: string[][], align: Align[], fit: Fit): string {
  if (fit.width === null) return table(header, rows, align);
  const width = fit.width;
  const natural = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const widthsFor = (cols: number[]): number[] | null => {
    const widths = [...natural];
    let over = cols.reduce((n, i) => n + widths[i]!, 0) + 2 * (cols.length - 1) - width;
    for (const [name, min] of fit.shrink) {
      const i = header.indexOf(name);
      if (over <= 0 || !cols.includes(i)) continue;
      const cut = Math.min(over, Math.max(0, widths[i]! - Math.max(min, header[i]!.length)));
      widths[i]! -= cut;
      over -= cut;
    }
    return over <= 0 ? widths : null;
  };
  let cols = header.map((_, i) => i);
  let widths = widthsFor(cols);
  // A column with nothing in it goes first: dropping it loses only its header.
  if (!widths && rows.length > 0) {
    cols = cols.filter((i) => rows.some((r) => (r[i] ?? '') !== ''));
    widths = widthsFor(cols);
  }
  for (const name of fit.drop) {
    if (widths) break;
    cols = cols.filter((i) => header[i] !== name);
    widths = widthsFor(cols);
  }
  // Nothing left to drop: as narrow as the rules allow, wider than asked.
  widths ??= natural.map((w, i) => Math.min(w, Math.max(header[i]!.length, fit.shrink.find(([n]) => n === header[i])?.[1] ?? w)));
  const cut = (cell: string, w: number, column: string) => {
    if (cell.length <= w) return cell;
    const short = fit.shorter?.[column]?.(cell) ?? cell;
    const text = short.length <= w ? short : cell;
    return text.length <= w ? text : `${text.slice(0, Math.max(0, w - 1))}…`;
  };
  return table(
    cols.map((i) => header[i]!),
    rows.map((r) => cols.map((i) => cut(r[i] ?? '', widths![i]!, header[i]!))),
    cols.map((i) => align[i]!),
  );
}
