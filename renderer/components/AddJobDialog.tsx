// Add a job from the window: a command line, run by the person's shell as `lanes add "…"` runs
// it, in the lane they choose; a lane with a worker command takes a JSON payload instead.
import { useState } from 'react';
import { create } from 'zustand';
import { DEFAULT_LANE } from '../../shared/limits';
import { addJob } from '../commands';
import { useLanes } from '../stores/lanes';
import { Modal } from './Modal';

/** Whether the form is open, and the lane it opens on. */
const useAddJob = create<{ open: boolean; lane: string | null }>(() => ({ open: false, lane: null }));

export function openAddJob(lane: string | null): void {
  useAddJob.setState({ open: true, lane });
}

export function AddJobDialog() {
  const open = useAddJob((s) => s.open);
  return open ? <AddJobForm /> : null;
}

function AddJobForm() {
  const order = useLanes((s) => s.order);
  const byName = useLanes((s) => s.byName);
  const [lane, setLane] = useState(() => useAddJob.getState().lane ?? DEFAULT_LANE);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const payloadLane = byName[lane]?.workerCommand != null;
  const close = () => useAddJob.setState({ open: false });

  const submit = async () => {
    setBusy(true);
    const refused = await addJob(lane, text, payloadLane);
    setBusy(false);
    if (refused) setError(refused);
    else close();
  };

  return (
    <Modal title="Add a job" testId="add-job" onClose={close} onSubmit={() => void submit()} error={error} busy={busy} submit="Add job">
      <label className="form-row">
        <span>Lane</span>
        <select value={lane} onChange={(e) => setLane(e.target.value)}>
          {order.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label className="form-row form-row-wide">
        <span>{payloadLane ? 'Payload (JSON)' : 'Command line'}</span>
        <textarea
          className="mono"
          rows={3}
          required
          autoFocus
          spellCheck={false}
          placeholder={payloadLane ? '{"path": "photos/IMG_1040.jpg"}' : 'convert photo.jpg -resize 1024 thumbs/photo.jpg'}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds, as in a terminal; Shift+Enter starts a new line.
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              if (!busy) void submit();
            }
          }}
        />
      </label>
      <p className="form-hint">
        {payloadLane
          ? `${lane} has a worker command: each job is one JSON value handed to it.`
          : 'It runs in your shell, from your home folder.'}
      </p>
    </Modal>
  );
}
