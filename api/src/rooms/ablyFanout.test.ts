import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { roomEvents as wire, type RoomMessage } from '@parley/contract/rooms';
import { next, silent, socketTestServer } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';

const KEY = 'appId.keyId:c2VjcmV0LXBhcnQtb2YtdGhlLWtleQ';

/** A stand-in for Ably's REST API: records every publish and answers with `status`. */
type Publish = { path: string; authorization: string | undefined; name: string; data: unknown; encoding: string };
const published: Publish[] = [];
let status = 201;
const ably: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const m = JSON.parse(body) as { name: string; data: string; encoding: string };
    published.push({
      path: req.url ?? '',
      authorization: req.headers.authorization,
      name: m.name,
      data: JSON.parse(m.data),
      encoding: m.encoding,
    });
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => ably.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => ably.close(() => resolve())));
beforeEach(() => {
  published.length = 0;
  status = 201;
});

const t = socketTestServer({ ABLY_API_KEY: KEY, ABLY_REST_URL: `http://127.0.0.1:${(ably.address() as AddressInfo).port}` });
const rig = storedRoomRig(t.server, (u) => t.open(u));

describe('group rooms over Ably (ABLY_API_KEY set)', () => {
  it('a group room’s messages, typing and reactions are published to its channel, signed with the key, in order, not sent over socket.io', async () => {
    const {
      people: [, bo],
      room,
      sockets: [sa, sb, sc],
    } = await rig.gathering();
    const overSocket = silent(sc, wire.message, 1000);
    const one = await rig.post(sa, room.roomId, 'first');
    const two = await rig.post(sb, room.roomId, 'second');
    if (!one.ok || !two.ok) throw new Error('not posted');
    sb.emit(wire.typing, { roomId: room.roomId, typing: true });
    expect(await sc.timeout(5000).emitWithAck(wire.react, { roomId: room.roomId, id: one.message.id, emoji: '👍', on: true })).toEqual({
      ok: true,
    });
    expect(await overSocket).toBe(true);
    const channel = `/channels/${encodeURIComponent(`group:${room.roomId}`)}/messages`;
    await expect
      .poll(() => published.filter((p) => p.path === channel).map((p) => p.name))
      .toEqual(expect.arrayContaining([wire.message, wire.message, wire.typing, wire.changed]));
    const onChannel = published.filter((p) => p.path === channel);
    expect(onChannel.every((p) => p.authorization === `Basic ${Buffer.from(KEY).toString('base64')}` && p.encoding === 'json')).toBe(true);
    const messages = onChannel.filter((p) => p.name === wire.message).map((p) => p.data as RoomMessage);
    expect(messages.map((m) => [m.id, m.text])).toEqual([
      [one.message.id, 'first'],
      [two.message.id, 'second'],
    ]);
    expect(onChannel.find((p) => p.name === wire.typing)?.data).toMatchObject({ userId: bo.userId, typing: true });
    expect((onChannel.find((p) => p.name === wire.changed)?.data as RoomMessage).reactions).toHaveLength(1);
  });

  it('a publish Ably refuses still reaches the room over socket.io', async () => {
    status = 500;
    const {
      room,
      sockets: [sa, , sc],
    } = await rig.gathering();
    const heard = next<RoomMessage>(sc, wire.message);
    await rig.post(sa, room.roomId, 'through anyway');
    expect((await heard).text).toBe('through anyway');
    expect(published.some((p) => (p.data as RoomMessage).text === 'through anyway')).toBe(true);
  });

  it('direct rooms stay on socket.io', async () => {
    const [ana, bo] = await Promise.all([rig.account(), rig.account()]);
    await rig.befriend(ana, bo);
    const opened = await rig.call(ana, `/api/direct/${bo.username}`, { method: 'POST' });
    expect(opened.status).toBeLessThan(300);
    const { roomId } = (await opened.json()) as { roomId: string };
    const [sa, sb] = await Promise.all([rig.open(ana), rig.open(bo)]);
    await rig.watch(sa, roomId);
    await rig.watch(sb, roomId);
    const heard = next<RoomMessage>(sb, wire.message);
    await rig.post(sa, roomId, 'just us');
    expect((await heard).text).toBe('just us');
    // (Earlier tests' group rooms may still publish who left them; nothing of this room goes to Ably.)
    expect(published.filter((p) => p.path.includes(roomId) || JSON.stringify(p.data).includes(roomId))).toEqual([]);
  });
});
