import type { RoomKind, RoomMessage } from '@parley/contract/rooms';
import { DomainError } from '../platform/errors.ts';
import type { Relayed } from '../platform/receipts.ts';
import type { RoomAccess, RoomCore, RoomPolicy } from './core.ts';
import { memoryLog } from './memoryLog.ts';
import type { Rooms } from './rooms.ts';

/** The 1:1 kinds: two strangers the matchmaker paired, in a room `Rooms` opens and ends. */
export const PAIR_KINDS = ['textChat', 'videoChat'] as const satisfies readonly RoomKind[];
export const isPairKind = (kind: RoomKind | undefined): kind is (typeof PAIR_KINDS)[number] => kind === 'textChat' || kind === 'videoChat';

/** The messages of one 1:1 chat held at most (edits, deletions and reactions reach these; catch-up after a drop needs far fewer). */
export const PAIR_LOG_CAPACITY = 500;
/** How long a chat that ended is still known here: a message that crossed its end is told the chat is over, in the chat's words. */
const ENDED_KNOWN_MS = 60_000;

export const PAIR_REFUSALS = {
  notInChat: 'You are not in a chat right now.',
  tooFast: 'You are sending messages too fast. Wait a moment and try again.',
  linkSpam: 'You have sent this link to many people. Wait a while before sending it to someone new.',
  ended: 'This chat has ended.',
  restarting: 'The server is restarting. Try again.',
} as const;

/** A 1:1 chat's messages, read positions and who allows pictures, as one process hands them to another (rooms/handOver.ts). */
export type PairSnapshot = { lastId: number; messages: RoomMessage[]; reads: Record<string, number>; pictures?: string[] | undefined };

export type PairChatsDeps = {
  rooms: Rooms;
  /** The core that runs the chats' messages (made after the rooms): a room that ended is forgotten there too. */
  core(): RoomCore;
  /** Signs each message as kept or edited (platform/receipts.ts): a report filed after the chat ended shows it. */
  sign(message: Relayed): string;
  /** Per person over all their chats (all tabs together); false past the allowance. */
  allowMessage(userId: string): boolean;
  /** False when the message repeats a link this person already sent to many partners (rooms/linkSpam.ts). */
  allowLinks?(userId: string, roomId: string, text: string): boolean;
  now?: () => number;
};

/**
 * The 1:1 chats' messages on the room core: access is being one of the room's two members as
 * `Rooms` knows them (a held member stays one through the grace), messages are held in memory for
 * as long as the room lasts and signed as they are kept, and each member's read position is what
 * "seen" shows. `Rooms` keeps the room's life; when the room ends, its messages are forgotten.
 */
