// What a lane says about itself beyond its mood word: why it is not running anything, when what it
// holds will be done, how long its oldest job has waited, what the machine holds it to, what a
// higher cap buys, and a one-line summary of all lanes for when the lanes section is folded; and
// what the machine holds all lanes to, for the header. Pure.
import type { LaneStatus, MachineStatus, Nudge, Paused } from '../shared/model.js';
import { aboutBytes, aboutDuration, etaWords, jobsLeft, plural as sharedPlural } from '../shared/format.js';
import { gpuFacts } from '../shared/gpu-words.js';
import { PACE_AFTER_JOBS } from '../shared/limits.js';
import { formatClock, formatCount, formatDuration, formatMinute, formatRate, plural } from './format.js';

/**
 * Why a lane does less than a person might expect, or null when the mood word says enough.
 * Most pressing first: a lane whose worker command keeps dying runs nothing whatever its cap; a
 * pause holds every lane whatever its cap, and says until when.
 */
export function laneReason(lane: LaneStatus, now: number, paused: Paused | null = null): string | null {
  if (lane.startsBlockedUntil !== null && lane.startsBlockedUntil > now) {
    return `its worker command keeps exiting as it starts — next try at ${formatClock(lane.startsBlockedUntil, now)}`;
  }
  // A plain BullMQ Worker on a shared lane's queue: what it completes never ran here (docs/shared-lanes.md).
  const outside = lane.shared?.outsideWorker;
  if (outside) return `a worker that is not Lanes is taking its jobs (seen at ${formatClock(outside.seenAt, now)}) — what it completes shows as failed; stop it`;
  if (paused && lane.cap > 0) return paused.until === null ? 'all work paused until you resume' : `all work paused until ${formatClock(paused.until, now)}`;
  // Paused by itself (`pause` with `lane`): the same words, of this lane alone.
  if (lane.paused && lane.cap > 0) return lane.paused.until === null ? 'paused until you resume it' : `paused until ${formatClock(lane.paused.until, now)}`;
  if (lane.cap === 0) {
    // The built-in ml lane starts off on purpose (a model can take gigabytes): say so, or a person
    // reads "Off" as broken.
    if (lane.class === 'ml' && lane.workerCommand === null) return 'ml lanes start off — raise the cap to run jobs';
    return 'cap 0 — raise the cap to run its jobs';
  }
  if (lane.waiting === 0 && lane.delayed > 0) return `${plural(lane.delayed, 'retry', 'retries')} waiting to run again`;
  if (lane.waiting === 0) return notYetText(lane);
  return null;
}

/** "12 waiting for other jobs, 3 scheduled, the next at 02:00": what cannot run yet, apart from what waits for a worker; null when none. */
export function notYetText(lane: Pick<LaneStatus, 'waitingForJobs' | 'scheduled' | 'scheduledNext'>): string | null {
  const parts: string[] = [];
  if (lane.waitingForJobs > 0) parts.push(`${formatCount(lane.waitingForJobs)} waiting for other jobs`);
  if (lane.scheduled > 0) {
    // Several are due at several times: the first one's time is "the next", not all of theirs.
    const at = lane.scheduledNext === null ? '' : lane.scheduled === 1 ? ` for ${formatMinute(lane.scheduledNext)}` : `, the next at ${formatMinute(lane.scheduledNext)}`;
    parts.push(`${formatCount(lane.scheduled)} scheduled${at}`);
  }
  return parts.length > 0 ? parts.join(', ') : null;
}

/** Jobs the lane still has to finish, as everywhere (shared/format.ts). */
export { jobsLeft };

/** "4,533 left, about 38 min", "… estimating…", or nothing: the one rule (shared/format.ts etaWords). */
export const laneEta = (lane: LaneStatus): string | null => etaWords(lane);

/**
 * The wait column: how long the oldest job still waiting has waited (so 4,956 waiting never reads
 * "11 s"); with nothing waiting, the median wait of the jobs that started lately.
 */
