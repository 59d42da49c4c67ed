import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import type { TokenUser } from '@parley/contract/auth';
import { PAGE_MAX, roomEvents as wire, type RoomKind, type RoomMessage } from '@parley/contract/rooms';
import type { Database } from '../db/client.ts';
import { friendships, roomMembers, storedRooms, users } from '../db/schema.ts';
import { openTestDatabase } from '../testing/database.ts';
import { RoomCore, type RoomPolicy, type StoredRoomFanout } from './core.ts';
import { memoryLog } from './memoryLog.ts';
import { pairChats } from './pairPolicy.ts';
import { Rooms } from './rooms.ts';

/**
 * Whatever happens to the connections — drops with messages in flight, acknowledgements lost,
 * resends under the same client id, catch-ups by last id — every member ends with every message
 * exactly once, under the server's ids (1, 2, 3… per room), and what arrives live on one
 * connection arrives in id order. Run against the real core for each kind it serves: group and
 * direct (stored in the database), live (held in memory), and a 1:1 text chat (held in memory, its
 * access from the room's two seats: a drop holds the room, a reconnection takes it back).
 */

let database: Database;
let people: TokenUser[] = [];
const LIVE_KINDS = new Set<string>();

beforeAll(async () => {
  database = await openTestDatabase();
  const rows = await database.db
    .insert(users)
    .values(
      ['a', 'b', 'c'].map((p) => ({ username: `once-${p}-${Math.random().toString(36).slice(2, 8)}`, age: 30, gender: 'male' as const })),
    )
    .returning({ id: users.id, username: users.username });
  people = rows.map((r) => ({ userId: r.id, username: r.username }) as TokenUser);
  const [low, high] = [people[0]!.userId, people[1]!.userId].sort() as [string, string];
  await database.db.insert(friendships).values({ userLow: low, userHigh: high });
}, 60_000);
afterAll(async () => {
  await database?.close();
});

/** The socket.io rooms as the core uses them: who follows which room, and each socket's inbox. */
function fakeFanout(inboxOf: (socketId: string) => RoomMessage[] | undefined): StoredRoomFanout {
  const watching = new Map<string, Set<string>>();
  const deliver = (roomId: string, event: string, payload: unknown, except?: string) => {
    if (event !== wire.message) return;
    for (const s of watching.get(roomId) ?? []) if (s !== except) inboxOf(s)?.push(payload as RoomMessage);
  };
  return {
    watch: (socketId, roomId) => void (watching.get(roomId) ?? watching.set(roomId, new Set()).get(roomId)!).add(socketId),
    unwatch: (socketId, roomId) => void watching.get(roomId)?.delete(socketId),
    toRoom: (roomId, event, payload, exceptSocket) => deliver(roomId, event, payload, exceptSocket),
    toUsers: () => undefined,
    unwatchUser: () => undefined,
    unwatchAll: (roomId) => void watching.delete(roomId),
  };
}

/** One member's page, as the PWA's room connection behaves: the protocol, not its UI. */
type Page = {
  user: TokenUser;
  socketId: string | null;
  inbox: RoomMessage[];
  /** What this page shows, by id. */
  seen: Map<number, RoomMessage>;
  /** Ours, not yet acknowledged: sent again under the same client id after every (re)join. */
  pending: Array<{ clientId: string; text: string }>;
  /** Ids in the order they arrived live on the current connection. */
  liveOrder: number[][];
  /** Set by the first join: every message up to it is held. */
  caught?: number;
};

type Command =
  | { op: 'post'; who: number; loseAck: boolean }
  | { op: 'deliver'; who: number }
  | { op: 'drop'; who: number }
  | { op: 'reconnect'; who: number };

const command = (members: number) =>
  fc.oneof(
    { arbitrary: fc.record({ op: fc.constant('post' as const), who: fc.nat(members - 1), loseAck: fc.boolean() }), weight: 4 },
    { arbitrary: fc.record({ op: fc.constant('deliver' as const), who: fc.nat(members - 1) }), weight: 3 },
    { arbitrary: fc.record({ op: fc.constant('drop' as const), who: fc.nat(members - 1) }), weight: 1 },
    { arbitrary: fc.record({ op: fc.constant('reconnect' as const), who: fc.nat(members - 1) }), weight: 2 },
  );

