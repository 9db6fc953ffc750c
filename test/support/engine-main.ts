// An engine in its own process, so a test can kill -9 it. Usage:
//   node dist/test/support/engine-main.js DATA_DIR CAP JOBS_JSON
// Sets the worker lane's cap, queues the jobs, prints "queued <ids>" and keeps running.
import { openEngine } from '../../electron/engine/index.js';
import type { RequestInput } from '../../shared/requests.js';

type AddJobInput = RequestInput<'addJob'>;

const [dataDir, cap, jobsJson] = process.argv.slice(2);
const engine = await openEngine({ dataDir: dataDir!, cores: 4, tickMs: 200, log: () => {} });
await engine.request('setCap', { lane: 'worker', cap: Number(cap) });
const jobs = JSON.parse(jobsJson ?? '[]') as AddJobInput[];
const { ids } = jobs.length ? await engine.request('addJobs', { jobs }) : { ids: [] };
process.stdout.write(`queued ${ids.join(',')}\n`);
setInterval(() => {}, 1 << 30);
