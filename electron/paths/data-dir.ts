// Where Lanes keeps its files. The desktop app points Electron's userData here too, so the CLI,
// `lanes daemon` and the tray app always agree on one directory per person.
import envPaths from 'env-paths';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LANES_DATA_DIR) return env.LANES_DATA_DIR;
  return envPaths('Lanes', { suffix: '' }).data;
}
