// Reads the machine on a cadence that costs little, and at once when something moves it. While
// the engine has something to size (the sizer loop says when; it sleeps it otherwise), every
// 15 s: /proc/meminfo (or the OS's figure), the cgroup's few small files, the CPU counters, one
// /proc scan for what the workers hold, and the desktop's idle time (a getter). The battery: from
// the desktop's powerMonitor when there is one (free), else systeminformation every 2 min. The
// core count: once. A power change, resume, lock or unlock reads everything again at once.
// Overrides from the environment replace what they name, and a bad one refuses to start. The
// GPUs: where nvidia-smi is on PATH, with the same reads, but only while an ml lane holds work
// or workers (`gpuWanted`); where it is not, nothing is asked and nothing more runs.
import { availableParallelism, freemem, totalmem } from 'node:os';
import si from 'systeminformation';
import { readCgroupLimits, type CgroupLimits } from './cgroup.js';
import { busyCpuMs, nextLoad, type LoadReading } from './cpu-load.js';
import type { DesktopEvent, DesktopSignals, MachineFacts } from './facts.js';
import { readMemory, type MemoryReading } from './meminfo.js';
import { parseCores, readOverrides, type Overrides } from './overrides.js';
import { readPower, type PowerFact } from './power.js';
import { cudaVisibleDevices, failedRead, placeOnCards, type GpuFacts } from './gpu.js';
import { GpuReadError, NvidiaSmi } from './gpu-reader.js';
import { WorkerMeter, type WorkerTarget, type WorkerUsage } from './worker-meter.js';
import { ENGINE_DEFAULTS } from '../defaults.js';

export interface MachineSample {
  facts: MachineFacts;
  /** What each worker `workers()` named held and used since the last sample. */
  workers: WorkerUsage[];
}

/** Where facts come from; tests replace some. */
export interface MachineReaders {
  cores(): Promise<number>;
  /** CPUs this process may run on (affinity). */
  affinity(): number;
  memory(): Promise<MemoryReading>;
  cgroup(): CgroupLimits;
  power(): Promise<PowerFact>;
  busyMs(usage: CgroupLimits['cpuUsage']): number;
}

export interface WatcherOptions {
  env?: NodeJS.ProcessEnv;
  /** The engine's `cores` option: like LANES_CORES, and wins over it. */
  cores?: number;
  desktop?: DesktopSignals | null;
  /** The live workers to measure at each sample. */
  workers?: () => readonly WorkerTarget[];
  /** Whether the GPUs are worth reading now: an ml lane holds work or workers. */
  gpuWanted?: () => boolean;
  /** After every read, with what it found: the engine feeds lane costs and pokes the sizer. */
  sampled?: (sample: MachineSample) => void;
  sampleMs?: number;
  /** How long one call of nvidia-smi may take before it is killed with all it started. */
  gpuTimeoutMs?: number;
  /** The engine's cgroup, where each call of nvidia-smi runs in one of its own; null or absent: none. */
  cgroupBase?: string | null;
  /** How long the last good reading of the GPUs stands while reads fail. */
  gpuKeepMs?: number;
  /** How often the battery is asked about when no desktop says. */
  powerMs?: number;
  now?: () => number;
  monotonic?: () => number;
  readers?: Partial<MachineReaders>;
  log?: (line: string) => void;
}

export const POWER_MS = 120_000;

const defaultReaders: MachineReaders = {
  cores: async () => {
    const cpu = await si.cpu();
    return cpu.cores > 0 ? cpu.cores : 1;
  },
  affinity: availableParallelism,
  memory: () => readMemory(),
  cgroup: () => readCgroupLimits(),
  power: readPower,
  busyMs: busyCpuMs,
};

export class MachineWatcher {
  private latest!: MachineSample;
  private readonly meter = new WorkerMeter();
  private load: LoadReading | null = null;
  private ownCpuUs = 0;
  private power: PowerFact = { source: 'unknown', percent: null, from: 'observed' };
  private powerAt = -Infinity;
  private locked = false;
  private running: Promise<MachineSample> | null = null;
  private queued: Promise<MachineSample> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly r: MachineReaders;
  private readonly now: () => number;
  private readonly monotonic: () => number;
  private readonly failed = new Set<string>();
  /** Null where nvidia-smi is not on PATH: then the GPUs are never asked about. */
  private readonly nvidia: NvidiaSmi | null;
  private gpu: GpuFacts | undefined;

