import type { TokenUser } from '@parley/contract/auth';
import { chatEvents, type StartSearch } from '@parley/contract/matchmaking';
import { rtcEvents } from '@parley/contract/videoChat';
import { createInProcessMatchmaker } from '../matchmaking/matchmaker.ts';
import { Searches, type SearchOutbox } from '../matchmaking/searches.ts';
import type { MatchProfile } from '../matchmaking/matchProfile.ts';
import { Rooms, type RoomOutbox } from '../rooms/rooms.ts';
import { VideoCalls, type CallOutbox } from '../videoChat/calls.ts';

export type Sent = Array<[string, string, unknown]>;

export type ChatRigOptions = {
  blocksOf?: (userId: string) => Promise<ReadonlySet<string>>;
  resumeGraceMs?: number;
  onError?: (err: unknown) => void;
  statusEveryMs?: number;
  profileOf?: (userId: string) => Promise<MatchProfile>;
  inReview?: (userId: string) => Promise<boolean>;
  saveDefaultLanguages?: (userId: string, languages: string[]) => Promise<void>;
};

/**
 * Rooms, searches and video calls wired as server.ts wires them, over outboxes that record what
 * each socket was sent (under the socket.io event it would be). Calls go in the order the socket
 * handlers make them: a disconnect reaches the rooms before the searches.
 */
export function chatRig(opts: ChatRigOptions = {}) {
  const sent: Sent = [];
  const record = (event: string) => (id: string, payload: unknown) => void sent.push([id, event, payload]);
  const roomOutbox: RoomOutbox = {
    memberLeft: record(chatEvents.partnerLeft),
    memberAway: record(chatEvents.partnerAway),
    memberBack: record(chatEvents.partnerBack),
  };
  const searchOutbox: SearchOutbox = {
    searching: record(chatEvents.searching),
    matched: record(chatEvents.matched),
    partnerAway: record(chatEvents.partnerAway),
    error: record(chatEvents.error),
    status: record(chatEvents.searchStatus),
  };
  const callOutbox: CallOutbox = { redial: record(rtcEvents.redial), error: record(chatEvents.error) };

  const rooms: Rooms = new Rooms({
    outbox: roomOutbox,
    resumeGraceMs: opts.resumeGraceMs,
    busy: (socketId) => searches.isSearching(socketId),
    callAttempt: (roomId) => calls.attemptOf(roomId),
  });
  const searches: Searches = new Searches({
    rooms,
    outbox: searchOutbox,
    createMatchmaker: (onMatch) => createInProcessMatchmaker(onMatch),
    blocksOf: opts.blocksOf ?? (async () => new Set<string>()),
    recordTopics: () => undefined,
    ...(opts.profileOf ? { profileOf: opts.profileOf } : {}),
    ...(opts.inReview ? { inReview: opts.inReview } : {}),
    ...(opts.saveDefaultLanguages ? { saveDefaultLanguages: opts.saveDefaultLanguages } : {}),
    callAttempt: (roomId) => calls.attemptOf(roomId),
    statusEveryMs: opts.statusEveryMs,
    onError:
      opts.onError ??
      ((err) => {
        throw err;
      }),
  });
  const calls: VideoCalls = new VideoCalls(rooms, callOutbox);
  const s = searches;

  return {
    sent,
    rooms,
    connect(socketId: string, user: TokenUser, sid?: string, detectedCountry?: string | null, browserLanguages?: string[]) {
      rooms.connect(socketId, user, sid);
      s.connect(socketId, user, undefined, detectedCountry ?? null, browserLanguages);
    },
    start: (socketId: string, search: StartSearch, resumeKey?: string) => s.start(socketId, search, resumeKey),
    next: (socketId: string, searchId?: string) => s.next(socketId, searchId),
    stop: (socketId: string, resumeKey?: string) => s.stop(socketId, resumeKey),
    async disconnect(socketId: string, resumeKey?: string) {
      rooms.disconnect(socketId, resumeKey);
      await s.disconnect(socketId);
    },
    resume: (socketId: string, resumeKey: string, roomId: string) => rooms.resume(socketId, resumeKey, roomId),
    /** Whether the socket is `userId`'s seat in the open room (its messages go there). */
    seated: (roomId: string, userId: string, socketId: string) => rooms.isMember(roomId, userId, socketId),
    redial: calls.redial.bind(calls),
    endHeld: rooms.endHeld.bind(rooms),
    /** Connections, held ones included. */
    get size() {
      return rooms.size;
    },
    async close() {
      rooms.close();
      await s.close();
    },
  };
}
export type ChatRig = ReturnType<typeof chatRig>;

export const testUser = (userId: string): TokenUser => ({
  userId,
  username: userId,
  avatar: '',
  gender: 'male',
  age: 30,
  isVerified: true,
  premiumUser: 'free tier',
});

/** A text chat search with automatic reconnect and no filters. */
export const anySearch: StartSearch = {
  roomType: 'textChat',
  automaticReconnect: true,
  filters: { topics: [], gender: 'All', ageRange: { minAge: 18, maxAge: 99 } },
};

/** Two users a and b in a room (a text chat unless `search` says otherwise); a short grace so that expiry can be waited for. */
export async function chatting(over: { resumeGraceMs?: number; search?: StartSearch } = {}) {
  const sessions = chatRig({ resumeGraceMs: over.resumeGraceMs ?? 100 });
  const { sent } = sessions;
  const s = over.search ?? { ...anySearch, automaticReconnect: false };
  sessions.connect('a', testUser('ua'));
  sessions.connect('b', testUser('ub'));
  await sessions.start('a', s);
  await sessions.start('b', s);
  const roomId = (sent.find(([id, ev]) => id === 'a' && ev === chatEvents.matched)![2] as { roomId: string }).roomId;
  const to = (socketId: string) => sent.filter(([id]) => id === socketId).map(([, ev, p]) => [ev, p]);
  return { sessions, sent, roomId, to };
}
