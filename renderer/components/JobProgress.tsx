// How far a job says it has got, as a bar and its count: "12,000 of 40,000" in the list's row,
// and in the detail with its words too. The bar is a progressbar to assistive technology, its
// value the same words the CLI prints (shared/progress.ts).
import type { JobProgress as Progress } from '../../shared/model';
import { progressCount, progressWords } from '../../shared/progress';

export function JobProgress({ progress, detail = false }: { progress: Progress; detail?: boolean }) {
  const pct = Math.round(Math.min(1, Math.max(0, progress.fraction)) * 100);
  return (
    <span className={`job-progress${detail ? ' job-progress-detail' : ''}`} data-testid="job-progress">
      <span className="progress-track" role="progressbar" aria-label="Progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-valuetext={progressWords(progress)}>
        <span className="progress-fill" style={{ width: `${pct}%` }} />
      </span>
      <span className="progress-count num">{progressCount(progress)}</span>
      {detail && progress.message && <span className="progress-message muted ellipsis">{progress.message}</span>}
    </span>
  );
}
