import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Serves the person-segmentation runtime and model from Parley's own origin under /mediapipe/:
 * tasks-vision's WebAssembly (its module build, which a module worker loads) under
 * /mediapipe/tasks/, and the model (pwa/models/, made by scripts/segmenter-model.mjs) beside it.
 * Copied into the build, served by the dev server. No CDN, so the CSP stays 'self'.
 */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.tflite': 'application/octet-stream',
};

export function mediapipeAssets(): Plugin {
  // The package's exports name its files but not package.json.
  const wasmDir = path.dirname(createRequire(import.meta.url).resolve('@mediapipe/tasks-vision/vision_wasm_module_internal.js'));
  const modelDir = path.join(import.meta.dirname, 'models');
  /** Served name → file on disk. */
  const files = () =>
    new Map([
      ...readdirSync(wasmDir)
        .filter((f) => /^vision_wasm_module_internal\.(js|wasm)$/.test(f))
        .map((f) => [`tasks/${f}`, path.join(wasmDir, f)] as const),
      ...readdirSync(modelDir)
        .filter((f) => f.endsWith('.tflite'))
        .map((f) => [f, path.join(modelDir, f)] as const),
    ]);
  return {
    name: 'parley-mediapipe-assets',
    configureServer(server) {
      server.middlewares.use('/mediapipe', (req, res, next) => {
        const name = decodeURIComponent((req.url ?? '/').split('?')[0]!.replace(/^\//, ''));
        const file = files().get(name);
        if (!file) return next();
        res.setHeader('Content-Type', TYPES[path.extname(name)] ?? 'application/octet-stream');
        res.end(readFileSync(file));
      });
    },
    generateBundle() {
      for (const [name, file] of files()) this.emitFile({ type: 'asset', fileName: `mediapipe/${name}`, source: readFileSync(file) });
    },
  };
}
