// Many jobs at once, above the list, only when there is something to act on: the rows a person
// ticked (cancel or retry those), or a filter that picks unfinished jobs (cancel them all) or
// finished ones (clear them: their records and logs removed now, docs/retention.md). Cancelling or
// clearing more than one job asks once more, in place, naming the count: a stray click should not
// empty a queue or a history. Clearing says which jobs it clears — the succeeded ones, unless the
// filter picks the failed or the cancelled — and clears only those it counted when it asked: the
// count is taken as the question opens and stays put while it is read, and what finishes
// meanwhile is left for next time.
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { JobSummary } from '../../shared/model';
import { cancelMany, clearChecked, clearFinished, retryMany, type JobChoice } from '../commands';
import { formatCount, plural } from '../format';
import { indexOfId, useJobs } from '../stores/jobs';
import { useLanes } from '../stores/lanes';
import { countByState } from './JobsToolbar';

const unfinished = (j: JobSummary) => j.state === 'queued' || j.state === 'running';
const retriable = (j: JobSummary) => j.state === 'failed' || j.state === 'cancelled';

export function BulkBar() {
  const filter = useJobs((s) => s.filter);
  const ticked = useJobs(useShallow((s) => Object.keys(s.checked).map((id) => s.rows[indexOfId(s.rows, Number(id))]).filter((j): j is JobSummary => j !== undefined)));
  const counts = useLanes(useShallow((s) => countByState(filter, s.order.map((n) => s.byName[n]!))));
  // A shared lane's finished jobs are kept by its queue on Redis, not cleared from here.
  const local = useLanes(useShallow((s) => countByState(filter, s.order.map((n) => s.byName[n]!).filter((l) => !l.shared))));
  const [confirming, setConfirming] = useState<string | null>(null);
  // The clear's question as it was asked: how many, and the moment they had finished by.
  const [clearing, setClearing] = useState<{ count: number; at: number } | null>(null);

  if (ticked.length > 0) {
    const cancelIds = ticked.filter(unfinished).map((j) => j.id);
    const retryIds = ticked.filter(retriable).map((j) => j.id);
    return (
      <div className="bulk-bar" role="region" aria-label="Selected jobs" data-testid="bulk-bar">
        <span className="bulk-what">{plural(ticked.length, 'job')} selected</span>
        <Confirmable
          id="cancel-ticked"
          confirming={confirming}
          setConfirming={setConfirming}
          label={`Cancel ${formatCount(cancelIds.length)}`}
          sure={`Yes, cancel ${plural(cancelIds.length, 'job')}`}
          disabled={cancelIds.length === 0}
          act={() => cancelMany({ ids: cancelIds })}
        />
        <button type="button" className="button button-small" disabled={retryIds.length === 0} onClick={() => void retryMany({ ids: retryIds })}>
          Retry {formatCount(retryIds.length)}
        </button>
        <button type="button" className="link-button" onClick={clearChecked}>
          Clear selection
        </button>
      </div>
    );
  }

  // By filter: the engine chooses by lane and state, so a text search (which it cannot choose by)
  // offers the ticks instead.
  const searching = filter.text.trim() !== '';
  const lane = filter.lane ? { lane: filter.lane } : {};
  const choice: JobChoice | null =
    searching ? null : filter.state === 'queued' || filter.state === 'running' ? { ...lane, state: filter.state } : filter.state === null && filter.lane ? { lane: filter.lane } : null;
  const n = filter.state === 'queued' ? counts.queued : filter.state === 'running' ? counts.running : counts.queued + counts.running;
  // Failed jobs are what a person still has to look at: they go only when the filter shows them.
  const finishedState = filter.state === 'succeeded' || filter.state === 'failed' || filter.state === 'cancelled' ? filter.state : null;
  const clearState = finishedState ?? 'succeeded';
  const clearable = searching || (filter.state !== null && !finishedState) ? 0 : local[clearState];
  if ((!choice || n === 0) && clearable === 0) return null;
  const what = filter.state === 'running' ? 'running' : filter.state === 'queued' ? 'queued' : 'unfinished';
  const where = filter.lane ? ` in ${filter.lane}` : ' in all lanes';
  return (
    <div className="bulk-bar" role="region" aria-label="All jobs shown" data-testid="bulk-bar">
      {choice && n > 0 && (
        <>
          <span className="bulk-what">
            {plural(n, `${what} job`)}
            {filter.lane ? ` in ${filter.lane}` : ''}
          </span>
          <Confirmable id="cancel-filter" confirming={confirming} setConfirming={setConfirming} label="Cancel all…" sure={`Yes, cancel all ${formatCount(n)}`} act={() => cancelMany(choice)} />
        </>
      )}
      {(clearable > 0 || (confirming === 'clear-finished' && clearing)) && (
        <Confirmable
          id="clear-finished"
          confirming={confirming}
          setConfirming={(id) => {
            setClearing(id === 'clear-finished' ? { count: clearable, at: Date.now() } : null);
            setConfirming(id);
          }}
          label={`Clear ${clearState}…`}
          sure={`Yes, clear ${plural(clearing?.count ?? clearable, `${clearState} job`)}${where}`}
          act={() => clearFinished({ ...lane, state: clearState, olderThanSeconds: clearing ? Math.max(0, (Date.now() - clearing.at) / 1000) : 0 })}
        />
      )}
    </div>
  );
}

interface ConfirmableProps {
  id: string;
  confirming: string | null;
  setConfirming(id: string | null): void;
  label: string;
  sure: string;
  disabled?: boolean;
  act(): Promise<void>;
}

function Confirmable({ id, confirming, setConfirming, label, sure, disabled, act }: ConfirmableProps) {
  if (confirming !== id) {
    return (
      <button type="button" className="button button-small" disabled={disabled} onClick={() => setConfirming(id)}>
        {label}
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button button-small button-danger"
        autoFocus
        onClick={() => {
          setConfirming(null);
          void act();
        }}
      >
        {sure}
      </button>
      <button type="button" className="button button-small button-quiet" onClick={() => setConfirming(null)}>
        Keep them
      </button>
    </>
  );
}
