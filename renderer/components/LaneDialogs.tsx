// Add a lane (name, class, cap, an optional worker command) or remove one. A lane that still holds
// jobs is not removed behind the person's back: the form says how many, and offers to cancel them
// and remove the lane in one go (removeLane's `cancel`).
import { useState } from 'react';
import { create } from 'zustand';
import { CAP_MAX, DEFAULT_CAP } from '../../shared/limits';
import type { LaneClass } from '../../shared/model';
import { addLane, removeLane } from '../commands';
import { plural } from '../format';
import { jobsLeft } from '../lane-words';
import { useLanes } from '../stores/lanes';
import { Modal } from './Modal';

type Open = { kind: 'add' } | { kind: 'remove'; lane: string } | null;
const useLaneDialog = create<{ open: Open }>(() => ({ open: null }));

export const openAddLane = () => useLaneDialog.setState({ open: { kind: 'add' } });
export const openRemoveLane = (lane: string) => useLaneDialog.setState({ open: { kind: 'remove', lane } });
const close = () => useLaneDialog.setState({ open: null });

export function LaneDialogs() {
  const open = useLaneDialog((s) => s.open);
  if (open?.kind === 'add') return <AddLaneForm />;
  if (open?.kind === 'remove') return <RemoveLaneForm lane={open.lane} />;
  return null;
}

function AddLaneForm() {
  const [name, setName] = useState('');
  const [laneClass, setLaneClass] = useState<LaneClass>('cpu');
  const [cap, setCap] = useState('');
  const [workerCommand, setWorkerCommand] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    const refused = await addLane({ name: name.trim(), class: laneClass, cap: cap.trim() === '' ? null : Number(cap), workerCommand });
    setBusy(false);
    if (refused) setError(refused);
    else close();
  };

  return (
    <Modal title="Add a lane" testId="add-lane" onClose={close} onSubmit={() => void submit()} error={error} busy={busy} submit="Add lane">
      <label className="form-row">
        <span>Name</span>
        <input required autoFocus pattern="[a-z0-9\-]{1,32}" title="1–32 characters of a-z, 0-9 and -" placeholder="thumbs" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="form-row">
        <span>Class</span>
        <select value={laneClass} onChange={(e) => setLaneClass(e.target.value as LaneClass)}>
          <option value="cpu">cpu — jobs that use a core each</option>
          <option value="ml">ml — jobs that load a model</option>
        </select>
      </label>
      <label className="form-row">
        <span>Cap</span>
        <input type="number" min={0} max={CAP_MAX} step={1} inputMode="numeric" placeholder={String(DEFAULT_CAP[laneClass])} value={cap} onChange={(e) => setCap(e.target.value)} />
      </label>
      <label className="form-row form-row-wide">
        <span>Worker command (optional)</span>
        <input className="mono" spellCheck={false} placeholder="python3 serve.py --model small" value={workerCommand} onChange={(e) => setWorkerCommand(e.target.value)} />
      </label>
      <p className="form-hint">
        Without a worker command each job is a command of its own. With one, Lanes keeps that program running and hands it one JSON payload per job — a
        model loads once, not per job. It starts from your home folder. The cap is the most workers it may run at once; empty means {DEFAULT_CAP.cpu} for cpu, {DEFAULT_CAP.ml} (off) for ml.
      </p>
    </Modal>
  );
}

function RemoveLaneForm({ lane }: { lane: string }) {
  const status = useLanes((s) => s.byName[lane]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const left = status ? jobsLeft(status) : 0;

  const submit = async () => {
    setBusy(true);
    const refused = await removeLane(lane, left > 0);
    setBusy(false);
    if (refused) setError(refused);
    else close();
  };

  return (
    <Modal
      title={`Remove lane ${lane}?`}
      testId="remove-lane"
      onClose={close}
      onSubmit={() => void submit()}
      error={error}
      busy={busy}
      danger
      submit={left > 0 ? `Cancel ${plural(left, 'job')} and remove` : 'Remove lane'}
    >
      <p>
        {left > 0
          ? `${lane} still holds ${plural(left, 'unfinished job')}. Removing it cancels them (running ones are stopped) and then removes the lane; finished jobs keep their records.`
          : `${lane} holds no unfinished jobs. Its finished jobs keep their records.`}
      </p>
    </Modal>
  );
}
