// `npm start`: build the PWA and the server bundle when missing or older than their sources, then
// run the server in this same Node process.
import { spawnSync } from 'node:child_process';
import v8 from 'node:v8';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureServerBuild, newest, tracingBundle } from './build-server.mjs';
import { quietDisabledDebug } from './quiet-debug.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(process.env.PWA_DIST ? path.resolve(process.env.PWA_DIST) : path.join(root, 'pwa/dist'), 'index.html');
// The build's inputs: sources, the segmentation model, the Vite config and its plugins (pwa/vite*.ts), manifest, assets.
const viteFiles = readdirSync(path.join(root, 'pwa'))
  .filter((f) => /^vite.*\.ts$/.test(f))
  .map((f) => `pwa/${f}`);
const sources = [
  'pwa/src',
  'pwa/index.html',
  'pwa/package.json',
  'pwa/models',
  ...viteFiles,
  'manifest.webmanifest',
  'public',
  'contract/src',
];

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
const changedAt = Math.max(...sources.map((s) => newest(path.join(root, s))));
if (process.env.SKIP_PWA_BUILD !== 'true' && builtAt < changedAt) {
  console.log(builtAt ? 'PWA sources changed: rebuilding…' : 'Building the PWA (first start)…');
  const r = spawnSync('npm', ['run', 'build', '-w', '@parley/pwa'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const bundle = await ensureServerBuild();
// Stack traces name the TypeScript sources when they are logged (api/src/platform/stackMap.ts),
// not on every read of a stack: source maps stay off for the process.
process.chdir(root);
quietDisabledDebug(path.join(root, 'api'));
// The embedded database is PostgreSQL compiled to WebAssembly. V8 compiles it with its baseline
// compiler, then recompiles the busy functions with its optimising one in background threads:
// about 60 MB more memory for good, and CPU taken from the event loop's core while it lasts, to
// speed up queries that are not on the chat's hot path. The baseline code is kept.
v8.setFlagsFromString('--liftoff-only');
// Traces (when OTEL_EXPORTER_OTLP_ENDPOINT is set) start before the server's libraries load.
const { startTracing } = await import(pathToFileURL(tracingBundle).href);
await startTracing();
await import(pathToFileURL(bundle).href);
