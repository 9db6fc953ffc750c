// One sizer pass as the fleet runs it at 50 lanes: the machine's limits for the lanes as they are
// (machine/limits.ts, memory divided by measured cost) and the policy's decision (sizer/policy.ts),
// both pure, timed over many passes on a machine whose facts say memory is tight, so every rule
// has work to do. Target: within 5 ms a pass.
import { pathToFileURL } from 'node:url';
import { machineLimits, INITIAL_LIMITS_STATE } from '../../electron/engine/machine/limits.js';
import type { MachineFacts } from '../../electron/engine/machine/facts.js';
import { decide, type LaneObservation } from '../../electron/engine/sizer/policy.js';
import { summarize, type Figure } from './stats.js';

const LANES = 50;
const GiB = 2 ** 30;

const facts = (at: number): MachineFacts => ({
  at,
  cpu: { cores: 16, coresFrom: 'hardware', quota: null, otherBusy: 1.2 },
  memory: { total: 32 * GiB, available: 6 * GiB, usedByLanes: 4 * GiB, override: null },
  power: { source: 'ac', percent: null, from: 'observed' },
  person: { idleSeconds: 20, locked: false },
  thermal: 'unknown',
});

function lanes(now: number): LaneObservation[] {
  return Array.from({ length: LANES }, (_, i) => ({
    name: `lane-${String(i).padStart(2, '0')}`,
    class: i % 5 === 0 ? ('ml' as const) : ('cpu' as const),
    cap: 1 + (i % 7),
    idle: i % 3 === 0 ? [`l${i}-i0`] : [],
    busy: i % 4 === 0 ? [`l${i}-b0`] : [],
    leaving: 0,
    waiting: (i * 37) % 200,
    nextRetryAt: null,
    startsBlockedUntil: null,
    lastShrinkAt: null,
    surplusSince: null,
    movable: i % 5 !== 0,
    servedSince: i % 4 === 0 ? now - 5000 : null,
    waitingSince: i % 4 === 0 ? null : now - 1000 * i,
    arriving: 0,
    capWas: null,
    limit: Infinity,
    limitText: null,
  }));
}

function pass(now: number, state = INITIAL_LIMITS_STATE): number {
  const seen = lanes(now);
  const inputs = seen.map((l, i) => ({
    name: l.name,
    class: l.class,
    cap: l.cap,
    demand: l.waiting + l.busy.length,
    workers: l.idle.length + l.busy.length,
    leaving: 0,
    measured: l.busy.length,
    cost: i % 2 === 0 ? { bytes: (i % 5 === 0 ? 3 : 0.2) * GiB, rounds: 10 } : null,
  }));
  const { limits } = machineLimits(facts(now), inputs, state);
  const withLimits = seen.map((l) => ({ ...l, limit: limits.lanes.get(l.name)!.limit }));
  return decide({ now, tickMs: 60_000, ceiling: limits.ceiling, ceilingText: limits.text, lanes: withLimits }).actions.length;
}

export function sizerPassMeasures(rounds = 200): Figure[] {
  let now = 1_800_000_000_000;
  for (let i = 0; i < 50; i++) pass((now += 1000));
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let j = 0; j < 10; j++) pass((now += 1000));
    ms.push((performance.now() - t0) / 10);
  }
  const value = summarize(ms);
  return [{ section: 'Watching the machine', what: `one sizer pass with the machine's limits, ${LANES} lanes`, unit: 'ms', lanes: value, target: '≤ 5 ms', judge: (f) => f.lanes.median <= 5 }];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(JSON.stringify(sizerPassMeasures(Number(process.argv[2] ?? 200)), null, 2) + '\n');
}
