import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { peerAuthority, roomTagOf } from './peerIds.ts';
import { mayRelay } from './relayPolicy.ts';

const secret = new TextEncoder().encode('a'.repeat(48));
const other = new TextEncoder().encode('b'.repeat(48));
const authority = peerAuthority(secret);

describe('room peer ids', () => {
  it('are deterministic per room and user, different across users and rooms', () => {
    const a = authority.roomPeerId('room-1', 'alice');
    expect(authority.roomPeerId('room-1', 'alice')).toBe(a);
    expect(authority.roomPeerId('room-1', 'bob')).not.toBe(a);
    expect(authority.roomPeerId('room-2', 'alice')).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{16}-[0-9a-f]{32}$/);
  });

  it('share the room tag inside a room only', () => {
    const a = authority.roomPeerId('room-1', 'alice');
    const b = authority.roomPeerId('room-1', 'bob');
    const c = authority.roomPeerId('room-2', 'carol');
    expect(roomTagOf(a)).toBe(roomTagOf(b));
    expect(roomTagOf(a)).not.toBe(roomTagOf(c));
  });

  it("differ per attempt of the call, keep the first attempt's id, and keep the room tag", () => {
    const first = authority.roomPeerId('room-1', 'alice');
    expect(authority.roomPeerId('room-1', 'alice', 0)).toBe(first);
    const second = authority.roomPeerId('room-1', 'alice', 1);
    expect(second).not.toBe(first);
    expect(authority.roomPeerId('room-1', 'alice', 2)).not.toBe(second);
    expect(authority.roomPeerId('room-1', 'bob', 1)).not.toBe(second);
    expect(roomTagOf(second)).toBe(roomTagOf(first));
    const offer = JSON.stringify({ type: 'OFFER', dst: authority.roomPeerId('room-1', 'bob', 1), payload: {} });
    expect(mayRelay(second, offer)).toBe(true);
  });

  it('cannot be computed without the server secret', () => {
    expect(peerAuthority(other).roomPeerId('room-1', 'alice')).not.toBe(authority.roomPeerId('room-1', 'alice'));
  });

  it('do not split ambiguously (room "a:b" user "c" differs from room "a" user "b:c")', () => {
    expect(authority.roomPeerId('a\0b', 'c')).not.toBe(authority.roomPeerId('a', 'b\0c'));
  });

  it('are valid PeerJS ids', () => {
    expect(authority.roomPeerId('r', 'u')).toMatch(/^[A-Za-z0-9]+(?:[ _-][A-Za-z0-9]+)*$/);
  });
});

describe('peer tickets', () => {
  const peerId = authority.roomPeerId('room-1', 'alice');

  it('verify for the id they name', async () => {
    const ticket = await authority.mintTicket({ userId: 'alice', peerId });
    const verified = await authority.verifyTicket(ticket, peerId);
    expect(verified).toMatchObject({ userId: 'alice', peerId, ticketId: expect.any(String) as string });
    expect(verified!.expiresAtMs).toBeGreaterThan(Date.now());
    expect(verified!.expiresAtMs).toBeLessThanOrEqual(Date.now() + 120_000);
    // Each ticket has an id of its own, even for the same claims.
    const again = await authority.verifyTicket(await authority.mintTicket({ userId: 'alice', peerId }), peerId);
    expect(again!.ticketId).not.toBe(verified!.ticketId);
  });

  it("refuse another id (taking over the partner's id)", async () => {
    const ticket = await authority.mintTicket({ userId: 'alice', peerId });
    await expect(authority.verifyTicket(ticket, authority.roomPeerId('room-1', 'bob'))).resolves.toBeNull();
  });

  it('refuse a missing, malformed, forged or expired ticket', async () => {
    await expect(authority.verifyTicket(undefined, peerId)).resolves.toBeNull();
    await expect(authority.verifyTicket('', peerId)).resolves.toBeNull();
    await expect(authority.verifyTicket('not-a-jwt', peerId)).resolves.toBeNull();
    const forged = await peerAuthority(other).mintTicket({ userId: 'alice', peerId });
    await expect(authority.verifyTicket(forged, peerId)).resolves.toBeNull();
    const expired = await new SignJWT({ pid: peerId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setIssuer('parley')
      .setAudience('parley-peer')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 300)
      .sign(secret);
    await expect(authority.verifyTicket(expired, peerId)).resolves.toBeNull();
  });

  it('refuse a ticket without an id (it could not be held to one use)', async () => {
    const noJti = await new SignJWT({ pid: peerId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setIssuer('parley')
      .setAudience('parley-peer')
      .setExpirationTime('2m')
      .sign(secret);
    await expect(authority.verifyTicket(noJti, peerId)).resolves.toBeNull();
  });

  it('refuse an access token of the app (another audience) used as a ticket', async () => {
    const accessToken = await new SignJWT({ pid: peerId, userId: 'alice' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('alice')
      .setIssuer('parley')
      .setAudience('parley-app')
      .setExpirationTime('5m')
      .sign(secret);
    await expect(authority.verifyTicket(accessToken, peerId)).resolves.toBeNull();
  });

  it('refuse ids this server never hands out', async () => {
    const ticket = await authority.mintTicket({ userId: 'alice', peerId: 'chosen-by-me' });
    await expect(authority.verifyTicket(ticket, 'chosen-by-me')).resolves.toBeNull();
  });
});

describe('relay policy', () => {
  const a = authority.roomPeerId('room-1', 'alice');
  const b = authority.roomPeerId('room-1', 'bob');
  const stranger = authority.roomPeerId('room-9', 'mallory');
  const msg = (type: string, dst?: string) => JSON.stringify({ type, dst, payload: {} });

  it('relays signalling inside the room', () => {
    for (const type of ['OFFER', 'ANSWER', 'CANDIDATE', 'LEAVE']) expect(mayRelay(a, msg(type, b))).toBe(true);
    expect(mayRelay(a, msg('HEARTBEAT'))).toBe(true);
    expect(mayRelay(a, msg('LEAVE'))).toBe(true);
  });

  it('drops an offer to someone outside the room', () => {
    expect(mayRelay(stranger, msg('OFFER', a))).toBe(false);
    expect(mayRelay(stranger, msg('CANDIDATE', b))).toBe(false);
    expect(mayRelay(a, msg('OFFER', 'some-guessed-id'))).toBe(false);
  });

  it('drops server-only types and garbage', () => {
    expect(mayRelay(a, msg('EXPIRE', b))).toBe(false);
    expect(mayRelay(a, msg('OPEN', b))).toBe(false);
    expect(mayRelay(a, msg('ID-TAKEN', b))).toBe(false);
    expect(mayRelay(a, 'not json')).toBe(false);
    expect(mayRelay(a, 'null')).toBe(false);
    expect(mayRelay(a, JSON.stringify({ type: 'OFFER', dst: 42 }))).toBe(false);
  });
});
