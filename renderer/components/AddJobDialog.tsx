// Add a job from the window: what `lanes add` takes — a command line run by the person's shell as
// `lanes add "…"` runs it (or a JSON payload for a lane with a worker command), its folder,
// environment, attempts and timeout, the jobs it runs after (typed, pasted or searched for:
// AfterPicker), a delay or a time, a priority and labels. What the form can check it checks
// (add-job-form.ts), every field at once; the engine checks the rest, and either refusal is shown
// at the field it is about.
import { useState, type ReactNode } from 'react';
import { create } from 'zustand';
import { DEFAULT_LANE, PRIORITY_MAX, PRIORITY_MIN } from '../../shared/limits';
import type { Job } from '../../shared/model';
import { addJob, editJob, type Refusal } from '../commands';
import { EMPTY_VALUES, valuesOfJob, type AddJobValues, type FormField } from '../add-job-form';
import { useLanes } from '../stores/lanes';
import { Modal } from './Modal';
import { AfterPicker } from './AfterPicker';

/** Whether the form is open, the lane it opens on, and the queued job it edits (the same fields, from its detail). */
const useAddJob = create<{ open: boolean; lane: string | null; editing: Job | null }>(() => ({ open: false, lane: null, editing: null }));

export function openAddJob(lane: string | null): void {
  useAddJob.setState({ open: true, lane, editing: null });
}

export function openEditJob(job: Job): void {
  useAddJob.setState({ open: true, lane: job.lane, editing: job });
}

export function AddJobDialog() {
  const open = useAddJob((s) => s.open);
  return open ? <AddJobForm /> : null;
}

/** One labelled field, with the refusal about it (the form's own, or the engine's) beneath. */
function Field({ id, label, error, wide, box, children }: { id: FormField; label: string; error: Refusal | null; wide?: boolean; box?: boolean; children: ReactNode }) {
  const mine = error?.find((p) => p.field === id)?.message ?? null;
  const parts = (
    <>
      <span>{label}</span>
      {children}
      {mine && (
        <small className="field-error" role="alert" id={`add-job-${id}-error`}>
          {mine}
        </small>
      )}
    </>
  );
  // A field of several controls (chips with buttons, a text field) is not one <label>'s to hold.
  const className = `form-row${wide ? ' form-row-wide' : ''}`;
  return box ? (
    <div className={className} data-field={id}>
      {parts}
    </div>
  ) : (
    <label className={className} data-field={id}>
      {parts}
    </label>
  );
}

