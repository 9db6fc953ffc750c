import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/ui/**', 'node_modules/**', 'dist/**'],
    // Integration tests start real processes; a loaded 2-core machine needs room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on real processes (a daemon's start, a job, a stall of Redis) rather than
    // compute, so more files at once than cores: vitest's default on two cores is one at a time.
    maxWorkers: Math.max(4, availableParallelism()),
    // A test reads the machine it runs on only when it says so (test/setup/real-machine-guard.ts).
    setupFiles: ['test/setup/real-machine-guard.ts'],
  },
});
