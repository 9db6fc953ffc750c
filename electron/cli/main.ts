// Entry point of the `lanes` command (bin/lanes.js runs its bundle, dist/cli/lanes.cjs).
import { EXIT_FAILURE } from './errors.js';
import { run } from './program.js';

// Read by bin/lanes.js: which words get a code cache of their own.
export { commandNames } from './program.js';

// `lanes jobs | head` closes the pipe early; that is the reader's choice, not a failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// Set the exit code and let pending output drain, rather than cutting it off with process.exit.
run(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT_FAILURE;
  },
);
