import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { mediapipeAssets } from './vite-plugin-mediapipe';
import path from 'node:path';

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: __dirname,
  publicDir: path.resolve(__dirname, '../public'),
  plugins: [react(), tailwindcss(), mediapipeAssets()],
  build: { outDir: process.env.PWA_OUT_DIR ?? 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/socket.io': { target: api, ws: true },
      '/peerjs': { target: api, ws: true },
    },
  },
});
