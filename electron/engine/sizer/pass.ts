// One sizing pass, whole: what a newcomer reads to know how Lanes decides how many workers each
// lane runs. Five steps over one snapshot, in order, every time (as pueue's `run()` lists its own):
//   1. release  — scheduled jobs whose time has come join their lane's queue (store/job-waits.ts);
//   2. observe  — the lanes, their counts and demand (each lane's computed once, here), the
//                 workers and their hands, and the machine's latest sample (judged into limits by
//                 the pure machine/limits.ts);
//   3. decide   — policy.ts: a pure function from that snapshot to actions (the one stop made for
//                 critically low memory is one of them), and the card each new ml worker is given
//                 where there are several (machine/gpu-limits.ts);
//   4. apply    — the fleet carries the actions out (mechanism only), the ledger records them,
//                 idle workers of lanes with ready work pull, and the pass remembers what the next
//                 one needs (history.ts);
//   5. publish  — one snapshot of what was seen and decided, which the status board, the nudge
//                 and the tray read instead of asking the fleet or the machine.
// Data flows one way: sampler → pass → fleet and publisher. Nothing here calls back into the pass.
import type { LaneClass } from '../../../shared/model.js';
import type { BusyLane } from '../machine/critical.js';
import type { MachineFacts } from '../machine/facts.js';
import { machineLimits, type GpuInputs, type MachineLimits } from '../machine/limits.js';
import { cardsForStarts } from '../machine/gpu-limits.js';
import type { MlLane } from '../machine/machine.js';
import { machineStatus } from '../machine/machine-status.js';
import { PRESUMED_BYTES } from '../machine/memory-limits.js';
import { pausedNow, type LaneRow } from '../store/lanes.js';
import { demandOf, type LaneDemand } from './demand.js';
import { SizerHistory } from './history.js';
import type { PassOutcome } from './loop.js';
import { decide, type Action, type Decision, type LaneObservation, type Observation } from './policy.js';
import type { PassInputs, PassOutputs, PassSnapshot, WorkerView } from './pass-types.js';

export type { PassInputs, PassOutputs, PassSnapshot, WorkerView } from './pass-types.js';

export class SizingPass {
  readonly history = new SizerHistory();
  private last: PassSnapshot | null = null;
  /** Jobs moved since the last snapshot was made: it no longer says what it describes. */
  private stale = false;
  private running = false;

  constructor(
    private readonly inputs: PassInputs,
    private readonly outputs: PassOutputs,
  ) {}

  /** The latest snapshot (before the first pass, one is observed now, deciding nothing). */
  get snapshot(): PassSnapshot {
    return this.last ?? this.publish(this.observe());
  }

  /** Jobs moved (queued, started, finished, changed): the next reader of `current` has them observed. */
  jobsMoved(): void {
    this.stale = true;
  }

  /**
   * The snapshot as of now, for what a person sees: when jobs moved since the last one (a busy
   * lane's jobs move without an event the loop runs a pass on), they are observed again and that
   * is published, deciding nothing. So each lane's demand is computed here, once per snapshot,
   * and the status never shows an older one than the store holds.
   */
  current(): PassSnapshot {
    if (this.stale && !this.running) {
      this.stale = false;
      return this.publish(this.observe());
    }
    return this.snapshot;
  }

  /** One pass; returns when to look again for a paced shrink (null: the next event or tick), and whether there was anything to size. */
  run(): PassOutcome {
    this.running = true;
    this.stale = false;
    try {
      this.inputs.releaseDue(this.inputs.now());
      const seen = this.observe();
      const decision = this.decide(seen);
      this.apply(decision, seen);
      this.publish(seen);
      return { wakeAt: decision.wakeAt, idle: seen.idle };
    } finally {
      this.running = false;
    }
  }

  forget(lane: string): void {
    this.history.forget(lane);
  }

