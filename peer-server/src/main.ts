import http from 'node:http';
import { mountPeerServer } from './mount.ts';
import { peerServerOptions } from './options.ts';

/** `npm start -w peer-server`: the signalling server alone (scaled out), on PEER_PORT. */
const secret = process.env.JWT_SECRET?.trim();
if (!secret || secret.length < 32) {
  console.error(
    "Invalid configuration:\n  JWT_SECRET: set it to the API's JWT_SECRET (at least 32 characters) so peer tickets can be verified",
  );
  process.exit(1);
}
// The app's address (the API's PUBLIC_URL): the one origin allowed cross-origin; unset, none is.
let allowedOrigin: string | undefined;
try {
  allowedOrigin = process.env.PUBLIC_URL?.trim() ? new URL(process.env.PUBLIC_URL.trim()).origin : undefined;
} catch {
  console.error('Invalid configuration:\n  PUBLIC_URL: must be the URL users open, e.g. https://parley.example');
  process.exit(1);
}
const port = Number(process.env.PEER_PORT ?? 9000);
const host = process.env.HOST ?? '0.0.0.0';
const options = peerServerOptions();

const server = http.createServer((req, res) => {
  if (mount.owns(req)) return mount.handle(req, res);
  res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not found', code: 'not_found' }));
});
// One standalone process: used tickets and the per-user limit live in its memory.
const mount = mountPeerServer(server, {
  secret: new TextEncoder().encode(secret),
  options,
  exclusive: true,
  allowedOrigin,
  log: { info: (o, m) => console.log(m, JSON.stringify(o)), warn: (o, m) => console.warn(m, JSON.stringify(o)) },
});
server.listen(port, host, () => console.log(`Parley peer server listening on ${host}:${port}${options.path}`));

const stop = () => {
  void mount.close().finally(() => {
    server.close();
    // `peer` keeps interval timers of its own; nothing else is left to flush.
    process.exit(0);
  });
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
