// Human output: aligned columns, grouped digits, short durations. Machine output is `--json`,
// never a parse of these tables.
import type { JobSummary } from '../../shared/model.js';
import { groupedCount } from '../../shared/format.js';

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

export { clock } from '../../shared/format.js';

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
export function table(header: string[], rows: string[][], align: Align[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
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

/** The state in a few words: exit codes for failures, and how a cancel happened. */
export function outcome(job: JobSummary): string {
  if (job.state === 'failed') {
    if (job.exitCode !== null) return `failed (exit ${job.exitCode})`;
    return job.error ? `failed (${job.error})` : 'failed';
  }
  // The engine words its cancel reasons "cancelled before it ran" / "… while running".
  if (job.state === 'cancelled' && job.error?.startsWith('cancelled')) return job.error;
  return job.state;
}

/** One line for a finished job: `job 7: failed (exit 2) in 1.2s`. */
export function finishedLine(job: JobSummary): string {
  const took = job.startedAt !== null && job.finishedAt !== null ? ` in ${duration(job.finishedAt - job.startedAt)}` : '';
  return `job ${job.id}: ${outcome(job)}${took}`;
}