export function laneWait(lane: LaneStatus, now: number): { text: string; hint: string } {
  if (lane.oldestQueuedAt !== null) {
    return { text: formatDuration(Math.max(0, now - lane.oldestQueuedAt)), hint: `The job waiting longest could run from ${formatClock(lane.oldestQueuedAt)}: a time it was given, or the jobs it runs after, are not counted as waiting.` };
  }
  if (lane.medianWaitMs !== null) return { text: formatDuration(lane.medianWaitMs), hint: 'Nothing waits now: the median wait of the jobs that started lately.' };
  return { text: '—', hint: 'Nothing waits now.' };
}

/**
 * The pips: one per worker (busy, idle, finishing then stopping), then the slots the cap leaves
 * free. A worker finishing its job still holds its slot, so a cap-1 lane paused mid-job shows one.
 */
export function pipKinds(busy: number, idle: number, draining: number, cap: number): ('busy' | 'idle' | 'draining' | 'free')[] {
  const free = Math.max(0, cap - busy - idle - draining);
  const fill = <K extends string>(n: number, k: K): K[] => Array<K>(n).fill(k);
  return [...fill(busy, 'busy' as const), ...fill(idle, 'idle' as const), ...fill(draining, 'draining' as const), ...fill(free, 'free' as const)];
}

/**
 * The Done / min column: the engine's live pace (over the last 30 s), once it is one — as many
 * jobs finished in that window as the estimate needs — so one quick job never reads "12".
 */
export function doneRate(lane: Pick<LaneStatus, 'throughputPerMin' | 'finishedLately'>): { text: string; hint: string } {
  const hint = 'Jobs finished per minute, over the last 30 seconds.';
  if (lane.throughputPerMin === 0) return { text: '0', hint };
  if ((lane.finishedLately ?? PACE_AFTER_JOBS) >= PACE_AFTER_JOBS) return { text: formatRate(lane.throughputPerMin), hint };
  return { text: '—', hint: `Too few jobs finished lately for a pace (fewer than ${PACE_AFTER_JOBS}).` };
}

/** The class tag's explanation; an ml lane without a worker command starts each job on its own. */
export function classHint(lane: Pick<LaneStatus, 'class' | 'workerCommand'>): string {
  if (lane.class === 'cpu') return lane.workerCommand ? 'CPU lane with a worker command: each worker takes one payload at a time.' : 'CPU lane: each job runs as its own command.';
  return lane.workerCommand
    ? 'Model lane: each worker loads the model once and takes one payload at a time; workers are given back slowly.'
    : 'Model lane without a worker command: each job runs as its own command and loads its model itself; workers are given back slowly.';
}

/** The folded lanes section in one line: how many, what they do, and whether any could go faster. */
export function lanesSummary(lanes: readonly LaneStatus[]): string {
  let busy = 0;
  let waiting = 0;
  let failed = 0;
  let nudges = 0;
  for (const l of lanes) {
    busy += l.busy;
    waiting += l.waiting;
    failed += l.failed;
    if (l.nudge) nudges++;
  }
  const parts = [plural(lanes.length, 'lane'), `${plural(busy, 'worker')} busy`, `${plural(waiting, 'job')} waiting`];
  if (failed > 0) parts.push(`${plural(failed, 'failed job')}`);
  if (nudges > 0) parts.push(nudges === 1 ? '1 lane could run faster' : `${plural(nudges, 'lane')} could run faster`);
  return parts.join(' · ');
}

// ── the machine's limits ─────────────────────────────────────────────────────────────────────
// Lanes holds back by itself (battery, the person at the computer, other programs, memory) and
// lets go when that changes; the cap stays the person's only setting. These words say so calmly:
// a limit is an explanation, never an error.

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The header's words when something other than the cores holds Lanes back, or null: "Quiet: on
 * battery — 3 of 7 workers". Memory binds lane by lane (the machine's ceiling stays), so it names
 * the lanes it holds; their rows say how many fit. Those come from the lanes themselves, whose
 * events follow every change, where the machine's status moves with its next reading.
 */
