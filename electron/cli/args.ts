// Turning command-line text into request input. Parsers throw commander's InvalidArgumentError,
// so a malformed number is a usage error (exit 2) before anything reaches the engine.
import { InvalidArgumentError } from 'commander';
import { splitWords as splitCommandWords } from '../../shared/format.js';
import { parseSpan, type SpanLimit } from '../../shared/span.js';
import { CAP_MAX, TIMEOUT_MAX_SECONDS } from '../../shared/limits.js';

/** A whole number within [min, max]; "1.5", "3x", " 5" and "" are refused with the value quoted. */
export function wholeNumber(what: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (text: string): number => {
    if (!/^-?\d+$/.test(text)) throw new InvalidArgumentError(`${what} must be a whole number, not "${text}"`);
    const n = Number(text);
    if (n < min) throw new InvalidArgumentError(`${what} must be at least ${min}, not ${n}`);
    if (n > max) throw new InvalidArgumentError(`${what} must be at most ${max}, not ${n}`);
    return n;
  };
}

export const jobIdArg = wholeNumber('a job id', 1);
/** A lane's cap, within what the engine keeps (0 turns it off). */
export const capArg = wholeNumber('the cap', 0, CAP_MAX);

/** The longest a timeout may be, in seconds: a week, as the schema says. */
const SPAN_MAX_SECONDS = TIMEOUT_MAX_SECONDS;

/** A number of seconds above 0 and at most a week, fractions allowed ("90", "0.5"); "1m", " 9" and "-3" are refused. */
export function seconds(what: string) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || n <= 0) throw new InvalidArgumentError(`${what} must be a number of seconds above 0, not "${text}"`);
    if (n > SPAN_MAX_SECONDS) throw new InvalidArgumentError(`${what} must be at most ${SPAN_MAX_SECONDS.toLocaleString('en-US')} seconds (a week), not ${text}`);
    return n;
  };
}

/**
 * A span of time as a person types it — "90s", "15m", "1h30m", "2d" — in seconds, at most what
 * the request it goes into takes (`limit`, shared/span.ts: the same limit the engine checks).
 */
export function duration(what: string, limit: SpanLimit) {
  return (text: string): number => {
    const span = parseSpan(text, limit);
    if ('problem' in span) throw new InvalidArgumentError(`${what}: ${span.problem}`);
    return span.ms / 1000;
  };
}

/** Collects repeated `--env KEY=VALUE` into one object. */
export function envPair(text: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`--env takes KEY=VALUE, not "${text}"`);
  return { ...previous, [text.slice(0, eq)]: text.slice(eq + 1) };
}

/** A JSON value, boxed: commander turns a parser's `null` into "", so `--payload null` would
 * otherwise send an empty string. */
export interface JsonArg {
  json: unknown;
}

export function jsonValue(text: string): JsonArg {
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (err) {
    throw new InvalidArgumentError(`not valid JSON: ${(err as Error).message}`);
  }
}

/** Characters that only mean something to a shell: pipes, redirects, globs, variables … */
const SHELL_SYNTAX = /[\s|&;<>()$`\\"'*?[\]#~{}!]/;

/**
 * How the words after `--` become a job. Several words are a program and its arguments, run
 * without a shell, exactly as given. One word with spaces or shell syntax in it
 * (`lanes add -- 'make -j4 && ./test'`) can only have been meant for the shell, since no
 * program is named like that. `--shell` / `--no-shell` settle it explicitly.
 */
export function commandSpec(words: string[], shell: boolean | undefined): { argv: string[] } | { shell: string } {
  const useShell = shell ?? (words.length === 1 && SHELL_SYNTAX.test(words[0] as string));
  return useShell ? { shell: words.join(' ') } : { argv: words };
}

/** A command line as words (shared/format.ts), its error in commander's terms so the CLI says it as a usage error. */
export function splitWords(text: string): string[] {
  try {
    return splitCommandWords(text);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}
