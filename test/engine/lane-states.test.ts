// The lane and worker state machine (docs/sizer.md "States"), as a table of sequences against the
// pure policy: pause, resume, cap changes, jobs ending and a restart, each row a sequence and the
// state it must end in. A small world stands in for the pool's mechanism — workers idle, busy or
// draining, idle ones taking waiting work unless paused — and after every step the pass runs until
// it has nothing more to do; no worker may be left draining for a reason that no longer holds.
import { describe, expect, it } from 'vitest';
import { decide, type Action } from '../../electron/engine/sizer/policy.js';
import { lane, observe } from './policy-fixtures.js';

type State = 'idle' | 'busy' | 'draining';
interface Worker {
  id: string;
  state: State;
  /** Why it drains. */
  why?: string;
}
interface World {
  cap: number;
  waiting: number;
  paused: boolean;
  workers: Worker[];
  seq: number;
}
type Step = 'pause' | 'resume' | 'finish' | 'restart' | `cap ${number}` | `add ${number}`;

const CEILING = 4;

function pass(w: World): Action[] {
  const o = observe(CEILING, [
    {
      ...lane('rp', { cap: w.cap, waiting: w.waiting, leaving: w.workers.filter((x) => x.state === 'draining').length }),
      idle: w.workers.filter((x) => x.state === 'idle').map((x) => x.id),
      busy: w.workers.filter((x) => x.state === 'busy').map((x) => x.id),
      drainedForPause: w.workers.filter((x) => x.state === 'draining' && x.why === 'pause').map((x) => x.id),
    },
  ]);
  const { actions } = decide({ ...o, paused: w.paused });
  for (const a of actions) {
    if (a.kind === 'start') for (let i = 0; i < a.count; i++) w.workers.push({ id: `w${++w.seq}`, state: 'idle' });
    if (a.kind === 'stop') w.workers = w.workers.filter((x) => !a.workers.includes(x.id));
    const to = a.kind === 'drain' ? { state: 'draining' as const, why: a.reason } : a.kind === 'keep' ? { state: 'busy' as const, why: undefined } : null;
    if (to && 'workers' in a) for (const x of w.workers.filter((y) => a.workers.includes(y.id))) Object.assign(x, to);
  }
  return actions;
}

/** What the pool does between passes: idle workers take waiting work, unless all work is paused. */
function take(w: World): void {
  if (w.paused) return;
  for (const x of w.workers) {
    if (x.state !== 'idle' || w.waiting === 0) continue;
    x.state = 'busy';
    w.waiting--;
  }
}

function step(w: World, s: Step): void {
  if (s === 'pause') w.paused = true;
  else if (s === 'resume') w.paused = false;
  else if (s === 'restart') {
    // The engine's workers die with it; the jobs they ran are queued again at the next start.
    w.waiting += w.workers.filter((x) => x.state !== 'idle').length;
    w.workers = [];
  }
  else if (s === 'finish') {
    // The oldest job running ends: a busy worker goes idle, a draining one leaves.
    const x = w.workers.find((y) => y.state === 'busy' || y.state === 'draining');
    if (x?.state === 'busy') x.state = 'idle';
    else if (x) w.workers = w.workers.filter((y) => y !== x);
  } else if (s.startsWith('cap ')) w.cap = Number(s.slice(4));
  else w.waiting += Number(s.slice(4));
  for (let i = 0; i < 5; i++) {
    take(w);
    if (pass(w).length === 0) break;
  }
  take(w);
}

const summary = (w: World) => ({
  busy: w.workers.filter((x) => x.state === 'busy').length,
  idle: w.workers.filter((x) => x.state === 'idle').length,
  draining: w.workers.filter((x) => x.state === 'draining').map((x) => x.why),
  waiting: w.waiting,
});

