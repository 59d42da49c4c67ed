import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Serves the person-segmentation model of @mediapipe/selfie_segmentation (script, WebAssembly,
 * TFLite model) from Parley's own origin under /mediapipe/: copied into the build, served by the
 * dev server. No CDN, so the CSP stays 'self'.
 */
const RUNTIME_FILE = /\.(js|wasm|tflite|binarypb|data)$/;
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.tflite': 'application/octet-stream',
  '.binarypb': 'application/octet-stream',
  '.data': 'application/octet-stream',
};

export function mediapipeAssets(): Plugin {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@mediapipe/selfie_segmentation/package.json'));
  const files = () => readdirSync(dir).filter((f) => RUNTIME_FILE.test(f));
  return {
    name: 'parley-mediapipe-assets',
    configureServer(server) {
      server.middlewares.use('/mediapipe', (req, res, next) => {
        const name = decodeURIComponent((req.url ?? '/').split('?')[0]!.replace(/^\//, ''));
        if (!files().includes(name)) return next();
        res.setHeader('Content-Type', TYPES[path.extname(name)] ?? 'application/octet-stream');
        res.end(readFileSync(path.join(dir, name)));
      });
    },
    generateBundle() {
      for (const f of files()) this.emitFile({ type: 'asset', fileName: `mediapipe/${f}`, source: readFileSync(path.join(dir, f)) });
    },
  };
}
