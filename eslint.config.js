import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// The layers, as lint rules: each folder says what it may not import. A rule set for a folder is
// written whole (ESLint does not merge two `no-restricted-imports` settings for one file).
const electron = { group: ['electron'], message: 'Only electron/shell/ may import electron.' };
const node = { group: ['node:*'], message: 'renderer/ and shared/ run in a browser.' };
const nodeModules = ['fs', 'path', 'child_process', 'os', 'http', 'crypto'].map((name) => ({ name, message: 'renderer/ and shared/ run in a browser.' }));
const folders = (names, message) => ({ group: names.map((n) => `**/${n}/**`), message });

// Inside the engine, folders form layers, lowest first: each may import those below it, never one
// above (a request handler may read the status board; the board never reaches for a handler).
// The files at the engine's root (the event hub, timers, pause, the engine itself) sit outside
// the order. test/structure/imports.test.ts also checks that no import cycle is left, anywhere.
const ENGINE_LAYERS = ['machine', 'store', 'queues', 'shared-lanes', 'workers', 'sizer', 'fleet', 'status', 'requests'];
const notEmbedders = folders(['api', 'cli', 'shell'], 'The engine is embedded by the API, the CLI and the shell; it imports none of them.');
const notWorker = folders(['worker'], 'The worker runtime runs in its own process; the engine shares only worker-protocol/ and job-control/ with it.');
function engineLayers() {
  const rules = [['electron/engine/**', [electron, notEmbedders, notWorker]]];
  ENGINE_LAYERS.forEach((layer, i) => {
    const above = ENGINE_LAYERS.slice(i + 1).map((n) => `**/engine/${n}/**`).concat(ENGINE_LAYERS.slice(i + 1).map((n) => `../${n}/**`));
    const extra = layer === 'store' ? [folders(['worker-protocol'], "The store records outcomes in its own terms, not the worker's wire types.")] : [];
    const up = above.length ? [{ group: above, message: `engine/${layer}/ sits below ${ENGINE_LAYERS.slice(i + 1).join(', ')}: it may not import them.` }] : [];
    rules.push([`electron/engine/${layer}/**`, [electron, notEmbedders, notWorker, ...extra, ...up]]);
  });
  return rules;
}

const layers = [
  ['shared/**', [electron, node, folders(['electron', 'renderer'], 'shared/ is the contract everything else builds on; it imports none of them.')]],
  ['renderer/**', [electron, node, folders(['electron'], 'The window reaches the engine only through the client in shared/.')]],
  ...engineLayers(),
  ['electron/paths/**', [electron, folders(['engine', 'api', 'cli', 'shell', 'worker'], "Where Lanes' files are is known before anything runs; it imports nothing of Lanes.")]],
  ['electron/worker/**', [electron, folders(['engine', 'api', 'cli', 'shell'], 'The worker runtime is its own process: it talks to the engine only by messages.')]],
  // Code both processes load: the messages between them, and what the OS holds of a job.
  ['electron/worker-protocol/**', [electron, folders(['engine', 'worker', 'job-control', 'api', 'cli', 'shell'], 'The wire between engine and worker depends on neither end.')]],
  ['electron/job-control/**', [electron, folders(['engine', 'worker', 'api', 'cli', 'shell'], 'Job control is loaded by the engine and the worker runtime alike; it imports neither.')]],
  ['electron/api/**', [electron, folders(['cli', 'shell'], 'The API serves the CLI and the shell; it imports neither.')]],
  ['electron/cli/**', [electron, folders(['engine', 'shell'], 'The CLI reaches the engine only through the client (lanes daemon hosts it through the API).')]],
  ['electron/shell/**', [folders(['cli'], 'The desktop app talks to its engine in-process, not through the CLI.')]],
];

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...layers.map(([files, patterns]) => ({
    files: [files],
    rules: { 'no-restricted-imports': ['error', { patterns, ...(patterns.includes(node) ? { paths: nodeModules } : {}) }] },
  })),
  // The `lanes` entry is CommonJS (bin/package.json): it starts without Node's ES module loader.
  { files: ['bin/**/*.js'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The window runs in a sandboxed page.
  { files: ['renderer/**', 'shared/**'], languageOptions: { globals: { ...globals.browser } } },
);
