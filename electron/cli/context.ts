// What every command needs: which data directory, a client for its engine, and the two ways
// to print (tables for people, one line of JSON for programs).
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { LanesClient } from '../../shared/client/client.js';
import { defaultDataDir } from '../paths/data-dir.js';
import { connect, type Connection } from './connect.js';

/** `--data-dir`, else LANES_DATA_DIR, else the desktop app's own data directory. */
export function dataDirOf(cmd: Command): string {
  const given = (cmd.optsWithGlobals() as { dataDir?: string }).dataDir;
  return resolve(given ?? defaultDataDir());
}

export function clientFor(cmd: Command): LanesClient {
  return connect(dataDirOf(cmd)).client;
}

export function connectionFor(cmd: Command): Connection {
  return connect(dataDirOf(cmd));
}

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** One line per value, so output can be piped into jq or read line by line. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}