export function holdingBack(machine: MachineStatus, lanes: readonly LaneStatus[]): string | null {
  if (machine.limitedBy !== 'cores' && machine.limitedBy !== 'memory' && machine.limitedBy !== 'gpu') {
    const count = machine.ceiling < machine.coreCeiling ? ` — ${machine.ceiling} of ${plural(machine.coreCeiling, 'worker')}` : '';
    return `${capitalized(machine.text)}${count}`;
  }
  const held = lanes.filter((l) => l.limit?.by === 'memory').map((l) => l.name);
  const byGpu = lanes.filter((l) => l.limit?.by === 'gpu').map((l) => l.name);
  const names = (n: string[]) => (n.length <= 2 ? n.join(' and ') : plural(n.length, 'lane'));
  const said = [...(held.length ? [`Memory holds back ${names(held)}`] : []), ...(byGpu.length ? [`${held.length ? 'the' : 'The'} GPU holds back ${names(byGpu)}`] : [])];
  return said.length ? said.join('; ') : null;
}

const POWER_WORDS: Record<MachineStatus['power'], string> = { ac: 'plugged in', battery: 'on battery', unknown: 'not known' };

function coreWords(machine: MachineStatus): string {
  if (machine.personActive !== true) return machine.coreCeiling < machine.cores ? 'the container’s whole CPU share: nobody at the computer' : 'all of them: nobody at the computer';
  return machine.coreCeiling < machine.cores - 1 ? 'the container’s CPU share less one' : 'one core kept free for you';
}

/** The machine's facts, as the popover behind the header lists them (and its tooltip, joined). */
export function machineFacts(machine: MachineStatus): { term: string; value: string }[] {
  // While someone is at the computer the core ceiling is cores − 1, otherwise every core; below that, a container's CPU quota set it.
  const coreNote = coreWords(machine);
  const now = machine.limitedBy === 'cores' ? 'all the cores allow' : machine.text;
  return [
    { term: 'Workers now', value: `at most ${machine.ceiling} — ${now}` },
    { term: 'Cores', value: `${formatCount(machine.cores)} — ${plural(machine.coreCeiling, 'worker')}, ${coreNote}` },
    { term: 'Memory for workers', value: aboutBytes(machine.memoryBytes) },
    ...gpuFacts(machine),
    { term: 'Power', value: POWER_WORDS[machine.power] },
    { term: 'Someone at the computer', value: machine.personActive === null ? 'cannot tell here' : machine.personActive ? 'yes — Lanes leaves them room' : 'no, away' },
  ];
}

/**
 * The header's count beside its words: when those already say how many workers Lanes allows now
 * ("3 of 7 workers"), only how many are in use; otherwise both.
 */
export function machineInUse(inUse: number, machine: MachineStatus | null, ceiling: number, held: boolean): string {
  if (held && machine && machine.ceiling < machine.coreCeiling) return `${formatCount(inUse)} in use`;
  return `${formatCount(inUse)} of ${plural(ceiling, 'worker')} in use`;
}

/** "about 410 MB per worker", once the engine has measured one of the lane's workers. */
export function workerMemory(lane: Pick<LaneStatus, 'workerMemoryBytes'>): string | null {
  return lane.workerMemoryBytes === null ? null : `about ${aboutBytes(lane.workerMemoryBytes)} per worker`;
}

/**
 * When the machine, not the cap, holds a lane back: the engine's words, and how many it may run
 * while that lasts. Memory's words already count ("memory for 3 of these, about 410 MB each").
 */
export function laneLimit(lane: Pick<LaneStatus, 'limit'>): string | null {
  const limit = lane.limit;
  if (!limit) return null;
  if (limit.by === 'memory' || limit.by === 'gpu') return limit.text;
  return `${limit.text} — ${limit.workers === 0 ? 'no workers' : `up to ${plural(limit.workers, 'worker')}`} for now`;
}

/**
 * The nudge's words split around what a higher cap buys ("about 11 h at 1 worker, about 2 h at
 * 6"), so the window can set that part apart. The engine writes it with the shared formatters;
 * if its words ever differ, the text stays whole.
 */
export function nudgeParts(nudge: Nudge, cap: number): { before: string; estimate: string | null; after: string } {
  const e = nudge.estimate;
  if (e) {
    const estimate = `${aboutDuration(e.atCapMs)} at ${sharedPlural(cap, 'worker')}, ${aboutDuration(e.atSuggestedMs)} at ${nudge.suggestedCap}`;
    const at = nudge.text.indexOf(estimate);
    if (at >= 0) return { before: nudge.text.slice(0, at), estimate, after: nudge.text.slice(at + estimate.length) };
  }
  return { before: nudge.text, estimate: null, after: '' };
}
