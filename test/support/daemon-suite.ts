// One real `lanes daemon` for a test file, with its events recorded from the start: the CLI tests'
// shared set-up, as engineEachTest (engine.ts) is the engine tests'. Use it as `t.daemon`,
// `t.events`, `t.dir`.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Job } from '../../shared/model.js';
import { startDaemon, tempDataDir, type TestDaemon } from './daemon.js';
import { recordEvents, type EventRecorder } from './events.js';

export interface DaemonSuite {
  readonly dir: string;
  readonly daemon: TestDaemon;
  readonly events: EventRecorder;
  /** Waits for a job event in `state` (seen already or still to come). */
  reaches(id: number, state: Job['state']): Promise<unknown>;
}

/** `stopsCleanly`: the daemon must exit 0 at the end (a file that kills it on purpose says false). */
export function daemonForFile({ stopsCleanly = true } = {}): DaemonSuite {
  const tmp = tempDataDir();
  let daemon: TestDaemon | undefined;
  let events: EventRecorder | undefined;
  beforeAll(async () => {
    daemon = await startDaemon({ dataDir: tmp.dir });
    events = await recordEvents(daemon.client);
  });
  afterAll(async () => {
    events?.close();
    const code = await daemon?.stop();
    if (stopsCleanly) expect(code, `the daemon's last words: ${daemon?.process.stderr().slice(-2000)}`).toBe(0);
    tmp.remove();
  });
  return {
    get dir() {
      return tmp.dir;
    },
    get daemon() {
      return daemon!;
    },
    get events() {
      return events!;
    },
    reaches: (id, state) => events!.next((e) => e.type === 'job' && e.data.id === id && e.data.state === state),
  };
}
