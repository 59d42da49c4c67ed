import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { linguiPlugin } from './vite-plugin-lingui';
import { mediapipeAssets } from './vite-plugin-mediapipe';
import { nsfwAssets } from './vite-plugin-nsfw';
import { precompress } from './vite-plugin-precompress';
import { bundleReport } from './vite-plugin-bundle-report';
import { prerenderLanding } from './vite-plugin-prerender';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';

const reactRouterDist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist');
// Production runs React 19 itself; the landing page stays light by running as a small island that
// loads the app on demand (src/main.tsx, e2e/bundle.spec.ts checks its size), not by swapping React.
// react-router's package points every bundler at its development build; its production build is
// the same code with the development warnings switched off, so they minify away.
const productionAliases = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'production/index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'production/dom-export.mjs') },
];

const api = process.env.API_URL ?? 'http://localhost:3000';

// The web app manifest at the repository root is the single source; the build emits it as is.
const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../manifest.webmanifest'), 'utf8')) as Partial<ManifestOptions>;

export default defineConfig(({ mode }) => ({
  root: __dirname,
  publicDir: path.resolve(__dirname, '../public'),
  plugins: [
    // Lingui's macros (<Trans>, t, msg) compiled natively, and the .po catalogs compiled on import.
    linguiPlugin(),
    react(),
    tailwindcss(),
    mediapipeAssets(),
    nsfwAssets(),
    prerenderLanding(),
    bundleReport(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false, // lib/serviceWorker.ts registers it with workbox-window (update prompt)
      manifest,
      manifestFilename: 'manifest.webmanifest',
      injectManifest: {
        rollupFormat: 'iife',
        // The shell, every page chunk (landing and legal pages included), styles, icons, manifest.
        globPatterns: ['**/*.{js,css,html,svg,png,webp,ico,webmanifest,woff2}'],
        // Models load only with a video call: the nudity guard's worker (TensorFlow.js) and its
        // model are cached when first used (sw.ts), not on install; the person segmentation's
        // worker and model (blur) when blur is first chosen, by the browser's own cache.
        // The Ably client loads only on a server with an Ably key, and rooms need the network anyway.
        globIgnores: [
          'screenshots/**',
          'mediapipe/**',
          'nsfw/**',
          'assets/nudityWorker-*.js',
          'assets/segmenterWorker-*.js',
          'assets/ably-*.js',
        ],
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  resolve: {
    alias: mode === 'production' ? productionAliases : [],
  },
  build: { outDir: process.env.PWA_OUT_DIR ?? 'dist', emptyOutDir: true, sourcemap: process.env.PWA_SOURCEMAP === 'true' },
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/socket.io': { target: api, ws: true },
      '/peerjs': { target: api, ws: true },
    },
  },
}));
