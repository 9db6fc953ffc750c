// What one worker of a lane typically costs in memory: the recent maximum of its workers'
// measurements, fading toward what is measured now. A maximum, because the worst a job holds is
// what must fit; fading, because a lane whose model got smaller should not be held to the old
// size for ever. It fades only as new measurements arrive: a lane that sits idle for a week
// keeps what it knew. Pure; a LaneCost is plain JSON so the engine can keep it across restarts.

export interface LaneCost {
  /** Typical bytes per worker. */
  bytes: number;
  /** When the last measurement was taken, ms since the epoch. */
  at: number;
  /**
   * Sampling rounds that measured it (capped): several workers measured in one round count once,
   * since one round can catch them all mid-start. Until SETTLED_ROUNDS the cost is provisional.
   */
  rounds: number;
}

/** A cost from fewer rounds may have caught every worker before it loaded what it holds. */
export const SETTLED_ROUNDS = 3;

/** A peak loses half its excess over what is measured now every this long. */
export const COST_HALF_LIFE_MS = 60 * 60_000;
const ROUNDS_MAX = 1_000_000;
/** No worker runtime is smaller than this; a smaller figure is a process caught starting or ending. */
export const BYTES_MIN = 1 << 20;
/** No worker holds 16 TiB; a larger figure is a misread. */
const BYTES_MAX = 2 ** 44;

/**
 * The lane's cost after one more measurement of one of its workers. Feed only measurements of
 * workers running a job (or holding a model their command loaded for one): a worker that has not
 * yet run anything holds only its runtime, which would make the lane look cheap. `settles`: false
 * for a worker still on its first job, which may be loading what it will hold — the figure can
 * raise the cost, but never counts as a round that makes it believed (three quick samples of one
 * worker mid-load once settled a 400 MB lane at its runtime's 40 MB).
 */
export function recordCost(prev: LaneCost | null | undefined, bytes: number, at: number, min = BYTES_MIN, settles = true): LaneCost | null {
  if (!Number.isFinite(bytes) || bytes < min || bytes > BYTES_MAX) return prev ?? null;
  const round = settles ? 1 : 0;
  if (!prev) return { bytes, at, rounds: round };
  const dt = Math.max(0, at - prev.at);
  const faded = bytes + Math.max(0, prev.bytes - bytes) * 2 ** (-dt / COST_HALF_LIFE_MS);
  return { bytes: Math.round(Math.max(bytes, faded)), at: Math.max(at, prev.at), rounds: Math.min(ROUNDS_MAX, prev.rounds + (at > prev.at ? round : 0)) };
}

/**
 * A stored LaneCost, checked: what the database holds is read back as untrusted as anything else.
 * `min`: the smallest figure a measurement may give (a GPU cost may be 0: the lane uses none).
 */
export function parseLaneCost(value: unknown, min = BYTES_MIN): LaneCost | null {
  if (typeof value !== 'object' || value === null) return null;
  const { bytes, at, rounds } = value as Record<string, unknown>;
  const ok =
    typeof bytes === 'number' && Number.isFinite(bytes) && bytes >= min && bytes <= BYTES_MAX &&
    typeof at === 'number' && Number.isSafeInteger(at) && at >= 0 &&
    typeof rounds === 'number' && Number.isSafeInteger(rounds) && rounds >= 0 && rounds <= ROUNDS_MAX;
  return ok ? { bytes, at, rounds } : null;
}
