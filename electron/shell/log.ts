// The app's own diagnostics. Started from the OS there is no terminal to read, so lines also go to
// <data dir>/logs/app.log, kept small by moving it aside to app.log.1 past a size.
import fs from 'node:fs';
import path from 'node:path';

const MAX_BYTES = 2 * 1024 * 1024;

export function createLog(dataDir: string): (line: string) => void {
  const dir = path.join(dataDir, 'logs');
  const file = path.join(dir, 'app.log');
  let size = -1;
  return (line) => {
    const text = `${new Date().toISOString()} ${line}\n`;
    process.stderr.write(text);
    try {
      if (size < 0) {
        fs.mkdirSync(dir, { recursive: true });
        size = fs.existsSync(file) ? fs.statSync(file).size : 0;
      }
      if (size > MAX_BYTES) {
        fs.renameSync(file, `${file}.1`);
        size = 0;
      }
      fs.appendFileSync(file, text);
      size += Buffer.byteLength(text);
    } catch {
      // A full or read-only disk must not take the app down with it; stderr still has the line.
    }
  };
}
