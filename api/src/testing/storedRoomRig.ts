import type { Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { roomEvents as wire, type JoinAnswer, type PostAnswer } from '@parley/contract/rooms';
import type { GroupDetail } from '@parley/contract/groups';
import { insertAccount, tokenUserOf } from '../db/accounts.ts';
import { friendships } from '../db/schema.ts';
import { messageStore } from '../rooms/messageStore.ts';
import type { TestServer } from './server.ts';

/** Stored-room tests' people: real accounts (messages and members refer to them), their tokens and calls. */
export function storedRoomRig(server: () => TestServer, open: (user: TokenUser) => Promise<Socket>) {
  let n = 0;
  async function account(prefix = 'p'): Promise<TokenUser & { token: string }> {
    const username = `${prefix}${Date.now().toString(36).slice(-5)}${n++}`;
    const user = tokenUserOf(await insertAccount(server().deps.db, { username, age: 30, gender: 'female', isVerified: true }));
    return { ...user, token: await server().deps.tokens.sign(user) };
  }
  const call = (who: { token: string }, path: string, init: { method?: string; json?: unknown } = {}) =>
    server().api(path, { method: init.method ?? 'GET', json: init.json, headers: { authorization: `Bearer ${who.token}` } });
  async function createRoom(owner: { token: string }, over: Record<string, unknown> = {}): Promise<GroupDetail> {
    const res = await call(owner, '/api/groups', { method: 'POST', json: { name: `Room ${n++}`, category: 'Music', ...over } });
    if (res.status !== 201) throw new Error(`create room: ${res.status} ${await res.text()}`);
    return (await res.json()) as GroupDetail;
  }
  const join = (who: { token: string }, roomId: string, invite?: string) =>
    call(who, `/api/groups/${roomId}/join`, { method: 'POST', json: invite ? { invite } : {} });
  const moderate = (who: { token: string }, roomId: string, action: Record<string, unknown>) =>
    call(who, `/api/groups/${roomId}/moderation`, { method: 'POST', json: action });
  async function befriend(a: TokenUser, b: TokenUser) {
    const [userLow, userHigh] = a.userId < b.userId ? [a.userId, b.userId] : [b.userId, a.userId];
    await server().deps.db.insert(friendships).values({ userLow: userLow!, userHigh: userHigh! });
  }
  const watch = (s: Socket, roomId: string, after?: number) =>
    s.timeout(5000).emitWithAck(wire.join, after === undefined ? { roomId } : { roomId, after }) as Promise<JoinAnswer>;
  const post = (s: Socket, roomId: string, text: string, extra: Record<string, unknown> = {}) =>
    s.timeout(5000).emitWithAck(wire.post, { roomId, clientId: `c${n++}`, text, ...extra }) as Promise<PostAnswer>;
  /** Stores messages straight through the message store, past the per-person allowance. */
  async function seed(roomId: string, senderId: string, texts: string[]) {
    const store = messageStore(server().deps.db);
    for (const text of texts) await store.insert({ roomId, senderId, senderName: '', text, clientId: `s${n++}`, mentions: [] });
  }
  /** A room of three fresh people: the first owns it, the others joined, each with a socket following it. */
  async function gathering([a, b, c]: [string, string, string] = ['own', 'bo', 'cy']) {
    const people = [await account(a), await account(b), await account(c)] as const;
    const room = await createRoom(people[0]);
    await join(people[1], room.roomId);
    await join(people[2], room.roomId);
    const sockets = [await open(people[0]), await open(people[1]), await open(people[2])] as const;
    for (const s of sockets) await watch(s, room.roomId);
    return { people, room, sockets };
  }
  return { gathering, seed, account, call, createRoom, join, moderate, befriend, watch, post, open };
}
