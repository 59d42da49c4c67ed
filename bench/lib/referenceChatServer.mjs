/**
 * The in-run reference of `bench:chat`: the plainest socket.io chat server doing the same job as
 * Parley's 1:1 text chat for the bench's clients, and nothing else. It checks each socket's token
 * (HS256, node:crypto), pairs searchers first come first served (no filters, no presence, no
 * storage, no receipts, no safety), relays room posts to both sides with an ack, and handles skips.
 * Plain JavaScript, so it carries no TypeScript loader. It speaks the event names and payload
 * shapes of the contract (kept literal here: it must not share Parley's code).
 *
 * Env: PORT, HOST, JWT_SECRET (base64url, as given to Parley).
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { verify } from './referenceToken.mjs';

const http = createServer((req, res) => {
  res.writeHead(req.url === '/api/health' ? 200 : 404, { 'content-type': 'text/plain' });
  res.end(req.url === '/api/health' ? 'ok' : 'not found');
});
const io = new Server(http, { transports: ['websocket', 'polling'], maxHttpBufferSize: 64 * 1024 });

io.use((socket, next) => {
  const user = verify(socket.handshake.auth?.token);
  if (!user) return next(new Error('unauthorized'));
  socket.data.user = {
    userId: user.userId,
    username: user.username,
    avatar: user.avatar ?? '',
    age: user.age ?? null,
    gender: user.gender ?? null,
  };
  next();
});

/** Who waits, first come first served. */
const waiting = new Set();
/** socket → { roomId, partner } */
const rooms = new Map();
let nextRoom = 0;
let nextMessage = 0;

function search(socket) {
  for (const other of waiting) {
    if (other === socket || other.data.user.userId === socket.data.user.userId) continue;
    waiting.delete(other);
    const roomId = `r${++nextRoom}`;
    for (const [me, them, initiator] of [
      [socket, other, true],
      [other, socket, false],
    ]) {
      me.join(roomId);
      rooms.set(me, { roomId, partner: them });
      me.emit('chat:matched', {
        roomId,
        roomType: 'textChat',
        receiver: { ...them.data.user, sharedTopics: [] },
        noCommonTopic: false,
        initiator,
        callAttempt: 0,
      });
    }
    return;
  }
  waiting.add(socket);
  socket.emit('chat:searching', { roomType: 'textChat', requeued: false });
}

/** Ends the socket's room; the partner is told and searches again when it asked for that. */
function leave(socket) {
  const room = rooms.get(socket);
  if (!room) return;
  rooms.delete(socket);
  rooms.delete(room.partner);
  socket.leave(room.roomId);
  room.partner.leave(room.roomId);
  room.partner.emit('chat:partnerLeft', { roomId: room.roomId });
  if (room.partner.data.automaticReconnect) search(room.partner);
}

io.on('connection', (socket) => {
  socket.on('chat:start', (p) => {
    if (rooms.has(socket) || waiting.has(socket)) return;
    socket.data.automaticReconnect = p?.automaticReconnect === true;
    search(socket);
  });
  socket.on('chat:next', () => {
    leave(socket);
    search(socket);
  });
  socket.on('chat:stop', () => {
    waiting.delete(socket);
    leave(socket);
  });
  // The pair joined the room when matched.
  socket.on('room:join', () => undefined);
  socket.on('room:post', (p, ack) => {
    if (typeof ack !== 'function') return;
    const room = rooms.get(socket);
    if (!room || p?.roomId !== room.roomId || typeof p.text !== 'string' || p.text.length > 2000) {
      return ack({ ok: false, message: 'You are not in this room.', code: 'not_in_room' });
    }
    const message = {
      roomId: room.roomId,
      id: ++nextMessage,
      senderId: socket.data.user.userId,
      senderName: socket.data.user.username,
      text: p.text,
      sentAt: Date.now(),
      editedAt: null,
      deleted: false,
      replyTo: null,
      mentions: [],
      reactions: [],
      clientId: typeof p.clientId === 'string' ? p.clientId : null,
    };
    ack({ ok: true, message });
    io.to(room.roomId).emit('room:message', message);
  });
  socket.on('disconnect', () => {
    waiting.delete(socket);
    leave(socket);
  });
});

http.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
