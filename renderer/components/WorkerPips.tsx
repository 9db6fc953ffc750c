// Workers as pips: what runs (busy, idle, draining) against what the cap allows. Draining workers
// sit past the cap because a lowered cap lets them finish their job first; they still hold a
// slot, so a cap-1 lane whose one worker finishes its job during a pause shows one pip, not two.
import { plural } from '../format';
import { pipKinds } from '../lane-words';

const MAX_PIPS = 48;

interface Props {
  busy: number;
  idle: number;
  draining: number;
  cap: number;
  /** What one worker typically holds, in words ("about 410 MB per worker"), once measured. */
  memory?: string | null;
}

export function WorkerPips({ busy, idle, draining, cap, memory = null }: Props) {
  const kinds = pipKinds(busy, idle, draining, cap);
  const shown = kinds.slice(0, MAX_PIPS);
  const workers = busy + idle + draining;
  const counts =
    workers === 0
      ? `No workers running; the cap allows ${cap}`
      : `${plural(workers, 'worker')}: ${busy} busy, ${idle} idle${draining > 0 ? `, ${draining} finishing then stopping` : ''}; cap ${cap}`;
  const label = memory ? `${counts}; ${memory}` : counts;
  return (
    <span className="pips" role="img" aria-label={label} title={label}>
      {shown.map((kind, i) => (
        <span key={i} className={`pip pip-${kind}`} />
      ))}
      {kinds.length > MAX_PIPS && <span className="pips-more">+{kinds.length - MAX_PIPS}</span>}
      {kinds.length === 0 && <span className="pips-none">no workers</span>}
    </span>
  );
}
