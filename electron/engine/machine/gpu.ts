// The GPUs as the sizer sees them, and nvidia-smi's two answers read into that shape: one line per
// card (`--query-gpu`) and one per process using a card (`--query-compute-apps`). Pure: the
// reading is gpu-reader.ts, the rules gpu-limits.ts. What nvidia-smi prints is untrusted like any
// other boundary: a line that does not parse is left out, and the counts are bounded.

const MiB = 2 ** 20;
/** More cards than this in one machine is a misread, not a machine. */
export const CARDS_MAX = 64;
/** Processes on the cards counted at most; more are left out (they would only be other programs). */
export const APPS_MAX = 4096;
/** No card has 16 TiB; a larger figure is a misread. */
const MIB_MAX = 2 ** 24;

export interface GpuCard {
  /** nvidia-smi's index: what CUDA_VISIBLE_DEVICES names by default. */
  index: number;
  uuid: string;
  name: string;
  totalBytes: number;
  /** In use by everything on the card: Lanes' workers and other programs. */
  usedBytes: number;
  /** Of that, what Lanes' workers (and all they run) hold: free for them too, since they hold it. */
  usedByLanes: number;
}

export interface GpuApp {
  /** The card's uuid. */
  gpu: string;
  pid: number;
  usedBytes: number;
}

/**
 * Where GPU memory is known from. 'nvidia': nvidia-smi is on PATH; `cards` is the last good
 * reading, null until the first (only while an ml lane holds work or workers) and again once it
 * is older than ENGINE_DEFAULTS.gpuKeepMs; `at` is when it was read (null: never). `error` says
 * why the last read failed, `failures` counts the reads that failed in a row, and `refusals` those
 * of them in a row that nvidia-smi answered with an error (not a timeout). 'unified': Apple
 * silicon, whose GPU memory is the system memory the memory limit already divides.
 */
export type GpuFacts =
  | { source: 'nvidia'; cards: GpuCard[] | null; at: number | null; override: number | null; error?: string; failures?: number; refusals?: number }
  | { source: 'unified' };

/**
 * After a read that failed: the last good cards stay in force for `keepMs` after they were read
 * (the limits grow no lane on them meanwhile), then are dropped as too old. Only failures that
 * nvidia-smi answered count towards GPU memory being not known; a timeout says nothing about the
 * driver, only that the machine is slow.
 */
export function failedRead(gpu: Extract<GpuFacts, { source: 'nvidia' }>, failure: { message: string; timedOut: boolean }, now: number, keepMs: number): GpuFacts {
  const cards = gpu.cards && gpu.at !== null && now - gpu.at <= keepMs ? gpu.cards : null;
  return { source: 'nvidia', override: gpu.override, cards, at: gpu.at, error: failure.message, failures: (gpu.failures ?? 0) + 1, refusals: failure.timedOut ? 0 : (gpu.refusals ?? 0) + 1 };
}

/** The query for the cards, and for the processes on them, as nvidia-smi takes them. */
export const GPU_QUERY = ['--query-gpu=index,uuid,name,memory.total,memory.used', '--format=csv,noheader,nounits'];
export const APPS_QUERY = ['--query-compute-apps=gpu_uuid,pid,used_memory', '--format=csv,noheader,nounits'];

const mib = (raw: string | undefined): number | null => {
  const n = Number(raw?.trim());
  return raw !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(raw) && n <= MIB_MAX ? Math.round(n * MiB) : null;
};