describe('lane and worker states through pause, resume, cap changes and restarts', () => {
  const rows: { name: string; cap: number; steps: Step[]; want: ReturnType<typeof summary> }[] = [
    { name: 'the finding: a job running through pause and resume keeps its worker busy', cap: 2, steps: ['add 1', 'pause', 'resume'], want: { busy: 1, idle: 0, draining: [], waiting: 0 } },
    { name: 'paused: the busy worker drains for the pause, nothing new starts', cap: 2, steps: ['add 1', 'pause', 'add 3'], want: { busy: 0, idle: 0, draining: ['pause'], waiting: 3 } },
    { name: 'its job ends while paused: the worker leaves; resume starts workers for what waits', cap: 2, steps: ['add 1', 'pause', 'add 3', 'finish', 'resume'], want: { busy: 2, idle: 0, draining: [], waiting: 1 } },
    { name: 'resumed with work waiting: the kept worker and a new one share it', cap: 2, steps: ['add 1', 'pause', 'add 3', 'resume'], want: { busy: 2, idle: 0, draining: [], waiting: 2 } },
    { name: 'the cap lowered while paused: resume keeps what the cap allows, drains the rest for the cap', cap: 2, steps: ['add 2', 'pause', 'cap 1', 'resume'], want: { busy: 1, idle: 0, draining: ['cap'], waiting: 0 } },
    { name: 'cap 0 while paused: resume drains for the cap, not the pause', cap: 2, steps: ['add 1', 'pause', 'cap 0', 'resume'], want: { busy: 0, idle: 0, draining: ['cap'], waiting: 0 } },
    { name: 'drained for a lowered cap before the pause: resume does not keep it', cap: 2, steps: ['add 2', 'cap 1', 'pause', 'resume'], want: { busy: 1, idle: 0, draining: ['cap'], waiting: 0 } },
    { name: 'the cap raised while paused starts nothing until resume', cap: 1, steps: ['add 3', 'pause', 'cap 3'], want: { busy: 0, idle: 0, draining: ['pause'], waiting: 2 } },
    { name: 'and resume then runs all three', cap: 1, steps: ['add 3', 'pause', 'cap 3', 'resume'], want: { busy: 3, idle: 0, draining: [], waiting: 0 } },
    { name: 'pause, resume, pause again: drained again for the pause', cap: 2, steps: ['add 1', 'pause', 'resume', 'pause'], want: { busy: 0, idle: 0, draining: ['pause'], waiting: 0 } },
    { name: 'resume twice changes nothing more', cap: 2, steps: ['add 1', 'pause', 'resume', 'resume'], want: { busy: 1, idle: 0, draining: [], waiting: 0 } },
    { name: 'a kept worker finishes and stays idle for the next job', cap: 2, steps: ['add 1', 'pause', 'resume', 'finish'], want: { busy: 0, idle: 1, draining: [], waiting: 0 } },
    { name: 'an idle worker stops at pause, and a resume with nothing waiting starts none', cap: 2, steps: ['add 1', 'finish', 'pause', 'resume'], want: { busy: 0, idle: 0, draining: [], waiting: 0 } },
    { name: 'restart while paused (the pause is kept): nothing starts', cap: 2, steps: ['add 2', 'pause', 'restart'], want: { busy: 0, idle: 0, draining: [], waiting: 2 } },
    { name: 'restart while paused, then resume: the work runs', cap: 2, steps: ['add 2', 'pause', 'restart', 'resume'], want: { busy: 2, idle: 0, draining: [], waiting: 0 } },
  ];
  for (const row of rows) {
    it(row.name, () => {
      const w: World = { cap: row.cap, waiting: 0, paused: false, workers: [], seq: 0 };
      for (const s of row.steps) {
        step(w, s);
        // The invariant of every step: a worker drains only for a reason that still holds.
        for (const x of w.workers) if (x.state === 'draining' && x.why === 'pause') expect(w.paused, `${x.id} drained for a pause that ended`).toBe(true);
      }
      expect(summary(w)).toEqual(row.want);
    });
  }
});
