// Where a cold start's time goes, step by step: an engine opened here with a launcher that wraps
// the engine's own (nodeLauncher) and notes when each step happens — the engine deciding to start
// a worker (launch), the worker runtime's first message (Node started and the runtime loaded),
// the engine handing it the job, and the job's own first instruction. The same steps of a bare
// Node child are measured alongside, so what is Lanes' own stands out from what Node costs anyway.
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeLauncher, openEngine, type WorkerLauncher } from '../../electron/engine/index.js';
import { inCgroup, killableCgroup, makeCgroup, ownCgroup, removeCgroup, removeCgroupTree } from '../../electron/job-control/containment.js';
import { scratch, stampJob, type Scratch } from './cold-start.js';
import { summarize, until, wallNow, type Figure } from './stats.js';

const SECTION = 'A cold start, step by step';

interface Marks {
  launch?: number;
  firstMessage?: number;
  jobSent?: number;
}

/** nodeLauncher, noting when it is asked to launch, first hears from the worker, and sends it a job. */
function tracingLauncher(marks: () => Marks): WorkerLauncher {
  return {
    launch(options) {
      const m = marks();
      m.launch = wallNow();
      const worker = nodeLauncher.launch(options);
      return {
        get pid() {
          return worker.pid;
        },
        send(message) {
          if (message.t === 'jobs' && message.jobs.length > 0 && m.jobSent === undefined) m.jobSent = wallNow();
          worker.send(message);
        },
        onMessage(listener) {
          worker.onMessage((message) => {
            m.firstMessage ??= wallNow();
            listener(message);
          });
        },
        onExit: (listener) => worker.onExit(listener),
        kill: () => worker.kill(),
      };
    },
  };
}

/**
 * The same steps for a bare Node child: fork → its first IPC message (a one-line script), then the
 * job handed over by IPC → the job's first instruction (the child's first spawn, as the worker's is).
 * `cgroup`: the job goes into that fresh group, moved there by a shell (`shell`, as a worker's job
 * starter's child moves) or born there, the child stepping into the group for the fork and back
 * (`step`, as a worker without a job starter does).
 */
async function bareSteps(s: Scratch, cgroup: { dir: string; how: 'shell' | 'step' } | null = null): Promise<{ boot: number; spawn: number }> {
  const script = join(s.dir, 'bare-worker.mjs');
  if (!existsSync(script)) {
    writeFileSync(
      script,
      "import { spawn } from 'node:child_process';\nimport { writeFileSync } from 'node:fs';\n" +
        "const move = (dir) => dir && writeFileSync(`${dir}/cgroup.procs`, String(process.pid));\n" +
        "process.once('message', ({ argv, into, home }) => { move(into); const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], detached: true }); move(home); child.on('close', () => process.exit(0)); });\n" +
        "process.send('hello');\n",
    );
  }
  const file = s.next();
  const t0 = wallNow();
  const child = fork(script, [], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('message', resolve));
  const hello = wallNow();
  const argv = cgroup?.how === 'shell' ? inCgroup(cgroup.dir, stampJob(file)) : stampJob(file);
  child.send(cgroup?.how === 'step' ? { argv, into: cgroup.dir, home: ownCgroup() } : { argv });
  const sent = wallNow();
  const began = await s.startedAt(file);
  return { boot: hello - t0, spawn: began - sent };
}

export async function coldBreakdownFigures(samples: number): Promise<Figure[]> {
  const s = scratch();
  const dataDir = mkdtempSync(join(tmpdir(), 'lanes-bench-'));
  let current: Marks = {};
  const engine = await openEngine({ dataDir, cores: 8, tickMs: 60_000, log: () => {}, launcher: tracingLauncher(() => current) });
  const steps = { decide: [] as number[], boot: [] as number[], hand: [] as number[], spawn: [] as number[], total: [] as number[] };
  const bare = { boot: [] as number[], spawn: [] as number[], intoCgroup: [] as number[], stepIn: [] as number[] };
  // Where the OS offers cgroups the engine runs each job in one of its own (the engine opened
  // above made its group, so this process can too): the bare child spawns into one the same way.
  const own = ownCgroup();
  const cgroups = own === null ? null : await killableCgroup(join(own, `bench-${process.pid}`));
  try {
    for (let i = 0; i < samples; i++) {
      const lane = `cold-${i}`;
      await engine.request('addLane', { name: lane, cap: 1 });
      current = {};
      const file = s.next();
      const t0 = wallNow();
      await engine.request('addJob', { lane, argv: stampJob(file) });
      const began = await s.startedAt(file);
      const m = current;
      steps.decide.push(m.launch! - t0);
      steps.boot.push(m.firstMessage! - m.launch!);
      steps.hand.push(m.jobSent! - m.firstMessage!);
      steps.spawn.push(began - m.jobSent!);
      steps.total.push(began - t0);
      await until(() => engine.status().lanes.find((l) => l.name === lane)!.succeeded > 0, 'the cold job to finish');
      await engine.request('removeLane', { name: lane });
      const b = await bareSteps(s);
      bare.boot.push(b.boot);
      bare.spawn.push(b.spawn);
      const dir = cgroups && makeCgroup(join(cgroups, `bare-${i}`));
      if (dir) {
        bare.intoCgroup.push((await bareSteps(s, { dir, how: 'shell' })).spawn);
        await removeCgroup(dir);
      }
      const stepDir = cgroups && makeCgroup(join(cgroups, `bare-step-${i}`));
      if (stepDir) {
        bare.stepIn.push((await bareSteps(s, { dir: stepDir, how: 'step' })).spawn);
        await removeCgroup(stepDir);
      }
    }
  } finally {
    await engine.stop({ graceMs: 0 });
    if (cgroups) await removeCgroupTree(cgroups);
    rmSync(dataDir, { recursive: true, force: true });
    s.remove();
  }
  const row = (what: string, xs: number[], peer?: { name: string; xs: number[] }): Figure => ({
    section: SECTION,
    what,
    unit: 'ms',
    lanes: summarize(xs),
    ...(peer ? { peer: { name: peer.name, value: summarize(peer.xs) } } : {}),
  });
  return [
    row('enqueue → the engine launches a worker (request, store, sizer wake-up, decision)', steps.decide),
    row('launch → the worker runtime’s first message (fork, Node start-up, the runtime’s modules)', steps.boot, { name: 'a bare Node child: fork → its first message', xs: bare.boot }),
    row('first message → the engine hands it the job', steps.hand),
    row('job handed over → the job’s first instruction (the worker starts its job starter, a /bin/sh of its own, which forks the job)', steps.spawn, { name: 'the bare child: job sent by IPC → its first instruction', xs: bare.spawn }),
    ...(bare.intoCgroup.length > 0
      ? [row('the bare child spawning the job into a fresh cgroup through a shell that moves itself in, then becomes the job, as the child of a worker’s job starter does', bare.intoCgroup, { name: 'the bare child spawning it plainly', xs: bare.spawn })]
      : []),
    // The first move of a process between cgroups after a quiet spell waits for the kernel's
    // cgroup lock to change hands (an RCU grace period), whoever moves: these two rows are the bare
    // child moving as the worker's jobs move, so set against them the worker's row shows what is
    // Lanes' own.
    ...(bare.stepIn.length > 0
      ? [row('the bare child stepping into a fresh cgroup for the spawn and back, as a worker without a job starter does', bare.stepIn, { name: 'the bare child spawning it plainly', xs: bare.spawn })]
      : []),
    row('total, enqueue → the job’s first instruction (in-process engine)', steps.total),
  ];
}
