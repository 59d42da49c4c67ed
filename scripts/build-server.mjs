// Bundles the API server (api/src/main.ts with the workspace packages it imports) into one ES
// module, api/dist/main.mjs, with a source map; its tracing set-up goes to api/dist/tracing.mjs.
// Dependencies stay in node_modules, loaded by Node as usual. Running the bundle instead of the TypeScript through tsx saves the loader thread and its
// transforms: about 60 MB of memory per server process.
//
// `node scripts/build-server.mjs` builds; `ensureServerBuild()` (npm start, benchmarks) builds only
// when a source is newer than the bundle.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverBundle = path.join(root, 'api/dist/main.mjs');
/** OpenTelemetry's set-up, loaded before the server so its instrumentations wrap the libraries as they load. */
export const tracingBundle = path.join(root, 'api/dist/tracing.mjs');
const sources = ['api/src', 'api/package.json', 'contract/src', 'peer-server/src', 'scripts/build-server.mjs'];

/** The newest modification time under `p` (a file or a folder), 0 when it does not exist. */
export function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const e of readdirSync(p)) max = Math.max(max, newest(path.join(p, e)));
  return max;
}

export async function buildServer() {
  const { build } = await import('esbuild');
  const result = await build({
    write: false,
    absWorkingDir: root,
    entryPoints: { main: 'api/src/main.ts', tracing: 'api/src/platform/tracing.ts' },
    outdir: path.dirname(serverBundle),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Stack traces name the TypeScript file and line from the map's mappings; the sources' text in
    // it would only be held in every process's memory (about 2 MB of heap) and never read.
    sourcemap: true,
    sourcesContent: false,
    // Without its comments and indentation the bundle is all ASCII and about half the size: V8 holds
    // every script's source for as long as it runs (lazy compilation reads it), and one comment's
    // "→" made all of it two bytes a character (2.7 MB of heap in every process). Names are kept,
    // so profiles and stacks still read; the map gives the TypeScript line.
    minifyWhitespace: true,
    logLevel: 'warning',
    plugins: [
      {
        // Only our own code (relative imports and the @parley/* workspaces) goes into the bundle.
        name: 'dependencies-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith('@parley/') ? undefined : { path: a.path, external: true }));
        },
      },
    ],
  });
  // Written aside and renamed into place: a server starting meanwhile never loads half a file.
  for (const file of result.outputFiles) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
  }
}

/** Builds the bundle when it is missing or older than any of its sources; returns its path. */
export async function ensureServerBuild() {
  const builtAt = Math.min(...[serverBundle, tracingBundle].map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
  const changedAt = Math.max(...sources.map((s) => newest(path.join(root, s))));
  if (builtAt < changedAt) await buildServer();
  return serverBundle;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
