// An engine killed with -9 while a GPU read hangs: the read's processes (the call and the child
// holding its output) end with it, though nothing of the engine is left to kill them — the watch
// each call runs beside sees the engine go (machine/gpu-reader.ts). A real `lanes daemon`, its
// ml lane holding work so that the cards are read; a nvidia-smi that hangs (test/support/gpu-hang.ts).
import { describe, expect, it } from 'vitest';
import { startDaemon } from '../support/daemon.js';
import { tempDir } from '../support/engine.js';
import { hangingGpu } from '../support/gpu-hang.js';
import { waitFor } from '../support/poll.js';

describe.skipIf(process.platform !== 'linux')('an engine killed while a GPU read hangs', () => {
  it('leaves none of the read’s processes behind', async () => {
    const dir = tempDir('lanes-gpu-killed-');
    try {
      const gpu = hangingGpu(dir.dir, ['0,GPU-fix-0,Fixture Card 24G,24576,300']);
      gpu.hang();
      const d = await startDaemon({ env: { PATH: `${gpu.bin}:${process.env.PATH}`, LANES_SAMPLE_MS: '200' } });
      // Cap 0: the lane holds work (so its cards are read) and runs none of it.
      await d.api('addLane', { name: 'models', class: 'ml', cap: 0 });
      await d.api('addJob', { lane: 'models', argv: ['true'] });
      await waitFor(() => gpu.hanging() >= 2, 'a read hanging, with the child holding its output');
      d.process.child.kill('SIGKILL');
      await d.process.done;
      await waitFor(() => gpu.processes() === 0, 'none of the read’s processes left after the engine was killed', 10_000);
      expect(gpu.processes()).toBe(0);
    } finally {
      dir.cleanup();
    }
  }, 60_000);
});
