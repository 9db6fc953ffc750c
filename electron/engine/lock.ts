// One engine per data directory. The lock is an exclusive SQLite lock on its own file: the OS
// releases it when its owner dies, even by kill -9, so a crash never leaves a stale lock.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { conflict } from '../../shared/errors.js';
import { clock } from '../../shared/format.js';
import { writePrivateFile } from '../paths/private-dir.js';

export interface EngineLock {
  release(): void;
}

interface LockOwner {
  pid: number;
  startedAt: number;
}

export function acquireLock(dataDir: string, startedAt: number): EngineLock {
  const file = join(dataDir, 'engine.lock');
  const info = join(dataDir, 'engine.json');
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write under EXCLUSIVE locking mode takes the lock and keeps it until close.
    db.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER, started_at INTEGER); DELETE FROM owner;');
    db.prepare('INSERT INTO owner VALUES (?, ?)').run(process.pid, startedAt);
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
    const owner = readOwner(info);
    const who = owner ? `pid ${owner.pid}, running since ${clock(owner.startedAt)}` : 'another process';
    throw conflict(`A Lanes engine is already running for ${dataDir} (${who}). Use that one, or stop it first.`);
  }
  writePrivateFile(info, JSON.stringify({ pid: process.pid, startedAt }));
  return { release: () => db.close() };
}

function readOwner(file: string): LockOwner | null {
  try {
    // Only for the words of the refusal, but a file in the data directory all the same: checked.
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<keyof LockOwner, unknown>> | null;
    return Number.isSafeInteger(o?.pid) && Number.isFinite(o?.startedAt) ? { pid: o!.pid as number, startedAt: o!.startedAt as number } : null;
  } catch {
    return null;
  }
}
