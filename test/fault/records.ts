// A fault run's jobs, which write their own records outside Lanes, and reading those records
// against what the engine recorded; and finding processes a run left behind.
import { readdir, readFile } from 'node:fs/promises';

/**
 * The job: take its lock or report an overlap; record start, a tick and end with the time in ns
 * (`$REC`, one lock per job under `$LOCKS`). One in ten also starts a process in a session of its
 * own that would outlive it if nothing ended it.
 */
export function faultJob(): string {
  const line = (kind: string) => `echo "${kind} $LANES_JOB_ID $LANES_ATTEMPT $(date +%s%N)" >> "$REC"`;
  const body =
    `${line('start')}; ` +
    `if [ $((LANES_JOB_ID % 10)) -eq 0 ]; then setsid sleep 120 </dev/null >/dev/null 2>&1 & fi; ` +
    `${line('tick')}; sleep 0.0$((LANES_JOB_ID % 8 + 1)); ${line('end')}`;
  return `flock -n "$LOCKS/$LANES_JOB_ID" sh -c '${body}' || echo "overlap $LANES_JOB_ID $LANES_ATTEMPT $(date +%s%N)" >> "$REC"`;
}

export interface Outcome {
  id: number;
  state: string;
  finishedAt: number | null;
  attempts: number;
}

interface Run {
  attempt: number;
  startMs: number;
  endMs: number | null;
  /** The time of its last line of any kind. */
  lastMs: number;
}

export interface Analysis {
  counts: {
    /** Acknowledged jobs the engine does not have finished. */
    lost: number;
    /** Recorded as succeeded although no run of it reached its end. */
    succeededWithoutRunning: number;
    failed: number;
    /** Jobs whose work ran to its end more than once (a worker killed after the job's last line, before it reported). */
    duplicatedCompletions: number;
    /** A run that started, or still ran (wrote a line), after the engine had recorded its job finished. */
    runsAfterRecordedFinish: number;
    /** Two runs of one job alive at the same time. */
    overlappingRuns: number;
    runs: number;
  };
  examples: string[];
}

export function analyse(text: string, outcomes: Outcome[], terminal: ReadonlySet<string>): Analysis {
  const runs = new Map<number, Run[]>();
  let overlaps = 0;
  const examples: string[] = [];
  for (const line of text.split('\n')) {
    const [kind, id, attempt, ns] = line.split(' ');
    if (!kind || id === undefined) continue;
    const ms = Number(ns) / 1e6;
    const list = runs.get(Number(id)) ?? [];
    runs.set(Number(id), list);
    const current = () => list.findLast((r) => r.attempt === Number(attempt) && r.endMs === null);
    if (kind === 'start') list.push({ attempt: Number(attempt), startMs: ms, endMs: null, lastMs: ms });
    else if (kind === 'end' || kind === 'tick') {
      const run = current();
      if (run && kind === 'end') run.endMs = ms;
      if (run) run.lastMs = Math.max(run.lastMs, ms);
    } else if (kind === 'overlap') {
      overlaps++;
      examples.push(`overlap: job ${id} attempt ${attempt} found another run of it holding its lock`);
    }
  }
  const counts = { lost: 0, succeededWithoutRunning: 0, failed: 0, duplicatedCompletions: 0, runsAfterRecordedFinish: 0, overlappingRuns: overlaps, runs: 0 };
  for (const o of outcomes) {
    const list = runs.get(o.id) ?? [];
    counts.runs += list.length;
    if (!terminal.has(o.state)) {
      counts.lost++;
      examples.push(`lost: job ${o.id} is ${o.state}`);
    }
    if (o.state === 'failed') counts.failed++;
    const completed = list.filter((r) => r.endMs !== null);
    if (o.state === 'succeeded' && completed.length === 0) counts.succeededWithoutRunning++;
    if (completed.length > 1) counts.duplicatedCompletions++;
    if (o.finishedAt !== null) {
      // finishedAt is whole ms, cut down: a line within the same ms as the record is not after it.
      const late = list.filter((r) => r.lastMs > o.finishedAt! + 1);
      counts.runsAfterRecordedFinish += late.length;
      for (const r of late) {
        const what = r.startMs > o.finishedAt + 1 ? 'started' : 'still ran';
        examples.push(`late: job ${o.id} attempt ${r.attempt} ${what} ${(r.lastMs - o.finishedAt).toFixed(1)} ms after it was recorded ${o.state}`);
      }
    }
    // Runs that both reached their end and whose spans cross.
    const spans = completed.sort((a, b) => a.startMs - b.startMs);
    for (let i = 1; i < spans.length; i++) {
      if (spans[i]!.startMs < spans[i - 1]!.endMs!) {
        counts.overlappingRuns++;
        examples.push(`overlap: job ${o.id} attempts ${spans[i - 1]!.attempt} and ${spans[i]!.attempt} ran at the same time`);
      }
    }
  }
  return { counts, examples: examples.slice(0, 20) };
}

/** Processes still alive whose environment carries `marker` (e.g. `REC=/path`): a run's own. */
export async function processesWith(marker: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  const found: number[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      const env = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
      if (env.split('\0').includes(marker)) found.push(Number(pid));
    }),
  );
  return found;
}
