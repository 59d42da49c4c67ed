import type { PartnerLeft } from '@parley/contract/matchmaking';
import type { RoomKind } from '@parley/contract/rooms';

/** A member of a room: one socket (a page) of a user. */
export type RoomMember = { socketId: string; userId: string };

export type LeaveReason = PartnerLeft['reason'];

/** What rooms tell the areas that follow them (video pairing, redial), instead of those watching socket traffic. */
export type RoomEvents = {
  /** A room opened with its members (the matchmaker paired them). */
  matched: { roomId: string; kind: RoomKind; members: RoomMember[] };
  /**
   * `member` is out of the room: it left (`by` is its own socket), or its room of two ended because
   * `by` left. `held`: its page's connection is down and its room was held for it.
   */
  left: { roomId: string; kind: RoomKind; member: RoomMember; by: string; reason: LeaveReason; held: boolean };
  /** `member`'s connection dropped: the room is held for its page (`key`) to take back. */
  held: { roomId: string; kind: RoomKind; member: RoomMember; key: string };
  /**
   * The room is over, once, whoever left: its members' users, and those of them who said something
   * that was relayed (a conversation, not a glance: what counts towards a user's standing).
   */
  ended: { roomId: string; kind: RoomKind; userIds: string[]; spoke: string[]; openedAt: number };
  /** A held member's page took the room back on a new socket (`member`), in place of `previousSocketId`. */
  resumed: { roomId: string; kind: RoomKind; member: RoomMember; previousSocketId: string; members: RoomMember[] };
  /**
   * Scaled out: this process holds the room's messages from now on: the process that held them died
   * (they died with it), or `handedOver` them as it drained (they came with the room).
   */
  holding: { roomId: string; kind: RoomKind; handedOver?: boolean };
};

export type RoomEventListener<K extends keyof RoomEvents> = (event: RoomEvents[K]) => void;

/** Subscribing to room events; what server.ts hands to the areas that follow rooms. */
export type RoomEventSource = { on<K extends keyof RoomEvents>(name: K, listener: RoomEventListener<K>): void };

/** A small typed emitter: listeners run synchronously, in the order they subscribed. */
export function typedEvents<E extends object>() {
  const listeners: { [K in keyof E]?: Array<(event: E[K]) => void> } = {};
  return {
    on<K extends keyof E>(name: K, listener: (event: E[K]) => void) {
      (listeners[name] ??= []).push(listener);
    },
    emit<K extends keyof E>(name: K, event: E[K]) {
      for (const l of listeners[name] ?? []) l(event);
    },
  };
}

export const roomEvents = () => typedEvents<RoomEvents>();

/** What stored rooms (group and direct) tell the areas that follow them (notifications, push). */
export type StoredRoomEvents = {
  /** A message was stored in a direct room: `recipientId` is the friend it is for. */
  directMessage: { recipientId: string; roomId: string; senderId: string; senderName: string; messageId: number; preview: string };
  /** A group message named a member with `@username` (resolved against the room's members; never the sender). */
  mentioned: {
    mentionedUserId: string;
    roomId: string;
    roomName: string;
    messageId: number;
    /** The thread the message is a reply in, if it is one. */
    threadId?: number;
    senderId: string;
    senderName: string;
    preview: string;
  };
  /**
   * A group message got a reply or a reaction from someone other than its author (`by`). Sent
   * whenever that happens; followers that reward it count each message once.
   */
  answered: { roomId: string; messageId: number; authorId: string; by: string };
  /** A reply in a thread of a group room, for one of the thread's followers (never its sender, nor anyone either side blocked). */
  threadReply: {
    followerId: string;
    roomId: string;
    roomName: string;
    rootId: number;
    messageId: number;
    senderId: string;
    senderName: string;
    preview: string;
  };
};

export const storedRoomEvents = () => typedEvents<StoredRoomEvents>();
export type StoredRoomEventSource = Pick<ReturnType<typeof storedRoomEvents>, 'on'>;
