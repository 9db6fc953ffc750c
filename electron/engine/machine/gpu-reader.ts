// Mechanism: asking nvidia-smi about the cards and the processes on them. It is looked for once,
// on PATH, without running anything: where it is absent nothing here ever starts a process. Each
// read runs it twice (the two queries cannot share one call), bounded in time and in output; one
// that hangs (a wedged driver does) is killed at the timeout and the read fails, never the engine.
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { APPS_QUERY, GPU_QUERY, parseApps, parseCards, type GpuApp, type GpuCard } from './gpu.js';

/** nvidia-smi answers in well under a second; one that takes this long is stuck. */
export const GPU_TIMEOUT_MS = 5_000;
/** Its answers are a line per card and per process: far below this. */
const OUTPUT_MAX = 1 << 20;

/** The executable `name` on `path` (PATH's dirs), as a shell would find it; null if none is there. */
export function findOnPath(name: string, path: string | undefined, platform: NodeJS.Platform = process.platform): string | null {
  const names = platform === 'win32' ? [`${name}.exe`, name] : [name];
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const n of names) {
      const file = join(dir, n);
      try {
        if (!statSync(file).isFile()) continue;
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // Not here; the next directory.
      }
    }
  }
  return null;
}

function run(file: string, args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, [...args], { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: OUTPUT_MAX, windowsHide: true, encoding: 'utf8' }, (error, stdout) => {
      if (error) reject(new Error(`nvidia-smi ${(error as NodeJS.ErrnoException & { killed?: boolean }).killed ? `did not answer within ${timeoutMs} ms` : `failed: ${error.message.split('\n')[0]}`}`));
      else resolve(stdout);
    });
  });
}

export class NvidiaSmi {
  constructor(
    readonly file: string,
    private readonly timeoutMs = GPU_TIMEOUT_MS,
  ) {}

  /** The one on PATH, or null: then no GPU is read and no process is started for one. */
  static find(env: NodeJS.ProcessEnv): NvidiaSmi | null {
    const file = findOnPath('nvidia-smi', env.PATH ?? process.env.PATH);
    return file ? new NvidiaSmi(file) : null;
  }

  async read(): Promise<{ cards: GpuCard[]; apps: GpuApp[] }> {
    const [cards, apps] = await Promise.all([run(this.file, GPU_QUERY, this.timeoutMs), run(this.file, APPS_QUERY, this.timeoutMs)]);
    const parsed = parseCards(cards);
    if (parsed.length === 0) throw new Error('nvidia-smi listed no GPU');
    return { cards: parsed, apps: parseApps(apps) };
  }
}
