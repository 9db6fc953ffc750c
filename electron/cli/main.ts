// Entry point of the `lanes` command (bin/lanes.js imports this).
import { EXIT_FAILURE } from './errors.js';
import { run } from './program.js';

// Set the exit code and let pending output drain, rather than cutting it off with process.exit.
run(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT_FAILURE;
  },
);