  private constructor(
    private readonly o: WatcherOptions,
    private readonly overrides: Overrides,
    private readonly cores: number,
    readers: MachineReaders,
  ) {
    this.r = readers;
    this.now = o.now ?? Date.now;
    this.monotonic = o.monotonic ?? (() => performance.now());
    const env = o.env ?? process.env;
    this.nvidia = NvidiaSmi.find(env, o.gpuTimeoutMs, o.cgroupBase ?? null);
    // On Apple silicon the GPU's memory is the system's, which the memory limit divides already.
    if (this.nvidia) this.gpu = { source: 'nvidia', cards: null, at: null, override: overrides.gpuMemory ?? null };
    else if (process.platform === 'darwin' && process.arch === 'arm64') this.gpu = { source: 'unified' };
  }

  /** Checks the overrides (a bad one throws, naming its variable), reads everything once. */
  static async open(o: WatcherOptions = {}): Promise<MachineWatcher> {
    const overrides = readOverrides(o.env ?? process.env);
    const readers = { ...defaultReaders, ...o.readers };
    const given = o.cores === undefined ? overrides.cores : parseCores(String(o.cores));
    const w = new MachineWatcher(o, { ...overrides, cores: given }, given ?? (await readers.cores()), readers);
    await w.refresh();
    return w;
  }

  get facts(): MachineFacts {
    return this.latest.facts;
  }

  get sample(): MachineSample {
    return this.latest;
  }

  /** Reads on the cadence, and at once on the desktop's events. */
  start(): void {
    this.timer ??= setInterval(() => void this.refresh(), this.o.sampleMs ?? ENGINE_DEFAULTS.sampleMs);
    this.timer.unref();
    this.unsubscribe ??= this.o.desktop?.subscribe((e) => this.moved(e)) ?? null;
  }

