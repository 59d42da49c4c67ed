/**
 * The in-run reference of `bench:pictures`: the plainest server doing the job of a chat picture
 * with the same libraries and nothing else. An HTTP upload (the raw file as the body, token
 * checked), sharp re-encoding it with Parley's settings (upright, at most 2048 px as WebP, a 480 px WebP
 * thumbnail cut from it), the files kept in memory; a socket.io broadcast
 * of the message to the room; a static GET of the thumbnail. No database, no access checks, no
 * limits. Plain JavaScript, sharing none of Parley's code.
 *
 * Env: PORT, HOST, JWT_SECRET (as given to Parley), PICTURE_WEBP (Parley's encoder settings, JSON).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import sharp from 'sharp';
import { Server } from 'socket.io';
import { verify } from './referenceToken.mjs';

/** Parley's WebP settings, as the bench passes them (rooms/pictures.ts PICTURE_WEBP). */
const WEBP = JSON.parse(process.env.PICTURE_WEBP ?? '{"full":{"quality":80},"thumb":{"quality":70}}');

/** id → { full, thumb } */
const files = new Map();

async function reencode(file) {
  const full = await sharp(file, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize(2048, 2048, { fit: 'inside', withoutEnlargement: true })
    .webp(WEBP.full)
    .toBuffer({ resolveWithObject: true });
  const thumb = await sharp(full.data).resize(480, 480, { fit: 'inside', withoutEnlargement: true }).webp(WEBP.thumb).toBuffer();
  return { full: full.data, thumb, width: full.info.width, height: full.info.height };
}

const http = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/api/health') return res.writeHead(200).end('ok');
  const user = verify(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]);
  if (!user) return res.writeHead(401).end();
  try {
    if (req.method === 'POST' && url.pathname === '/upload') {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const picture = await reencode(Buffer.concat(chunks));
      const id = randomUUID();
      files.set(id, picture);
      res.writeHead(201, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ id, width: picture.width, height: picture.height, thumbUrl: `/files/${id}/thumb` }));
    }
    const m = /^\/files\/([0-9a-f-]{36})\/(full|thumb)$/.exec(url.pathname);
    const file = m && files.get(m[1]);
    if (req.method === 'GET' && file) {
      res.writeHead(200, { 'content-type': 'image/webp' });
      return res.end(m[2] === 'thumb' ? file.thumb : file.full);
    }
    res.writeHead(404).end();
  } catch {
    res.writeHead(400).end();
  }
});
const io = new Server(http, { transports: ['websocket', 'polling'] });

io.use((socket, next) => (verify(socket.handshake.auth?.token) ? next() : next(new Error('unauthorized'))));
io.on('connection', (socket) => {
  socket.on('ref:join', (p, ack) => {
    socket.join(String(p?.room));
    if (typeof ack === 'function') ack({ ok: true });
  });
  socket.on('ref:post', (p, ack) => {
    const file = files.get(p?.attachment);
    if (!file || typeof ack !== 'function') return;
    const message = { room: p.room, attachment: { id: p.attachment, thumbUrl: `/files/${p.attachment}/thumb` }, clientId: p.clientId };
    ack({ ok: true });
    socket.to(String(p.room)).emit('ref:message', message);
  });
});

http.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
