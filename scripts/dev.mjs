// `npm run dev`: the API in watch mode on :3000 and Vite with hot reload on :5173 (proxying
// /api, /socket.io and /peerjs to the API).
import { spawn } from 'node:child_process';

const env = { ...process.env, NODE_ENV: 'development', SERVE_PWA: 'false', PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173' };
const children = [
  spawn('npm', ['run', 'dev', '-w', '@parley/api'], { stdio: 'inherit', env }),
  spawn('npm', ['run', 'dev', '-w', '@parley/pwa'], { stdio: 'inherit', env }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