async function newRoom(kind: RoomKind, members: TokenUser[]): Promise<string> {
  if (kind === 'textChat') return crypto.randomUUID();
  if (kind === 'live') {
    const roomId = crypto.randomUUID();
    LIVE_KINDS.add(roomId);
    return roomId;
  }
  const directKey = kind === 'direct' ? [members[0]!.userId, members[1]!.userId].sort().join(':') : null;
  // A direct room per pair: a fresh pair key each run would need fresh people, so the old room goes.
  if (directKey) await database.db.delete(storedRooms).where(eq(storedRooms.directKey, directKey));
  const [room] = await database.db
    .insert(storedRooms)
    .values({ kind: kind as 'group' | 'direct', name: kind === 'group' ? 'Once' : '', ownerId: members[0]!.userId, directKey })
    .returning({ id: storedRooms.id });
  await database.db.insert(roomMembers).values(
    members.map((m, i) => ({
      roomId: room!.id,
      userId: m.userId,
      role: kind === 'group' && i === 0 ? ('owner' as const) : ('member' as const),
    })),
  );
  return room!.id;
}

async function run(kind: RoomKind, commands: Command[]) {
  const members = kind === 'direct' || kind === 'textChat' ? people.slice(0, 2) : people;
  const pages: Page[] = members.map((user) => ({ user, socketId: null, inbox: [], seen: new Map(), pending: [], liveOrder: [] }));
  const bySocket = new Map<string, Page>();
  const held = memoryLog({ capacity: 10_000 });
  const live: RoomPolicy = {
    kind: 'live',
    holds: (roomId) => LIVE_KINDS.has(roomId),
    access: (roomId) => ({
      room: {
        kind: 'live',
        name: 'stream',
        closed: false,
        readOnly: false,
        slowModeS: 0,
        ownerId: members[0]!.userId,
        lastMessageId: held.lastId(roomId),
        visibility: 'public',
        capacity: 0,
        friends: false,
        directMemberIds: null,
        blocked: false,
      },
      member: { role: 'member', mutedUntil: null, lastReadId: 0 },
      banned: false,
    }),
    log: held,
    people: async () => [],
    refusals: { notMember: { message: 'no', code: 'not_watching' }, banned: { message: 'no', code: 'banned' } },
    gone: { message: 'gone', code: 'gone' },
  };
  // The 1:1 chat's room life, as the matchmaker opens it; its seats move with each resume.
  const rooms = new Rooms({
    outbox: { memberLeft: () => undefined, memberAway: () => undefined, memberBack: () => undefined },
    resumeGraceMs: 3_600_000,
  });
  const pair = pairChats({ rooms, core: () => core, sign: (m) => `${m.id}`, allowMessage: () => true });
  const core: RoomCore = new RoomCore({
    db: database.db,
    fanout: fakeFanout((socketId) => bySocket.get(socketId)?.inbox),
    allowPost: () => true,
    policies: [live, ...pair.policies],
  });
  const roomId = await newRoom(kind, members);
  const keyOf = (p: Page) => `${p.user.userId}:tab`;
  /** A 1:1 page's new socket takes its held seat back (or, the first time, takes its seat as the room opens). */
  const seat = (p: Page) => {
    if (kind !== 'textChat') return;
    rooms.connect(p.socketId!, p.user, undefined, keyOf(p));
    if (p.caught === undefined) return;
    const back = rooms.resume(p.socketId!, keyOf(p), roomId);
    if (!back.ok) throw new Error('the held chat was not taken back');
  };
  let sockets = 0;
  let clientSeq = 0;
  const sent: string[] = [];

  const show = (p: Page, messages: RoomMessage[]) => {
    for (const m of messages) {
      p.seen.set(m.id, m);
      p.pending = p.pending.filter((x) => x.clientId !== m.clientId || m.senderId !== p.user.userId);
    }
    if (p.caught !== undefined) advance(p);
  };
  /**
   * As the PWA does (storedMessages.ts caughtUpTo): once joined, the page holds everything up to
   * `caught`, moved on through the ids that follow without a gap — not simply the highest id held.
   */
  const advance = (p: Page, through?: number) => {
    p.caught = Math.max(p.caught ?? 0, through ?? 0);
    while (p.seen.has(p.caught + 1)) p.caught++;
  };
  const postOne = async (p: Page, x: { clientId: string; text: string }, loseAck = false) => {
    const answer = await core.post(p.user, { roomId, clientId: x.clientId, text: x.text });
    if (answer.ok && !loseAck) show(p, [answer.message]);
  };
  const deliver = (p: Page) => {
    const arrived = p.inbox.splice(0);
    p.liveOrder.at(-1)?.push(...arrived.map((m) => m.id));
    show(p, arrived);
  };
  const drop = (p: Page) => {
    if (!p.socketId) return;
    // What was on its way to the page is lost with the connection.
    p.inbox = [];
    core.unwatch(p.socketId, roomId, p.user.userId);
    core.disconnect(p.socketId, p.user.userId);
    if (kind === 'textChat' && !rooms.disconnect(p.socketId, keyOf(p))) throw new Error('the chat was not held');
    bySocket.delete(p.socketId);
    p.socketId = null;
  };
  const connect = async (p: Page) => {
    if (p.socketId) return;
    p.socketId = `s${sockets++}`;
    bySocket.set(p.socketId, p);
    p.liveOrder.push([]);
    seat(p);
    const after = p.caught;
    const answer = await core.join(p.socketId, p.user, after === undefined ? { roomId } : { roomId, after });
    if (!answer.ok) throw new Error(answer.message);
    show(p, answer.messages);
    advance(p, answer.messages.at(-1)?.id);
    let more = answer.hasNewer;
    while (more) {
      const page = await core.page(roomId, p.user.userId, { after: p.caught!, limit: PAGE_MAX });
      show(p, page.messages);
      advance(p, page.messages.at(-1)?.id);
      more = page.hasMore;
    }
    for (const x of [...p.pending]) await postOne(p, x);
  };

  if (kind === 'textChat') {
    for (const p of pages) {
      p.socketId = `s${sockets++}`;
      seat(p);
    }
    rooms.open(
      roomId,
      'textChat',
      pages.map((p) => p.socketId!),
    );
    for (const p of pages) {
      bySocket.set(p.socketId!, p);
      p.liveOrder.push([]);
      const answer = await core.join(p.socketId!, p.user, { roomId });
      if (!answer.ok) throw new Error(answer.message);
      show(p, answer.messages);
      advance(p, answer.messages.at(-1)?.id);
    }
  } else for (const p of pages) await connect(p);
  for (const c of commands) {
    const p = pages[c.who]!;
    if (c.op === 'post') {
      const x = { clientId: `k${clientSeq++}`, text: `${kind} ${c.who} #${clientSeq}` };
      sent.push(x.clientId);
      p.pending.push(x);
      if (p.socketId) await postOne(p, x, c.loseAck);
    } else if (c.op === 'deliver') deliver(p);
    else if (c.op === 'drop') drop(p);
    else await connect(p);
  }
  // In the end everyone is back and has read what reached them.
  for (const p of pages) {
    deliver(p);
    if (!p.socketId) await connect(p);
  }
  for (const p of pages) deliver(p);
  for (const p of pages) {
    drop(p);
    await connect(p);
  }

  const log = (await core.logOf(roomId).after(roomId, 0, 10_000)).messages;
  expect(log.map((m) => m.id)).toEqual(log.map((_, i) => i + 1));
  // Every message sent is stored once, none lost, however often it went.
  expect(log.map((m) => m.clientId).sort()).toEqual([...sent].sort());
  for (const p of pages) {
    expect([...p.seen.keys()].sort((a, b) => a - b)).toEqual(log.map((m) => m.id));
    for (const m of log) expect(p.seen.get(m.id)?.text).toBe(m.text);
    // A 1:1 chat's messages carry their receipts wherever they arrived from.
    if (kind === 'textChat') for (const m of log) expect(p.seen.get(m.id)?.receipt).toBe(`${m.id}`);
    expect(p.pending).toEqual([]);
    for (const arrived of p.liveOrder) expect(arrived).toEqual([...arrived].sort((a, b) => a - b));
  }
  core.close();
  rooms.close();
}

describe('every message exactly once, in server order, whatever the connections do', () => {
  for (const kind of ['group', 'direct', 'live', 'textChat'] as const)
    it(`in a ${kind} room`, async () => {
      const members = kind === 'direct' || kind === 'textChat' ? 2 : 3;
      await fc.assert(
        fc.asyncProperty(fc.array(command(members), { minLength: 1, maxLength: 40 }), (commands) => run(kind, commands)),
        { numRuns: kind === 'live' || kind === 'textChat' ? 100 : 25 },
      );
    }, 120_000);
});
