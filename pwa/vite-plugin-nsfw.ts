import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Serves the nudity guard's model from Parley's own origin under /nsfw/: the MobileNetV2 weights
 * that ship inside the nsfwjs package (as base64 script bundles) written out as a TensorFlow.js
 * model.json and its binary shard, and the WebAssembly builds of the tfjs wasm backend. No CDN.
 */
const require = createRequire(import.meta.url);
const nsfwModels = path.join(path.dirname(require.resolve('nsfwjs')), '../models/mobilenet_v2');
const wasmDir = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
const WASM = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm'];

type ModelJson = { modelTopology: unknown; weightsManifest: Array<{ paths: string[]; weights: unknown[] }> };

export function nsfwModelFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const model = require(path.join(nsfwModels, 'model.min.js')) as ModelJson;
  const manifest = model.weightsManifest.map((group) => ({
    ...group,
    paths: group.paths.map((p) => {
      const base64 = require(path.join(nsfwModels, `${p}.min.js`)) as string;
      files.set(`${p}.bin`, Buffer.from(base64, 'base64'));
      return `${p}.bin`;
    }),
  }));
  files.set(
    'model.json',
    Buffer.from(JSON.stringify({ format: 'layers-model', modelTopology: model.modelTopology, weightsManifest: manifest })),
  );
  for (const w of WASM) files.set(w, readFileSync(path.join(wasmDir, w)));
  return files;
}

const TYPES: Record<string, string> = { '.json': 'application/json', '.bin': 'application/octet-stream', '.wasm': 'application/wasm' };

export function nsfwAssets(): Plugin {
  let files: Map<string, Buffer> | null = null;
  const all = () => (files ??= nsfwModelFiles());
  return {
    name: 'parley-nsfw-assets',
    configureServer(server) {
      server.middlewares.use('/nsfw', (req, res, next) => {
        const file = all().get(decodeURIComponent((req.url ?? '/').split('?')[0]!.replace(/^\//, '')));
        if (!file) return next();
        res.setHeader('Content-Type', TYPES[path.extname(req.url ?? '')] ?? 'application/octet-stream');
        res.end(file);
      });
    },
    generateBundle() {
      for (const [name, source] of all()) this.emitFile({ type: 'asset', fileName: `nsfw/${name}`, source });
    },
  };
}