  /** No cadence until `start` again: nothing is being sized. The desktop's events still read at once. */
  sleep(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops watching; a read of the GPUs under way is ended with everything it started. */
  stop(): void {
    this.sleep();
    this.nvidia?.stop();
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Read everything now. Calls while a read runs share one more read after it. */
  refresh(): Promise<MachineSample> {
    if (this.queued) return this.queued;
    if (!this.running) return this.run();
    this.queued = this.running.then(() => {
      this.queued = null;
      return this.run();
    });
    return this.queued;
  }

  /** Something the desktop says moved the facts. */
  moved(event: DesktopEvent): void {
    if (event === 'suspend') return;
    if (event === 'lock-screen' || event === 'user-did-resign-active') this.locked = true;
    if (event === 'unlock-screen' || event === 'user-did-become-active') this.locked = false;
    // Asleep, the counters did not move but the clock did: start the load figure afresh.
    if (event === 'resume') this.load = null;
    this.powerAt = -Infinity;
    void this.refresh();
  }

  private run(): Promise<MachineSample> {
    const p = this.read().finally(() => {
      if (this.running === p) this.running = null;
    });
    this.running = p;
    return p;
  }

  private async read(): Promise<MachineSample> {
    const at = this.now();
    const prev = this.latest?.facts;
    const cgroup = this.attempt('cgroup', () => this.r.cgroup(), { cpus: null, memoryMax: null, memoryFree: null, cpuUsage: null });
    const affinity = this.attempt('affinity', () => this.r.affinity(), this.cores);
    const quota = Math.min(cgroup.cpus ?? Infinity, affinity < this.cores ? affinity : Infinity);
    // Node's own figures stand in for a first read that fails: they are rougher, never absent.
    const memory = await this.attemptAsync('memory', () => this.r.memory(), prev ? { total: prev.memory.total, available: prev.memory.available } : { total: totalmem(), available: freemem() });
    const { workers, cpuMs } = await this.attemptAsync('workers', () => this.meter.measure(this.o.workers?.() ?? []), { workers: [], cpuMs: 0 });
    const gpu = await this.readGpu(at, workers);
    const own = process.cpuUsage();
    const ownUs = own.user + own.system;
    const engineMs = (ownUs - this.ownCpuUs) / 1000;
    this.ownCpuUs = ownUs;
    const busyMs = this.attempt('load', () => this.r.busyMs(cgroup.cpuUsage), NaN);
    if (Number.isFinite(busyMs)) this.load = nextLoad(this.load, { at: this.monotonic(), busyMs, ownMs: engineMs + cpuMs }, Number.isFinite(quota) ? quota : this.cores);
    const facts: MachineFacts = {
      at,
      cpu: {
        cores: this.cores,
        coresFrom: this.overrides.cores !== null ? 'override' : 'hardware',
        quota: Number.isFinite(quota) ? quota : null,
        otherBusy: this.load?.otherBusy ?? 0,
      },
      memory: {
        total: Math.min(memory.total, cgroup.memoryMax ?? Infinity),
        available: Math.min(memory.available, cgroup.memoryFree ?? Infinity),
        usedByLanes: workers.reduce((n, w) => n + w.bytes, 0),
        override: this.overrides.memory,
      },
      power: await this.readPower(),
      person: this.o.desktop ? { idleSeconds: this.attempt('idle time', () => this.o.desktop!.idleSeconds(), 0), locked: this.locked } : null,
      thermal: this.o.desktop ? this.attempt('thermal state', () => this.o.desktop!.thermalState(), 'unknown') : 'unknown',
      ...(gpu ? { gpu } : {}),
    };
    this.latest = { facts, workers };
    this.o.sampled?.(this.latest);
    return this.latest;
  }

  /**
   * The cards and what each worker holds on them, when an ml lane could use them; otherwise the
   * last reading stands (nothing sizes by it meanwhile). Cards CUDA_VISIBLE_DEVICES hides from
   * the workers are left out: they could not use them.
   */
  private async readGpu(at: number, workers: WorkerUsage[]): Promise<GpuFacts | undefined> {
    const gpu = this.gpu;
    if (!this.nvidia || gpu?.source !== 'nvidia' || !(this.o.gpuWanted?.() ?? false)) return gpu;
    let read: Awaited<ReturnType<NvidiaSmi['read']>>;
    try {
      read = await this.nvidia.read();
      this.failed.delete('GPUs');
    } catch (error) {
      this.failure('GPUs', error);
      const failure = { message: (error as Error).message, timedOut: error instanceof GpuReadError && error.timedOut };
      return (this.gpu = failedRead(gpu, failure, at, this.o.gpuKeepMs ?? ENGINE_DEFAULTS.gpuKeepMs));
    }
    const placed = placeOnCards(read, workers.map((w) => w.pids), cudaVisibleDevices(this.o.env));
    workers.forEach((w, i) => {
      w.gpuBytes = placed.workers[i]!.bytes;
      if (placed.workers[i]!.card !== null) w.gpuCard = placed.workers[i]!.card!;
    });
    return (this.gpu = { source: 'nvidia', override: gpu.override, cards: placed.cards, at });
  }

  private async readPower(): Promise<PowerFact> {
    if (this.overrides.power) return { source: this.overrides.power, percent: null, from: 'override' };
    const desktop = this.o.desktop;
    if (desktop) return { source: this.attempt('power', () => (desktop.onBattery() ? 'battery' : 'ac'), 'unknown'), percent: null, from: 'observed' };
    const t = this.monotonic();
    if (t - this.powerAt >= (this.o.powerMs ?? POWER_MS)) {
      this.powerAt = t;
      this.power = await this.attemptAsync('power', () => this.r.power(), this.power);
    }
    return this.power;
  }

  /** A reader that fails keeps the last figure (or a safe one) and is reported once, not every 15 s. */
  private attempt<T>(what: string, read: () => T, fallback: T): T {
    try {
      const v = read();
      this.failed.delete(what);
      return v;
    } catch (error) {
      this.failure(what, error);
      return fallback;
    }
  }

  private async attemptAsync<T>(what: string, read: () => Promise<T>, fallback: T): Promise<T> {
    try {
      const v = await read();
      this.failed.delete(what);
      return v;
    } catch (error) {
      this.failure(what, error);
      return fallback;
    }
  }

  private failure(what: string, error: unknown): void {
    if (this.failed.has(what)) return;
    this.failed.add(what);
    this.o.log?.(`could not read the machine's ${what}: ${(error as Error)?.message ?? String(error)}`);
  }
}