  /** Step 2: everything the policy needs, read once, into one snapshot. */
  private observe(): Seen {
    const i = this.inputs;
    const now = i.now();
    const lanes = i.lanes.list();
    const counts = i.lanes.allCounts();
    const notYet = i.notYet(now);
    const workers = [...i.workers()];
    const paused = i.paused();
    const hands = new Map<string, number>();
    const withWorkers = new Set<string>();
    for (const w of workers) {
      hands.set(w.lane, (hands.get(w.lane) ?? 0) + w.hand);
      withWorkers.add(w.lane);
      if (w.moveTo !== undefined) withWorkers.add(w.moveTo);
    }
    const demand = new Map<string, LaneDemand>();
    const byLane = new Map<string, Mutable>();
    // A lane with no work and no worker has nothing to decide: it sits the pass out, so a pass
    // costs what the busy lanes cost, however many lanes there are.
    // A job still running as the store has it counts as work, whether or not a worker holds it:
    // one whose worker just died goes back to the queue without an event the loop hears.
    let anyWork = workers.length > 0;
    for (const l of lanes) {
      const c = counts.get(l.name);
      const d = demandOf({ queued: c?.queued ?? 0, running: c?.running ?? 0, notYet: notYet.get(l.name), inHand: hands.get(l.name) ?? 0 });
      // Every job not yet run is queued, whatever it waits for: queued and running say it all.
      if ((c?.queued ?? 0) + (c?.running ?? 0) > 0) anyWork = true;
      if (d.ready + d.inHand === 0 && d.notYet === 0 && !withWorkers.has(l.name)) continue;
      demand.set(l.name, d);
      byLane.set(l.name, laneObservation(l, d, this.history, i.startsBlockedUntil(l.name), now));
    }
    for (const w of workers) {
      const l = byLane.get(w.lane);
      if (!l) continue;
      // On its way to another lane: it leaves this one and arrives there. Not while all work is
      // paused: then it is a busy worker here, drained with the rest, so it takes nothing there.
      const moving = w.moveTo === undefined || paused ? undefined : byLane.get(w.moveTo);
      if (w.role === 'leaving' || moving) l.leaving++;
      else l[w.role].push(w.id);
      if (w.role === 'leaving' && w.countedOut) l.countedOut = (l.countedOut ?? 0) + 1;
      if (w.role === 'leaving' && w.drainedForPause && !moving) l.drainedForPause.push(w.id);
      if (moving) moving.arriving++;
    }
    for (const l of lanes) {
      const o = byLane.get(l.name);
      const served = o !== undefined && o.idle.length + o.busy.length + o.arriving > 0;
      const servedSince = SizerHistory.since(this.history.servedSince, l.name, served, now);
      const waitingSince = SizerHistory.since(this.history.waitingSince, l.name, o !== undefined && !served && o.waiting > 0 && l.cap > 0, now);
      if (o) [o.servedSince, o.waitingSince] = [servedSince, waitingSince];
    }
    const facts = i.machine.facts();
    const { limits, ml, gpu } = this.judgeMachine(facts, lanes, byLane);
    for (const l of byLane.values()) {
      const m = limits.lanes.get(l.name);
      l.limit = m?.limit ?? Infinity;
      // A lane's own limit (its memory, an ml lane's GPU) is worded; the ceiling's words are the ceiling's.
      l.limitText = m && (m.limitedBy === 'memory' || m.limitedBy === 'gpu') ? m.text : null;
    }
    const observation: Observation = {
      now,
      tickMs: i.tickMs,
      ceiling: limits.ceiling,
      ceilingText: limits.limits[0]!.text,
      lanes: [...byLane.values()],
      paused,
      critical: { facts, lanes: busyLanes(workers, i.machine), lastAt: this.history.lastCriticalAt },
    };
    return { observation, limits, facts, demand, lanes, ml, gpu, idle: !anyWork && byLane.size === 0 };
  }

  /** Every lane has limits to show, one that sat the pass out too: what memory would let it run. */
  private judgeMachine(facts: MachineFacts, lanes: readonly LaneRow[], seen: ReadonlyMap<string, Mutable>): { limits: MachineLimits; ml: MlLane[]; gpu: GpuInputs | undefined } {
    const inputs = lanes.map((l) => {
      const o = seen.get(l.name);
      const ids = o ? [...o.idle, ...o.busy] : [];
      return {
        name: l.name,
        class: l.class as LaneClass,
        cap: l.cap,
        demand: o ? o.waiting + o.busy.length : 0,
        workers: ids.length,
        leaving: o?.leaving ?? 0,
        measured: ids.filter((id) => this.inputs.machine.measured(id)).length,
        cost: this.inputs.machine.costOf(l.name),
      };
    });
    const ml = lanes.filter((l) => l.class === 'ml').map((l): MlLane => {
      const o = seen.get(l.name);
      return { name: l.name, workers: o ? [...o.idle, ...o.busy] : [], active: o !== undefined && o.waiting + o.busy.length + o.idle.length + o.leaving > 0 };
    });
    const gpu = this.inputs.machine.gpuInputs?.(ml);
    const { limits, state } = machineLimits(facts, inputs, this.history.machine, gpu);
    this.history.machine = state;
    return { limits, ml, gpu };
  }

