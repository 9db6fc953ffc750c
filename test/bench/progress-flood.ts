// A job that reports how far it has got ten thousand times a second changes nothing for anyone
// else: `status` timed every 100 ms while one such job runs, beside the same job saying nothing;
// how many `progress` events an event-stream client gets meanwhile (the engine folds the reports
// into a few a second); and the engine's CPU over the run.
import { join } from 'node:path';
import { appRoot } from '../../electron/paths/app-files.js';
import type { LanesEvent } from '../../shared/events.js';
import { processUse, withDaemon } from './lanes-daemon.js';
import { summarize, until, type Figure } from './stats.js';

const SECTION = 'A job that says how far it has got';
const CHATTY_WORKER = [process.execPath, join(appRoot, 'dist', 'test', 'bench', 'chatty-worker.js')];
const REPORTS_PER_SECOND = 10_000;

interface Run {
  statusMs: number[];
  progressEventsPerSecond: number;
  engineCpuPercent: number;
}

function run(seconds: number, perSecond: number): Promise<Run> {
  return withDaemon(async (d) => {
    await d.api('addLane', { name: 'chatty', cap: 1, workerCommand: CHATTY_WORKER });
    const seen: Extract<LanesEvent, { type: 'progress' }>[] = [];
    const stop = d.client.follow(0, { open: () => {}, reset: () => {}, event: (e) => void (e.type === 'progress' && seen.push(e)) });
    // Loaded and warm before the clock starts: a first short job.
    const warm = await d.api('addJob', { lane: 'chatty', payload: { seconds: 0.05, perSecond: 0 } });
    await until(async () => (await d.api('job', { id: warm.id })).state === 'succeeded', 'the warm-up job', 60_000, 20);
    seen.length = 0;
    const cpu0 = processUse(d.pid).cpuMs;
    const t0 = performance.now();
    const { id } = await d.api('addJob', { lane: 'chatty', payload: { seconds, perSecond } });
    const statusMs: number[] = [];
    for (;;) {
      const s0 = performance.now();
      const lane = (await d.api('status', {})).lanes.find((l) => l.name === 'chatty');
      statusMs.push(performance.now() - s0);
      if (lane && lane.running + lane.waiting === 0 && (await d.api('job', { id })).state === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const wallMs = performance.now() - t0;
    const engineCpuPercent = ((processUse(d.pid).cpuMs - cpu0) / wallMs) * 100;
    stop();
    return { statusMs, progressEventsPerSecond: seen.filter((e) => e.data.id === id).length / (wallMs / 1000), engineCpuPercent };
  });
}

export async function progressFloodFigures(seconds: number): Promise<Figure[]> {
  const quiet = await run(seconds, 0);
  const chatty = await run(seconds, REPORTS_PER_SECOND);
  const per = `a job reporting ${REPORTS_PER_SECOND.toLocaleString('en-US')} times a second for ${seconds} s`;
  return [
    {
      section: SECTION,
      what: `\`status\` over the socket every 100 ms while ${per} (the range's top is the slowest call)`,
      unit: 'ms',
      lanes: summarize(chatty.statusMs),
      peer: { name: 'the same job saying nothing', value: summarize(quiet.statusMs) },
      compared: { how: 'difference', value: summarize([summarize(chatty.statusMs).median - summarize(quiet.statusMs).median]) },
      target: '≤ 100 ms, and ≤ 5 ms over the quiet job',
      judge: (f) => f.lanes.median <= 100 && f.compared!.value.median <= 5,
    },
    {
      section: SECTION,
      what: `\`progress\` events an event-stream client got per second, ${per}`,
      unit: 'events/s',
      lanes: summarize([chatty.progressEventsPerSecond]),
      target: '≤ 4',
      judge: (f) => f.lanes.median <= 4,
    },
    {
      section: SECTION,
      what: `the engine's CPU while ${per}`,
      unit: '%',
      lanes: summarize([chatty.engineCpuPercent]),
      peer: { name: 'the same job saying nothing', value: summarize([quiet.engineCpuPercent]) },
      compared: { how: 'difference', value: summarize([chatty.engineCpuPercent - quiet.engineCpuPercent]) },
    },
  ];
}
