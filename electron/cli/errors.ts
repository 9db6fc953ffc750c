// The two ways a command can fail, told apart by exit code: 2 when the person asked wrongly
// (nothing was sent anywhere), 1 when the request was made and refused or could not be made.
import type { LanesErrorBody } from '../../shared/requests.js';

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
  }
}

/** The engine refused a request; `detail` is its own error body. */
export class RequestRefused extends CliError {
  constructor(
    readonly status: number,
    readonly detail: LanesErrorBody['error'],
  ) {
    super(detail.message);
  }
}

/** No engine answers for this data directory. */
export class NoEngine extends CliError {
  constructor(dataDir: string, why: string) {
    super(
      `no Lanes engine is running for ${dataDir} (${why}).\n` +
        `Start one with \`lanes daemon\` (add --data-dir if you use another directory), or open the Lanes desktop app.`,
    );
  }
}