export function pairChats(deps: PairChatsDeps) {
  const { rooms } = deps;
  const now = deps.now ?? Date.now;
  const log = memoryLog({
    capacity: PAIR_LOG_CAPACITY,
    now,
    seal: (m: RoomMessage) => {
      const kind = rooms.kindOf(m.roomId);
      return (
        kind &&
        deps.sign({
          roomId: m.roomId,
          kind,
          senderId: m.senderId,
          id: String(m.id),
          sentAt: m.sentAt,
          text: m.text,
          // A picture's receipt names it: a report can then keep that picture, and no other.
          ...(m.attachment && { attachmentId: m.attachment.id }),
        })
      );
    },
  });
  const reads = new Map<string, Map<string, number>>();
  /** Per chat, the members who allow pictures in it now; a new chat starts with none. */
  const pictures = new Map<string, Set<string>>();
  /**
   * Chats that may have stored pictures: someone allowed them (an upload needs both), or the chat
   * came from another process. Only these have pictures to let go when they end: most chats never
   * send one, and a statement per ended chat was most of the database's work in a wave of skips.
   */
  const mayHavePictures = new Set<string>();
  /**
   * Chats being handed to another process: their log is copied as it is now, so nothing may change
   * it until the other process holds them. What tries is refused as retryable (the page resends,
   * with the same client id, to where the chat is held then).
   */
  const frozen = new Set<string>();
  const unlessFrozen = (roomId: string) => {
    if (frozen.has(roomId)) throw new DomainError('unavailable', PAIR_REFUSALS.restarting, 'unavailable', 1);
  };
  // Each check runs before the log's own first await: a change either is in the copy or is refused.
  const heldLog: typeof log = {
    ...log,
    insertNow: (m) => (unlessFrozen(m.roomId), log.insertNow(m)),
    insert: async (m) => (unlessFrozen(m.roomId), log.insert(m)),
    edit: async (roomId, ...rest) => (unlessFrozen(roomId), log.edit(roomId, ...rest)),
    remove: async (roomId, ...rest) => (unlessFrozen(roomId), log.remove(roomId, ...rest)),
    react: async (roomId, ...rest) => (unlessFrozen(roomId), log.react(roomId, ...rest)),
  };
  /** Chats that ended lately, oldest first (ends come in time order), with their kind. */
  const ended = new Map<string, { kind: RoomKind; until: number }>();

  const sweep = () => {
    const t = now();
    for (const [roomId, e] of ended) {
      if (e.until > t) break;
      ended.delete(roomId);
    }
  };

  /** This process holds the room's messages (scaled out, the other member's process forwards here). */
  const heldHere = (roomId: string) => rooms.holderOf(roomId) === rooms.home;

  const refusal = (code: string) => ({ message: PAIR_REFUSALS.notInChat, code });

  function policyFor(kind: (typeof PAIR_KINDS)[number]): RoomPolicy {
    return {
      kind,
      holds(roomId) {
        const k = rooms.kindOf(roomId);
        if (k !== undefined) return k === kind && heldHere(roomId);
        sweep();
        return ended.get(roomId)?.kind === kind;
      },
      access(roomId, userId, socketId): RoomAccess | null {
        if (rooms.kindOf(roomId) !== kind) return null;
        const member = rooms.isMember(roomId, userId, socketId);
        return {
          room: {
            kind,
            name: '',
            closed: false,
            readOnly: false,
            slowModeS: 0,
            ownerId: null,
            lastMessageId: log.lastId(roomId),
            visibility: 'invite',
            capacity: 2,
            friends: false,
            directMemberIds: null,
            blocked: false,
          },
          member: member ? { role: 'member', mutedUntil: null, lastReadId: reads.get(roomId)?.get(userId) ?? 0 } : null,
          banned: false,
        };
      },
      log: heldLog,
      insertNow: heldLog.insertNow,
      people: async (roomId, here) => {
        const present = new Set(here);
        return rooms.membersOf(roomId).map((m) => ({ ...m, role: 'member' as const, here: present.has(m.userId) }));
      },
      refusals: { notMember: refusal('not_in_room'), banned: refusal('not_in_room') },
      unknown: refusal('not_in_room'),
      gone: { message: PAIR_REFUSALS.ended, code: 'chat_ended' },
      admitPost(userId, roomId, text) {
        if (!deps.allowMessage(userId)) throw new DomainError('too_many', PAIR_REFUSALS.tooFast, 'rate_limited', 1);
        if (deps.allowLinks && !deps.allowLinks(userId, roomId, text))
          throw new DomainError('too_many', PAIR_REFUSALS.linkSpam, 'link_spam');
      },
      posted: (m) => rooms.spoke(m.roomId, m.senderId),
      pictures: {
        allowedBy: (roomId) => [...(pictures.get(roomId) ?? [])],
        agreed(roomId) {
          const allowing = pictures.get(roomId);
          const members = rooms.membersOf(roomId);
          return allowing !== undefined && members.length === 2 && members.every((m) => allowing.has(m.userId));
        },
        allow(roomId, userId, on) {
          unlessFrozen(roomId);
          let allowing = pictures.get(roomId);
          if (!allowing) pictures.set(roomId, (allowing = new Set()));
          if (on) {
            allowing.add(userId);
            mayHavePictures.add(roomId);
          } else allowing.delete(userId);
          return [...allowing];
        },
      },
      reads: {
        mark(roomId, userId, lastReadId) {
          // A position lost to a hand-over is sent again with the next one the page reads.
          if (frozen.has(roomId)) return null;
          const to = Math.min(lastReadId, log.lastId(roomId));
          let room = reads.get(roomId);
          if ((room?.get(userId) ?? 0) >= to) return null;
          if (!room) reads.set(roomId, (room = new Map()));
          room.set(userId, to);
          return to;
        },
        positions: (roomId) => Object.fromEntries(reads.get(roomId) ?? []),
      },
    };
  }

  // The room is over (its last member out of it): its messages, read positions and followers go with it.
  rooms.on('left', ({ roomId, kind }) => {
    // Each member's leaving is told; the room ends once.
    if (!isPairKind(kind) || rooms.kindOf(roomId) !== undefined || ended.has(roomId)) return;
    log.drop(roomId);
    reads.delete(roomId);
    pictures.delete(roomId);
    deps.core().ended(roomId);
    // Its pictures are fetched no more, and go after a short grace unless a report keeps them.
    // Should this fail, the hourly sweep takes them once a day old.
    if (mayHavePictures.delete(roomId))
      void deps
        .core()
        .chatPictures.ended(roomId)
        .catch(() => undefined);
    sweep();
    ended.delete(roomId);
    ended.set(roomId, { kind, until: now() + ENDED_KNOWN_MS });
  });

  // Scaled out, the process that held a chat's messages died and this one holds them now: they died
  // with it, and the pages saw ids up to some number. Ids continue above any it can have given: a
  // chat's ids grow far slower than the clock's milliseconds (a few posts a second at most).
  // A chat handed over by a process that drained came with its log (handOver.restore): its ids go on.
  rooms.on('holding', ({ roomId, kind, handedOver }) => {
    if (!isPairKind(kind)) return;
    // Handed over or taken over from a process that died: what was sent there is not known here.
    mayHavePictures.add(roomId);
    if (!handedOver) log.continueAfter(roomId, now());
  });

  return {
    policies: PAIR_KINDS.map(policyFor),
    /** The held messages (tests and diagnostics). */
    log,
    /** A chat's messages moving to another process (rooms/handOver.ts). */
    handOver: {
      /** Nothing changes the chat's log from now on until `thaw`; its copy as it is now. */
      freeze(roomId: string): PairSnapshot {
        frozen.add(roomId);
        return {
          lastId: log.lastId(roomId),
          messages: log.all(roomId),
          reads: Object.fromEntries(reads.get(roomId) ?? []),
          pictures: [...(pictures.get(roomId) ?? [])],
        };
      },
      /** The other process holds the chat now (`handed`: its log here is forgotten), or the hand-over did not happen. */
      thaw(roomId: string, handed: boolean) {
        frozen.delete(roomId);
        if (!handed) return;
        log.drop(roomId);
        reads.delete(roomId);
        pictures.delete(roomId);
      },
      /** The chat's log as the process that handed it over held it. */
      restore(roomId: string, snapshot: PairSnapshot) {
        log.restore(roomId, snapshot);
        reads.set(roomId, new Map(Object.entries(snapshot.reads)));
        if (snapshot.pictures && snapshot.pictures.length > 0) pictures.set(roomId, new Set(snapshot.pictures));
      },
    },
  };
}