  /**
   * Step 3: the policy's actions, and where the GPUs are several and the person did not pin them
   * (CUDA_VISIBLE_DEVICES), the card each new ml worker is given: the roomiest, counting those
   * placed before it.
   */
  private decide(seen: Seen): Decision {
    const decision = decide(seen.observation);
    const { gpu } = seen;
    const budgets = seen.limits.gpus;
    if (!gpu || gpu.pinned || !budgets || budgets.length < 2) return decision;
    const ml = new Set(seen.ml.map((l) => l.name));
    const starts = decision.actions.filter((a): a is Extract<Action, { kind: 'start' }> => a.kind === 'start' && ml.has(a.lane));
    if (starts.length === 0) return decision;
    const costs = new Map([...gpu.lanes].flatMap(([lane, l]) => (l.cost ? [[lane, l.cost.bytes] as const] : [])));
    const placed = cardsForStarts(starts, budgets, gpu.workers, costs);
    const cards = new Map(starts.map((a, i) => [a as Action, placed[i] ?? []]));
    return { ...decision, actions: decision.actions.map((a) => (a.kind === 'start' && cards.has(a) ? { ...a, cards: cards.get(a) } : a)) };
  }

  /** Step 4: the fleet acts, idle workers pull what is ready; the pass keeps what the next one needs to know. */
  private apply(decision: Decision, seen: Seen): void {
    const now = seen.observation.now;
    for (const l of seen.lanes) this.history.caps.set(l.name, l.cap);
    this.history.rememberSurplus(decision.surplus, now);
    for (const a of decision.actions) {
      if (a.kind === 'stop' && a.reason === 'idle') this.history.lastShrinkAt.set(a.lane, now);
      if (a.kind === 'critical') this.history.lastCriticalAt = a.at;
    }
    this.outputs.watchGpusFor?.(seen.ml);
    this.outputs.carryOut(decision, seen.observation.lanes);
    // Work that is ready while a worker idles (a retry whose wait just ended, a scheduled job let
    // go in step 1) is pulled: nothing else would tell that worker.
    const ready = seen.observation.lanes.filter((l) => l.waiting > 0 && l.idle.length > 0).map((l) => l.name);
    if (ready.length > 0) this.outputs.wake(ready);
  }

  /** Step 5: one snapshot for every reader. */
  private publish(seen: Seen): PassSnapshot {
    this.last = { at: seen.observation.now, limits: seen.limits, machine: machineStatus(seen.facts, seen.limits), demand: seen.demand };
    this.outputs.published(this.last);
    return this.last;
  }
}

interface Seen {
  observation: Observation;
  limits: MachineLimits;
  facts: MachineFacts;
  demand: ReadonlyMap<string, LaneDemand>;
  lanes: readonly LaneRow[];
  ml: readonly MlLane[];
  /** What the GPUs' limits were given (the ml workers on the cards); undefined where no card is read. */
  gpu: GpuInputs | undefined;
  /** No lane holds a job (queued, running, or waiting out a backoff) and no worker exists (not even one leaving a removed lane). */
  idle: boolean;
}

type Mutable = LaneObservation & { idle: string[]; busy: string[]; drainedForPause: string[] };

function laneObservation(l: LaneRow, d: LaneDemand, history: SizerHistory, startsBlockedUntil: number | null, now: number): Mutable {
  const paused = pausedNow(l, now);
  return {
    ...(paused ? { pausedUntil: paused.until } : {}),
    name: l.name,
    class: l.class,
    cap: l.cap,
    idle: [],
    busy: [],
    leaving: 0,
    drainedForPause: [],
    arriving: 0,
    // Jobs in a hand are queued, but taken: no other worker could run them.
    waiting: d.ready,
    nextRetryAt: d.nextReadyAt,
    startsBlockedUntil,
    lastShrinkAt: history.lastShrinkAt.get(l.name) ?? null,
    surplusSince: history.surplusSince.get(l.name) ?? null,
    // A shared lane's worker stays with it: its jobs are claimed and finished on its queue.
    movable: l.workerCommand === null && l.queue === null,
    servedSince: null,
    waitingSince: null,
    capWas: history.caps.has(l.name) && history.caps.get(l.name) !== l.cap ? history.caps.get(l.name)! : null,
    // Laid over once the machine is judged.
    limit: Infinity,
    limitText: null,
  };
}

/** The busy workers of each lane and what one of them costs, for the critical-memory stop. */
function busyLanes(workers: readonly WorkerView[], machine: PassInputs['machine']): BusyLane[] {
  const byLane = new Map<string, BusyLane & { busy: { id: string; since: number }[] }>();
  for (const w of workers) {
    // A draining worker still runs its job and holds its memory: it counts as busy here.
    if (w.since === null) continue;
    const lane = byLane.get(w.lane) ?? { name: w.lane, costBytes: machine.costOf(w.lane)?.bytes ?? PRESUMED_BYTES.cpu, busy: [] };
    lane.busy.push({ id: w.id, since: w.since });
    byLane.set(w.lane, lane);
  }
  return [...byLane.values()];
}
