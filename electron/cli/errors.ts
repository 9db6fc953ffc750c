// The two ways a command can fail, told apart by exit code: 2 when the person asked wrongly
// (nothing was sent anywhere), 1 when the request was made and refused or could not be made
// (the engine's own LanesError, printed as it wrote it).

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