const lines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** `0, GPU-8f…, NVIDIA GeForce RTX 4090, 24564, 1203` per card. A name may hold commas: it is what lies between. */
export function parseCards(text: string): GpuCard[] {
  const cards: GpuCard[] = [];
  for (const line of lines(text)) {
    const f = line.split(',');
    if (f.length < 5 || cards.length >= CARDS_MAX) continue;
    const index = Number(f[0]!.trim());
    const uuid = f[1]!.trim();
    const total = mib(f[f.length - 2]);
    const used = mib(f[f.length - 1]);
    if (!Number.isInteger(index) || index < 0 || index >= CARDS_MAX || !uuid || uuid.length > 128 || total === null || used === null || total === 0) continue;
    const name = f.slice(2, -2).join(',').trim().slice(0, 128);
    cards.push({ index, uuid, name, totalBytes: total, usedBytes: Math.min(used, total), usedByLanes: 0 });
  }
  return cards;
}

/** `GPU-8f…, 4242, 6000` per process; "[N/A]" (as Windows' WDDM mode prints) leaves the process out. */
export function parseApps(text: string): GpuApp[] {
  const apps: GpuApp[] = [];
  for (const line of lines(text)) {
    const f = line.split(',');
    if (f.length !== 3 || apps.length >= APPS_MAX) continue;
    const pid = Number(f[1]!.trim());
    const used = mib(f[2]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || used === null) continue;
    apps.push({ gpu: f[0]!.trim(), pid, usedBytes: used });
  }
  return apps;
}

/**
 * CUDA_VISIBLE_DEVICES as the person set it: the cards it names (by index or uuid), in its order.
 * Unset: every card. Set to something naming none of them (as "" or "-1" do): none.
 */
export function visibleCards(cards: readonly GpuCard[], raw: string | undefined): GpuCard[] {
  if (raw === undefined) return [...cards];
  const out: GpuCard[] = [];
  for (const name of raw.split(',').map((s) => s.trim())) {
    const card = cards.find((c) => String(c.index) === name || c.uuid === name || (name.startsWith('GPU-') && c.uuid.startsWith(name)));
    if (!card) break; // CUDA stops at the first name it does not know.
    if (!out.includes(card)) out.push(card);
  }
  return out;
}

/**
 * CUDA_VISIBLE_DEVICES as Lanes' workers inherit it: the engine's environment, unless the one
 * handed to the engine (`env`, as tests and embedders give it) names it.
 */
export function cudaVisibleDevices(env: NodeJS.ProcessEnv | undefined): string | undefined {
  return (env && 'CUDA_VISIBLE_DEVICES' in env ? env : process.env).CUDA_VISIBLE_DEVICES;
}

/**
 * One reading put together: the cards the workers may use, each with what Lanes' workers hold
 * there, and per worker (by its pids) what it holds and on which card most. The two queries are
 * two moments, so a model loaded between them shows in one only: a card is never less used than
 * what its processes hold.
 */
export function placeOnCards(read: { cards: readonly GpuCard[]; apps: readonly GpuApp[] }, workers: readonly (readonly number[])[], visible: string | undefined): { cards: GpuCard[]; workers: { bytes: number; card: string | null }[] } {
  const cards = visibleCards(read.cards, visible).map((c) => ({ ...c }));
  const placed = workers.map((pids) => {
    const used = gpuBytesOf(pids, read.apps);
    for (const c of cards) c.usedByLanes += used.byCard.get(c.uuid) ?? 0;
    const most = [...used.byCard].sort((a, b) => b[1] - a[1])[0];
    return { bytes: used.bytes, card: most ? most[0] : null };
  });
  for (const c of cards) c.usedBytes = Math.min(c.totalBytes, Math.max(c.usedBytes, c.usedByLanes));
  return { cards, workers: placed };
}

/** What each worker holds on the cards: the sum over the processes of its tree, by pid. */
export function gpuBytesOf(pids: readonly number[], apps: readonly GpuApp[]): { bytes: number; byCard: Map<string, number> } {
  const mine = new Set(pids);
  const byCard = new Map<string, number>();
  let bytes = 0;
  for (const a of apps) {
    if (!mine.has(a.pid)) continue;
    bytes += a.usedBytes;
    byCard.set(a.gpu, (byCard.get(a.gpu) ?? 0) + a.usedBytes);
  }
  return { bytes, byCard };
}
