import { describe, expect, it, vi } from 'vitest';
import { roomEvents as wire, type JoinAnswer, type PostAnswer } from '@parley/contract/rooms';
import type { MessageAttachment } from '@parley/contract/attachments';
import { setUpSocketServer, type SocketServerTest } from './testing/socketServer';
import { createStoredRoom } from './storedRoom';
import { storedMessage } from './testing/storedMessage';
import { i18n } from '@lingui/core';

// The messages in English: the interface language the tests read.
i18n.loadAndActivate({ locale: 'en', messages: {} });

const ROOM = '6f1c1b7e-1111-4a4a-8a8a-000000000002';
const opened: JoinAnswer = {
  ok: true,
  messages: [],
  hasOlder: false,
  hasNewer: false,
  lastReadId: 0,
  readBy: {},
  people: [],
  mutedUntil: null,
};
const t = setUpSocketServer({} as SocketServerTest);
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 3000 });
const uploaded: MessageAttachment = {
  id: '0d6a1f55-2222-4b4b-9c9c-000000000001',
  kind: 'image',
  width: 4,
  height: 3,
  url: '/full',
  thumbUrl: '/thumb',
};

describe('a picture or voice message on its way', () => {
  it('is uploaded first, then posted naming the upload; the server’s copy replaces it', async () => {
    const posts: Array<Record<string, unknown>> = [];
    t.server.on(wire.join, (_p: unknown, ack: (a: JoinAnswer) => void) => ack(opened));
    t.server.on(wire.post, (p: Record<string, unknown>, ack: (a: PostAnswer) => void) => {
      posts.push(p);
      ack({ ok: true, message: storedMessage(1, { clientId: p.clientId as string, text: '', attachment: uploaded }, ROOM) });
    });
    const upload = vi.fn(async () => uploaded);
    const r = createStoredRoom({ roomId: ROOM, fetchPage: vi.fn(), notify: vi.fn(), upload });
    r.start();
    await until(() => r.getState().phase === 'open');
    r.sendAttachment('image', new Blob(['x'], { type: 'image/png' }));
    expect(r.getState().pending[0]?.attachment).toMatchObject({ kind: 'image' });
    await until(() => r.getState().messages.length === 1);
    expect(upload).toHaveBeenCalledWith('image', expect.any(Blob));
    expect(posts).toEqual([{ roomId: ROOM, clientId: expect.any(String), text: '', attachment: uploaded.id }]);
    expect(r.getState().pending).toEqual([]);
    r.stop();
  });

  it('a refused upload says why and waits (not sent again by itself); Retry uploads again', async () => {
    let posts = 0;
    t.server.on(wire.join, (_p: unknown, ack: (a: JoinAnswer) => void) => ack(opened));
    t.server.on(wire.post, () => posts++);
    const upload = vi.fn().mockRejectedValueOnce({ message: 'That picture is larger than 10 MB.' }).mockResolvedValueOnce(uploaded);
    const notify = vi.fn();
    const r = createStoredRoom({ roomId: ROOM, fetchPage: vi.fn(), notify, upload });
    r.start();
    await until(() => r.getState().phase === 'open');
    r.sendAttachment('voice', new Blob(['x'], { type: 'audio/webm' }), '', 1500);
    await until(() => r.getState().pending[0]?.status === 'failed');
    expect(r.getState().pending[0]).toMatchObject({
      problem: 'That picture is larger than 10 MB.',
      attachment: { kind: 'voice', durationMs: 1500 },
    });
    expect(notify).toHaveBeenCalledWith({ title: 'Message not sent', description: 'That picture is larger than 10 MB.' });
    expect(posts).toBe(0);
    r.retry(r.getState().pending[0]!.clientId);
    await until(() => posts === 1);
    expect(upload).toHaveBeenCalledTimes(2);
    r.stop();
  });
});

describe('pictures in a 1:1 chat', () => {
  it('the join says who allows them; a change from either side follows; allowing is asked of the server', async () => {
    const asked: Array<Record<string, unknown>> = [];
    t.server.on(wire.join, (_p: unknown, ack: (a: JoinAnswer) => void) => ack({ ...opened, picturesAllowedBy: ['u2'] }));
    t.server.on(wire.pictures, (p: Record<string, unknown>, ack: (a: { ok: true }) => void) => {
      asked.push(p);
      t.server.emit(wire.picturesAllowed, { roomId: ROOM, allowedBy: ['u2', 'me'] });
      ack({ ok: true });
    });
    const r = createStoredRoom({ roomId: ROOM, fetchPage: vi.fn(), notify: vi.fn() });
    expect(r.getState().picturesAllowedBy).toBeNull();
    r.start();
    await until(() => r.getState().phase === 'open');
    expect(r.getState().picturesAllowedBy).toEqual(['u2']);
    expect(await r.allowPictures(true)).toBe(true);
    expect(asked).toEqual([{ roomId: ROOM, allow: true }]);
    await until(() => r.getState().picturesAllowedBy?.length === 2);
    // Another room's news is not this chat's.
    t.server.emit(wire.picturesAllowed, { roomId: 'another', allowedBy: [] });
    t.server.emit(wire.picturesAllowed, { roomId: ROOM, allowedBy: ['me'] });
    await until(() => r.getState().picturesAllowedBy?.join() === 'me');
    r.stop();
  });
});
