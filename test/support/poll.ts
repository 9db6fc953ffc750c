// Waiting on what announces nothing: the files a job's own processes write and the processes
// they start (the engine does not know of them), or anything else a test can only look at. These
// look often, for a bounded time, and fail naming what never came.
// Plain Node, no test runner: the benchmark and the fault run wait with the same helper.
import { existsSync, readFileSync } from 'node:fs';

/** The file's non-empty lines; none while it does not exist yet. */
export function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/** Waits until `check` holds, looking every `everyMs`; rejects naming `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 25): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what} not seen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Alive and not a zombie (an exited child nobody has reaped yet counts as gone). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The process id a job writes as the first line of `file`, once it is there. */
export async function pidIn(file: string, timeoutMs = 30_000): Promise<number> {
  await waitFor(() => lines(file).length > 0, `a process id in ${file}`, timeoutMs);
  const pid = Number(lines(file)[0]);
  // Never 0 or garbage: a signal to pid 0 would go to this test's own process group.
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`${file} holds no process id: ${JSON.stringify(lines(file)[0])}`);
  return pid;
}

/** Waits until a process of the job's tree (not a child of this test) has exited. */
export function gone(pid: number, what: string, timeoutMs = 20_000): Promise<void> {
  return waitFor(() => !pidAlive(pid), `${what} (pid ${pid}) gone`, timeoutMs);
}

/** `promise`, or a rejection naming `what` once `timeoutMs` has passed: an event awaited with a bound. */
export function within<T>(promise: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} not seen within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
