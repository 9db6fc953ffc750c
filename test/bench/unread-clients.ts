// Memory no client can run up: 40 event-stream clients that never read a byte, connected through
// the engine's socket while no-op jobs go through, beside the same run without them. Reported:
// the engine's peak RSS both ways, `status` answered meanwhile (each call timed from here), and
// how many of the clients the engine cut (not read for the stall limit, or left behind by the
// hub's ring).
// Before one bound for all streams, 40 such clients during 30,000 jobs took the engine from 78 to
// 542 MiB and a status to 5 s and more.
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { engineSocket } from '../../electron/cli/connect.js';
import { NOOP_WORKER, withDaemon, type Daemon } from './lanes-daemon.js';
import { summarize, until, type Figure } from './stats.js';

const SECTION = 'Kept for a year (retention)';
const CLIENTS = 40;

const rssMiB = (pid: number) => Number(/^VmRSS:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

/** A client that asks for the event stream over the engine's socket and never reads it. */
function silent(d: Daemon): Promise<Socket> {
  return new Promise((done, fail) => {
    const s = connect(engineSocket(d.dataDir), () => {
      s.write('GET /api/events HTTP/1.1\r\nHost: lanes\r\n\r\n');
      s.pause();
      done(s);
    });
    s.once('error', fail);
  });
}

/**
 * How many of the clients the engine ended. A client that never reads never sees its end, so each
 * now reads what was left for it; one the engine ended reaches its end, one still served does not.
 * Read until a quiet half second passes with no bytes arriving on any.
 */
async function endedByEngine(sockets: Socket[]): Promise<number> {
  let ended = 0;
  let lastByte = performance.now();
  for (const s of sockets) {
    s.on('data', () => (lastByte = performance.now()));
    s.once('end', () => ended++);
    s.resume();
  }
  await until(async () => performance.now() - lastByte > 500, 'the clients read what was left for them', 60_000, 100);
  return ended;
}

interface Run {
  peakMiB: number;
  statusMs: number[];
  /** Clients whose stream the engine ended (before the run's own clean-up ended the rest). */
  cut: number;
}

async function run(jobs: number, clients: number): Promise<Run> {
  return withDaemon(async (d) => {
    await d.api('addLane', { name: 'flood', cap: 2, workerCommand: NOOP_WORKER });
    const sockets = await Promise.all(Array.from({ length: clients }, () => silent(d)));

    let peakMiB = rssMiB(d.pid);
    const statusMs: number[] = [];
    let done = false;
    const watcher = (async () => {
      while (!done) {
        const t0 = performance.now();
        await d.api('status', {});
        statusMs.push(performance.now() - t0);
        peakMiB = Math.max(peakMiB, rssMiB(d.pid));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    for (let i = 0; i < jobs; i += 10_000) await d.api('addJobs', { jobs: Array.from({ length: Math.min(10_000, jobs - i) }, () => ({ lane: 'flood', payload: { pad: 'x'.repeat(200) } })) });
    await until(
      async () => {
        const l = (await d.api('status', {})).lanes.find((x) => x.name === 'flood');
        return !!l && l.waiting + l.delayed + l.running === 0;
      },
      'flood drained',
      600_000,
      50,
    );
    done = true;
    await watcher;
    const cut = await endedByEngine(sockets);
    for (const s of sockets) s.destroy();
    return { peakMiB, statusMs, cut };
  });
}

export async function unreadClientFigures(jobs: number): Promise<Figure[]> {
  const without = await run(jobs, 0);
  const withThem = await run(jobs, CLIENTS);
  const status = summarize(withThem.statusMs);
  const alone = summarize(without.statusMs);
  const what = `${CLIENTS} event-stream clients that never read, during ${jobs.toLocaleString('en-US')} jobs`;
  return [
    {
      section: SECTION,
      what: `engine peak RSS with ${what}`,
      unit: 'MiB',
      lanes: summarize([withThem.peakMiB]),
      peer: { name: 'the same run without them', value: summarize([without.peakMiB]) },
      compared: { how: 'difference', value: summarize([withThem.peakMiB - without.peakMiB]) },
      target: '+ ≤ 100 MiB',
      judge: (f) => f.compared!.value.median <= 100,
    },
    {
      section: SECTION,
      what: `\`status\` over the socket meanwhile, every 100 ms (the range's top is the slowest call)`,
      unit: 'ms',
      lanes: status,
      peer: { name: 'the same run without them', value: alone },
      target: '≤ 100 ms',
      judge: (f) => f.lanes.median <= 100,
    },
    {
      section: SECTION,
      what: `clients of the ${CLIENTS} the engine cut: not read for 30 s, or behind what the event ring holds (each resumes from its last id)`,
      unit: 'clients',
      lanes: summarize([withThem.cut]),
    },
  ];
}
