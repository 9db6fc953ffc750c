// The hot path of a shared lane whose worker processes speak to Redis themselves (the design
// docs/shared-lanes.md ends its figures with), measured before it is built: one process with
// BullMQ's own Worker (its connection, lock renewal and fetch-next, under Lanes' lock times and
// mark on the lock) that runs each job as a Lanes worker runs a persistent lane's job — the data
// checked as a request (checkClaimed), handed to the lane's worker command through Lanes'
// PersistentCommand with its log files, the output's tail looked for, Lanes' returnvalue. What it
// leaves out (the engine sizing and observing, attempt records, progress, cancel) costs nothing
// per job there. Its figure is what that design could reach on this machine at best.
//   node dist/test/bench/bull-run-worker.js REDIS_PORT QUEUE LOG_DIR COMMAND_JSON  →  "ready"; stops on "stop"
import { Worker } from 'bullmq';
import { join } from 'node:path';
import { PersistentCommand } from '../../electron/worker/persistent.js';
import { checkClaimed, PREFIX, returnValue } from '../../electron/engine/shared-lanes/job-data.js';
import { tailRow } from '../../electron/engine/shared-lanes/logs.js';
import { LOCK_MS, LOCK_RENEW_MS, STALLED_CHECK_MS } from '../../electron/engine/shared-lanes/bull-worker.js';
import { LANES_TOKEN } from '../../electron/engine/shared-lanes/outsiders.js';
import { LOG_CAP_BYTES } from '../../shared/limits.js';

const [port, queue, logDir, command] = process.argv.slice(2);
const machine = 'bench';
/** A shared job's Lanes id: its lane's range and BullMQ's number (id-floor.ts); slot 1 here. */
const ID_BASE = 1e15;
const persistent = new PersistentCommand(JSON.parse(command!) as string[], LOG_CAP_BYTES, undefined, null);

const worker = new Worker(
  queue!,
  async (job) => {
    const checked = checkClaimed(job.data, true, machine);
    if ('problem' in checked) throw new Error(checked.problem);
    const id = ID_BASE + Number(job.id);
    const base = join(logDir!, String(id));
    const paths = { stdoutPath: `${base}.out`, stderrPath: `${base}.err`, allPath: `${base}.all`, joinedPath: `${base}.log` };
    const outcome = await persistent.run({ id, attempt: job.attemptsStarted, specJson: JSON.stringify(checked.spec), timeoutMs: checked.timeoutMs, ...paths }).done;
    if (outcome.state !== 'succeeded') throw new Error(outcome.error ?? 'failed');
    const row = tailRow(paths);
    if (row) await job.log(row);
    return returnValue(id, machine, outcome.result, true);
  },
  { connection: { host: '127.0.0.1', port: Number(port) }, prefix: PREFIX, concurrency: 1, autorun: false, lockDuration: LOCK_MS, lockRenewTime: LOCK_RENEW_MS, stalledInterval: STALLED_CHECK_MS, maxStalledCount: 1, metrics: { maxDataPoints: 60 } },
);
// Lanes' mark on every lock it takes (outsiders.ts): BullMQ's tokens are the worker's id and a count.
(worker as { id: string }).id = `${LANES_TOKEN}${worker.id}`;
void worker.run();
await worker.waitUntilReady();
process.send!('ready');
process.on('message', (message) => {
  if (message !== 'stop') return;
  void worker.close().finally(() => {
    persistent.stop();
    process.exit(0);
  });
});
