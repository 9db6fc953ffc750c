// The header's machine: how many of its workers are in use out of what Lanes allows now, and — when
// something other than the cores holds Lanes back (the battery, the person at the computer, other
// programs, a lane's memory or GPU) — why, in a calm word ("Quiet: on battery — 3 of 7 workers"). The
// words open a small popover with the machine's facts. Nothing here is a control: Lanes holds back
// and lets go by itself, and the cap stays the only setting.
import type { MachineStatus } from '../../shared/model';
import { plural } from '../format';
import { holdingBack, machineFacts, machineInUse } from '../lane-words';
import { useLanes, workersInUse } from '../stores/lanes';

const FACTS_ID = 'machine-facts';

export function MachineMeter() {
  const ceiling = useLanes((s) => s.ceiling);
  const machine = useLanes((s) => s.machine);
  const inUse = useLanes(workersInUse);
  // A string, so a lane event that leaves the words as they were does not redraw the header.
  const held = useLanes((s) => (s.machine ? holdingBack(s.machine, s.order.map((n) => s.byName[n]!)) : null));
  const share = ceiling > 0 ? Math.min(1, inUse / ceiling) : 0;
  const facts = machine ? machineFacts(machine) : [];

  return (
    <div className="machine">
      <button
        type="button"
        className={`machine-words${held ? ' machine-held' : ''}`}
        popoverTarget={FACTS_ID}
        title={facts.map((f) => `${f.term}: ${f.value}`).join('\n')}
        disabled={!machine}
      >
        {held && (
          <span className="holding-back" data-testid="holding-back">
            {held}
          </span>
        )}
        <span id="machine-label">
          {!held && <span className="machine-long">This machine: </span>}
          {machineInUse(inUse, machine, ceiling, held !== null)}
        </span>
      </button>
      <div
        className="meter"
        role="meter"
        aria-labelledby="machine-label"
        aria-valuemin={0}
        aria-valuemax={ceiling}
        aria-valuenow={inUse}
        title={meterHint(machine, ceiling)}
      >
        <div className="meter-fill" style={{ width: `${share * 100}%` }} />
      </div>
      {machine && <MachineFacts id={FACTS_ID} facts={facts} />}
    </div>
  );
}

function meterHint(machine: MachineStatus | null, ceiling: number): string {
  if (!machine || machine.limitedBy === 'cores') return `This machine allows up to ${plural(ceiling, 'worker')} at once (its cores less one, kept for you).`;
  return `Lanes allows up to ${plural(ceiling, 'worker')} at once now — ${machine.text}; the cores alone allow ${machine.coreCeiling}.`;
}

function MachineFacts({ id, facts }: { id: string; facts: ReturnType<typeof machineFacts> }) {
  return (
    <div id={id} className="machine-facts" popover="auto" data-testid="machine-facts" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="machine-facts-title">
        This machine
      </h2>
      <dl>
        {facts.map((f) => (
          <div key={f.term}>
            <dt>{f.term}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <p className="machine-facts-note">Lanes reads these itself and lets go when they change. Your caps stay as you set them.</p>
    </div>
  );
}