function AddJobForm() {
  const order = useLanes((s) => s.order);
  const byName = useLanes((s) => s.byName);
  const [editing] = useState(() => useAddJob.getState().editing);
  const [was] = useState(() => (editing ? valuesOfJob(editing) : null));
  const [lane, setLane] = useState(() => useAddJob.getState().lane ?? DEFAULT_LANE);
  const [v, setValues] = useState<Omit<AddJobValues, 'lane' | 'asPayload'>>(was ?? EMPTY_VALUES);
  const [error, setError] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const payloadLane = byName[lane]?.workerCommand != null;
  const close = () => useAddJob.setState({ open: false });
  const set = <K extends keyof typeof v>(key: K, value: (typeof v)[K]) => {
    setValues((old) => ({ ...old, [key]: value }));
    // A refusal goes once its field is changed: what it said is no longer about what is there.
    const field = key === 'whenText' ? 'when' : key;
    if (error?.some((p) => p.field === field)) setError((e) => (e ? e.filter((p) => p.field !== field) : e));
  };
  const invalid = (id: FormField) => {
    const bad = error?.some((p) => p.field === id) === true;
    return { 'aria-invalid': bad ? (true as const) : undefined, 'aria-describedby': bad ? `add-job-${id}-error` : undefined };
  };

  const submit = async () => {
    setBusy(true);
    const values: AddJobValues = { ...v, lane, asPayload: payloadLane };
    const refused = editing && was ? await editJob(editing.id, values, was) : await addJob(values);
    setBusy(false);
    if (refused) setError(refused);
    else close();
  };

  return (
    <Modal
      title={editing ? `Edit job ${editing.id}` : 'Add a job'}
      testId={editing ? 'edit-job' : 'add-job'}
      onClose={close}
      onSubmit={() => void submit()}
      error={error?.find((p) => p.field === null)?.message ?? null}
      busy={busy}
      submit={editing ? 'Save' : 'Add job'}
    >
      <Field id="lane" label="Lane" error={error}>
        <select value={lane} disabled={editing !== null} onChange={(e) => setLane(e.target.value)} {...invalid('lane')}>
          {order.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </Field>
      <Field id="text" label={payloadLane ? 'Payload (JSON)' : 'Command line'} error={error} wide>
        <textarea
          className="mono"
          rows={2}
          required
          autoFocus
          spellCheck={false}
          placeholder={payloadLane ? '{"path": "photos/IMG_1040.jpg"}' : 'convert photo.jpg -resize 1024 thumbs/photo.jpg'}
          value={v.text}
          onChange={(e) => set('text', e.target.value)}
          onKeyDown={(e) => {
            // Enter adds, as in a terminal; Shift+Enter starts a new line.
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              if (!busy) void submit();
            }
          }}
          {...invalid('text')}
        />
      </Field>
      {!payloadLane && (
        <>
          <Field id="cwd" label="Folder" error={error}>
            <input className="mono" spellCheck={false} placeholder="your home folder" value={v.cwd} onChange={(e) => set('cwd', e.target.value)} {...invalid('cwd')} />
          </Field>
          <Field id="env" label="Environment" error={error}>
            <textarea rows={1} spellCheck={false} placeholder="NAME=value, one a line" value={v.env} onChange={(e) => set('env', e.target.value)} {...invalid('env')} />
          </Field>
        </>
      )}
      <div className="form-pair">
        <Field id="attempts" label="Attempts" error={error}>
          <input inputMode="numeric" placeholder="3" value={v.attempts} onChange={(e) => set('attempts', e.target.value)} {...invalid('attempts')} />
        </Field>
        <Field id="timeout" label="Timeout" error={error}>
          <input placeholder="none, or 30m" value={v.timeout} onChange={(e) => set('timeout', e.target.value)} {...invalid('timeout')} />
        </Field>
      </div>
      <Field id="after" label="Run after" error={error} wide box>
        <AfterPicker value={v.after} onChange={(ids) => set('after', ids)} self={editing?.id ?? null} known={editing?.after ?? []} invalid={invalid('after')} />
      </Field>
      <Field id="when" label="When" error={error}>
        <span className="form-inline">
          <select aria-label="When it may start" value={v.when} onChange={(e) => set('when', e.target.value as typeof v.when)}>
            <option value="now">As soon as it can</option>
            <option value="delay">After a delay</option>
            <option value="at">At a time</option>
          </select>
          {v.when === 'delay' && <input aria-label="Delay" placeholder="15m, 1h30m, 2d" value={v.whenText} onChange={(e) => set('whenText', e.target.value)} {...invalid('when')} />}
          {v.when === 'at' && <input aria-label="Time" type="datetime-local" value={v.whenText} onChange={(e) => set('whenText', e.target.value)} {...invalid('when')} />}
        </span>
      </Field>
      <div className="form-pair">
        <Field id="priority" label="Priority" error={error}>
          <input inputMode="numeric" placeholder={`0 (${PRIORITY_MIN} … ${PRIORITY_MAX})`} value={v.priority} onChange={(e) => set('priority', e.target.value)} {...invalid('priority')} />
        </Field>
        <Field id="labels" label="Labels" error={error}>
          <input spellCheck={false} placeholder="nightly, photos" value={v.labels} onChange={(e) => set('labels', e.target.value)} {...invalid('labels')} />
        </Field>
      </div>
      <p className="form-hint">
        {payloadLane
          ? `${lane} has a worker command: each job is one JSON value handed to it.`
          : 'It runs in your shell, from the folder given (else your home folder). Higher priority runs first in its lane; a job run after others starts once they all succeeded, and fails if one fails.'}
      </p>
    </Modal>
  );
}
