import { z } from 'zod';
import { text } from './text.ts';
import { isMessageText, messageTextSchema } from './matchmaking.ts';
import type { NameStyle } from './billing.ts';
import { attachmentIdSchema, messageAttachmentCheck, type MessageAttachment } from './attachments.ts';
import { gifIdSchema, MEDIA_ERR, messageMediaCheck, stickerIdSchema, type MessageMedia } from './media.ts';

/**
 * Every conversation is a room of one kind with a list of members. `textChat` and `videoChat` are
 * rooms of two strangers the matchmaker opens; `group`, `live` and `direct` rooms follow.
 */
export const ROOM_KINDS = ['textChat', 'videoChat', 'group', 'live', 'direct'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];

/**
 * Messages of every room kind: every message is kept in PostgreSQL under an id the
 * server assigns, increasing per room. A client pages with `before`/`after` and, after a drop,
 * joins again with the last id it saw: what it missed comes in the join's answer, what is posted
 * from then on arrives live, and ids make anything seen twice recognisable.
 */

/** The most messages one page holds. */
export const PAGE_MAX = 100;
export const PAGE_DEFAULT = 50;

export const roomIdSchema = z.uuid({ error: 'Unknown room' });
/** A message id as it crosses a wire: a positive integer (ids start at 1 in every room). */
export const messageIdSchema = z.coerce.number({ error: 'Message id must be a number' }).int().positive().max(Number.MAX_SAFE_INTEGER);

/** GET /api/rooms/:roomId/messages?before=&after=&around=&limit= (`around`: that message with those around it). */
export const pageQuerySchema = z
  .object({
    before: messageIdSchema.optional(),
    after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    around: messageIdSchema.optional(),
    /** A thread's replies (its root's id) rather than the room's own messages. */
    thread: messageIdSchema.optional(),
    limit: z.coerce.number().int().min(1).max(PAGE_MAX, `At most ${PAGE_MAX} messages a page`).default(PAGE_DEFAULT),
  })
  .refine(
    (q) => [q.before, q.after, q.around].filter((x) => x !== undefined).length <= 1,
    'Ask for messages before, after or around an id, only one of them',
  );
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** Standard emoji only: one grapheme of emoji, at most 16 UTF-16 units (flags, skin tones, families). */
export const reactionSchema = text()
  .min(1)
  .max(16)
  .refine((e) => /^\p{Extended_Pictographic}|^\p{Regional_Indicator}/u.test(e) && !/\s/.test(e), 'Reactions are emoji');

export type Reaction = { emoji: string; userIds: string[] };

export type RoomMessage = {
  roomId: string;
  id: number;
  senderId: string;
  senderName: string;
  /** The sender's premium badge and name colour, as they are when the message is read. */
  senderStyle?: NameStyle;
  text: string;
  sentAt: number;
  editedAt: number | null;
  /** Removed by its author or a moderator: the text is gone, the place stays. */
  deleted: boolean;
  replyTo: { id: number; senderName: string; text: string } | null;
  mentions: string[];
  reactions: Reaction[];
  /** The client's id for what it sent, echoed so the sender's page recognises its own message. */
  clientId: string | null;
  /** Its `:shortcodes:` that the server checked its sender owned, shown as images. */
  emoji?: string[];
  /** A gift in a stream's chat: the gold it stands for (the text says it in words). */
  gift?: number;
  /**
   * A 1:1 chat's message: the server's MAC of it (platform/receipts.ts, id as a decimal string). The
   * chat is held only while it lasts, and a report is filed after it ended: this is its evidence.
   */
  receipt?: string;
  /** A picture or a voice message (stored kinds only); gone with the message when it is deleted. */
  attachment?: MessageAttachment;
  /** A sticker or a GIF (stored kinds only), as the server checked it. */
  media?: MessageMedia;
  /** A reply in a thread (group rooms): the id of the message the thread hangs from. Shown in the thread, not the room. */
  threadId?: number;
  /** A message with a thread: how many replies it has (deleted ones left out) and when the last came (epoch ms). */
  thread?: ThreadSummary;
};

export type ThreadSummary = { replies: number; lastReplyAt: number };

/** `hasMore`: older messages exist (newer ones, for a page `after`); `hasNewer`: newer ones exist past a page `around`. */
export type MessagePage = { messages: RoomMessage[]; hasMore: boolean; hasNewer?: boolean };

/** Client → server `room:join` {roomId, after?}: watch a room live and catch up from `after`. */
export const joinRoomSchema = z.object({
  roomId: roomIdSchema,
  /** The last id this page saw; absent on a first visit (the answer brings the latest page). */
  after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type JoinRoom = z.infer<typeof joinRoomSchema>;

export type RoomMemberView = {
  userId: string;
  username: string;
  avatar: string;
  role: 'owner' | 'moderator' | 'member';
  /** At least one page of theirs has the room open now. */
  here: boolean;
};

export type JoinAnswer =
  | {
      ok: true;
      /** What came after `after` (or the latest messages, from a little before the first unread), oldest first. */
      messages: RoomMessage[];
      /** Messages older than the first one given exist (page with `before`). */
      hasOlder: boolean;
      /** Messages newer than the last one given exist (a long absence: page with `after`). */
      hasNewer: boolean;
      /** The last id this user had read when they arrived: the first unread is the one after it. */
      lastReadId: number;
      /** The other members' read positions (receipts), by user id. */
      readBy: Record<string, number>;
      people: RoomMemberView[];
      /** Until when (epoch ms) this user is muted here, or null: the page says so before they type. */
      mutedUntil: number | null;
      /** Catching up (`after`): the messages older than `after` whose threads moved on since, as they are now. */
      threads?: RoomMessage[];
      /** Group rooms: this user's unread replies per thread they follow (root id → count), those with any. */
      threadUnread?: Record<string, number>;
      /** 1:1 chats: who of the two allow pictures in it now (user ids). */
      picturesAllowedBy?: string[];
    }
  | { ok: false; message: string; code: string };

export const leaveRoomViewSchema = z.object({ roomId: roomIdSchema });

export const postMessageSchema = z
  .object({
    roomId: roomIdSchema,
    clientId: text().min(1).max(64),
    /** May be empty only when the message carries an attachment (a picture needs no caption). */
    text: z.union([z.literal(''), messageTextSchema]),
    replyTo: z.number().int().positive().optional(),
    /** A reply in the thread of this message (group rooms): the thread's root, a message of the room itself. */
    threadId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
    /** An upload of the sender's to this room (POST /api/rooms/:roomId/attachments), not sent before. */
    attachment: attachmentIdSchema.optional(),
    /** A sticker (`pack/sticker`) the sender may use: a free pack's, or one of a pack they bought. */
    sticker: stickerIdSchema.optional(),
    /** A GIF of the server's library, by id. */
    gif: gifIdSchema.optional(),
  })
  .refine((p) => p.text !== '' || p.attachment !== undefined || p.sticker !== undefined || p.gif !== undefined, {
    message: 'Message cannot be empty',
    path: ['text'],
  })
  .refine((p) => [p.attachment, p.sticker, p.gif].filter((x) => x !== undefined).length <= 1, {
    message: MEDIA_ERR.oneThing,
    path: ['sticker'],
  });
export type PostMessage = z.infer<typeof postMessageSchema>;

/** The pattern z.uuid() checks (roomIdSchema), from zod itself. */
const UUID = z.regexes.uuid();
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The usual post (a room, a client id and some words, nothing else) as postMessageSchema parses
 * it, checked without zod's machinery: every message of every room goes through here, and zod's
 * parse allocated about 4 kB a post. Undefined for anything else, which the schema then parses
 * (and words the refusal of): the property test holds this to accept only what the schema accepts,
 * with the same result.
 */
export function quickPostMessage(p: unknown): PostMessage | undefined {
  if (typeof p !== 'object' || p === null || Object.getPrototypeOf(p) !== Object.prototype) return undefined;
  let keys = 0;
  for (const k in p) {
    if (!hasOwn.call(p, k) || (k !== 'roomId' && k !== 'clientId' && k !== 'text')) return undefined;
    keys++;
  }
  if (keys !== 3) return undefined;
  const { roomId, clientId, text: words } = p as Record<string, unknown>;
  if (typeof roomId !== 'string' || !UUID.test(roomId)) return undefined;
  if (typeof clientId !== 'string' || clientId.length < 1 || clientId.length > 64 || clientId.includes('\u0000')) return undefined;
  if (typeof words !== 'string' || !isMessageText(words)) return undefined;
  return { roomId, clientId, text: words };
}
export type PostAnswer = { ok: true; message: RoomMessage } | { ok: false; message: string; code: string; retryAfterS?: number };

export const editMessageSchema = z.object({ roomId: roomIdSchema, id: z.number().int().positive(), text: messageTextSchema });
export const deleteMessageSchema = z.object({ roomId: roomIdSchema, id: z.number().int().positive() });
export const reactSchema = z.object({ roomId: roomIdSchema, id: z.number().int().positive(), emoji: reactionSchema, on: z.boolean() });
export const roomTypingSchema = z.object({ roomId: roomIdSchema, typing: z.boolean() });
export const readSchema = z.object({ roomId: roomIdSchema, lastReadId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });
export type ActionAnswer = { ok: true } | { ok: false; message: string; code: string };

/**
 * Threads of a group room: the replies hanging from one of its messages (the root), in the room's
 * id sequence but shown apart. `room:thread` {roomId, rootId, after?} opens one (its replies, or
 * those after `after` when catching up after a drop); its replies arrive live as `room:message`
 * with `threadId`, and the root as `room:changed` with its new summary.
 */
export const openThreadSchema = z.object({
  roomId: roomIdSchema,
  rootId: messageIdSchema,
  after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type OpenThread = z.infer<typeof openThreadSchema>;
export type ThreadAnswer =
  | {
      ok: true;
      root: RoomMessage;
      /** Its replies, oldest first: the latest page, or those after `after`. */
      messages: RoomMessage[];
      hasOlder: boolean;
      hasNewer: boolean;
      following: boolean;
      /** The last reply this user had read when they opened it. */
      lastReadId: number;
    }
  | { ok: false; message: string; code: string };
/** `room:threadRead` {roomId, rootId, lastReadId}: how far this user has read the thread. */
export const threadReadSchema = z.object({
  roomId: roomIdSchema,
  rootId: messageIdSchema,
  lastReadId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
/** `room:follow` {roomId, rootId, on}: be told of a thread's replies, or no longer. */
export const followThreadSchema = z.object({ roomId: roomIdSchema, rootId: messageIdSchema, on: z.boolean() });

export const SLOW_MODE_MAX_S = 3600;
export const MUTE_MAX_MIN = 7 * 24 * 60;

/**
 * Moderation of a room of any kind that has it (a group room, a stream's chat): the owner (a
 * group's owner, a stream's broadcaster) and moderators; appointing, transfer and closing are the
 * owner's. A kind allows some of them (a stream: no kick, read-only, transfer, close or invite).
 */
export const moderationSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('removeMessage'), messageId: z.number().int().positive() }),
  z.object({
    action: z.literal('mute'),
    userId: z.uuid(),
    minutes: z.number().int().min(1).max(MUTE_MAX_MIN, `At most ${MUTE_MAX_MIN} minutes`),
  }),
  z.object({ action: z.literal('unmute'), userId: z.uuid() }),
  z.object({ action: z.literal('kick'), userId: z.uuid(), reason: text().trim().max(200).default('') }),
  z.object({ action: z.literal('ban'), userId: z.uuid(), reason: text().trim().max(200).default('') }),
  z.object({ action: z.literal('unban'), userId: z.uuid() }),
  z.object({ action: z.literal('appoint'), userId: z.uuid() }),
  z.object({ action: z.literal('dismiss'), userId: z.uuid() }),
  z.object({ action: z.literal('slowMode'), seconds: z.number().int().min(0).max(SLOW_MODE_MAX_S) }),
  z.object({ action: z.literal('readOnly'), on: z.boolean() }),
  z.object({ action: z.literal('transfer'), userId: z.uuid() }),
  z.object({ action: z.literal('close') }),
  z.object({ action: z.literal('rotateInvite') }),
]);
export type Moderation = z.infer<typeof moderationSchema>;

/** `room:moderate` {roomId, action, …}: one moderation request, answered `{ok: true, invite?}` or a refusal. */
export const moderateSchema = z.intersection(z.object({ roomId: roomIdSchema }), moderationSchema);
export type ModerateRoom = { roomId: string } & Moderation;
export type ModerateAnswer = { ok: true; invite?: string } | { ok: false; message: string; code: string; retryAfterS?: number };

export type ModerationEntry = {
  id: string;
  actor: string;
  action: Moderation['action'];
  target: string | null;
  detail: string;
  at: number;
};

/** Server → client: a message changed (edited, deleted, reacted to): the whole message again. */
export type MessageChanged = RoomMessage;
export type RoomTyping = { roomId: string; userId: string; username: string; typing: boolean };
export type ReadReceipt = { roomId: string; userId: string; lastReadId: number };
export type PeopleChanged = { roomId: string; people: RoomMemberView[] };
/** Server → every page of a user: a moderator muted them in a room until `mutedUntil` (epoch ms), or lifted it (null). */
export type MutedInRoom = { roomId: string; mutedUntil: number | null };
/**
 * Server → every page of a room's owner and moderators: who is muted or banned there, or its slow
 * mode, changed (by any of them, from any page): a page showing those lists reads them again.
 */
export type RestrictionsChanged = { roomId: string };
/** Server → client: this user is out of the room (kicked, banned, the room closed) and why. */
export type RemovedFromRoom = { roomId: string; reason: 'kicked' | 'banned' | 'closed' | 'left'; by: string | null; note: string };
/**
 * Server → client, to every device of a user: a room of theirs has a new message (for unread
 * counts): its id, sender and time. A group room tells at most once per GROUP_ACTIVITY_MS, of its
 * latest message then.
 */
export type UnreadNotice = { roomId: string; kind: 'group' | 'direct'; lastMessageId: number; senderId: string; sentAt: number };
/** A busy group room would wake every member at each message: its activity is told at most this often. */
export const GROUP_ACTIVITY_MS = 1000;

export const roomEvents = {
  join: 'room:join',
  unwatch: 'room:unwatch',
  post: 'room:post',
  edit: 'room:edit',
  delete: 'room:delete',
  react: 'room:react',
  typing: 'room:typing',
  read: 'room:read',
  /** Server → client: a new message (RoomMessage). */
  message: 'room:message',
  /** Server → client: a message changed (MessageChanged). */
  changed: 'room:changed',
  people: 'room:people',
  removed: 'room:removed',
  /** Server → every socket of a member: a room of theirs moved on (UnreadNotice). */
  activity: 'room:activity',
  /** Server → client: the room's settings changed (slow mode, read-only, owner). */
  settings: 'room:settings',
  /** Server → every page of a user: muted in a room, or no longer (MutedInRoom). */
  muted: 'room:muted',
  /** Server → every page of the room's owner and moderators: its mutes, bans or slow mode changed (RestrictionsChanged). */
  restrictions: 'room:restrictions',
  /** Client → server ModerateRoom (owner and moderators); ack ModerateAnswer. */
  moderate: 'room:moderate',
  /** Client → server OpenThread; ack ThreadAnswer. */
  thread: 'room:thread',
  /** Client → server: read a thread up to an id. */
  threadRead: 'room:threadRead',
  /** Client → server: follow a thread or stop. */
  follow: 'room:follow',
  /** Server → every page of a follower: a thread they follow has a new reply (ThreadNotice). */
  threadActivity: 'room:threadActivity',
  /** Client → server AllowPictures (a 1:1 chat's member allows pictures in it, or stops); ack { ok }. */
  pictures: 'room:pictures',
  /** Server → the chat's pages: who allows pictures in it now (PicturesAllowed). */
  picturesAllowed: 'room:picturesAllowed',
} as const;

/**
 * Pictures in a 1:1 chat with a stranger go only while both members allow them there: each says
 * so for this chat alone (a new chat starts with nobody allowing them), and may stop at any time.
 */
export const allowPicturesSchema = z.object({ roomId: roomIdSchema, allow: z.boolean({ error: 'Say whether you allow pictures' }) });
export type AllowPictures = z.infer<typeof allowPicturesSchema>;
/** Who of the chat's members allow pictures in it now, by user id. */
export type PicturesAllowed = { roomId: string; allowedBy: string[] };
export const picturesAllowedCheck = z.object({ roomId: z.string(), allowedBy: z.array(z.string()) });

/** Server → a follower's pages: a reply in a thread they follow (their unread count for it grows). */
export type ThreadNotice = { roomId: string; rootId: number; messageId: number; senderId: string };

/** Server → client payload checks. */
const roomMessageSchema = z.object({
  roomId: z.string(),
  id: z.number(),
  senderId: z.string(),
  senderName: z.string(),
  text: z.string(),
  sentAt: z.number(),
  editedAt: z.number().nullable(),
  deleted: z.boolean(),
  replyTo: z.object({ id: z.number(), senderName: z.string(), text: z.string() }).nullable(),
  mentions: z.array(z.string()),
  reactions: z.array(z.object({ emoji: z.string(), userIds: z.array(z.string()) })),
  clientId: z.string().nullable(),
  emoji: z.array(z.string()).optional(),
  gift: z.number().optional(),
  receipt: z.string().max(64).optional(),
  attachment: messageAttachmentCheck.optional(),
  media: messageMediaCheck.optional(),
  threadId: z.number().optional(),
  thread: z.object({ replies: z.number(), lastReplyAt: z.number() }).optional(),
});
export const roomMessageCheck = roomMessageSchema;
const memberViewSchema = z.object({
  userId: z.string(),
  username: z.string(),
  avatar: z.string(),
  role: z.enum(['owner', 'moderator', 'member']),
  here: z.boolean(),
});
export const peopleChangedCheck = z.object({ roomId: z.string(), people: z.array(memberViewSchema) });
export const roomTypingCheck = z.object({ roomId: z.string(), userId: z.string(), username: z.string(), typing: z.boolean() });
export const readReceiptCheck = z.object({ roomId: z.string(), userId: z.string(), lastReadId: z.number() });
export const removedCheck = z.object({
  roomId: z.string(),
  reason: z.enum(['kicked', 'banned', 'closed', 'left']),
  by: z.string().nullable(),
  note: z.string(),
});
export const mutedCheck = z.object({ roomId: z.string(), mutedUntil: z.number().nullable() });
export const restrictionsCheck = z.object({ roomId: z.string() });
export const activityCheck = z.object({
  roomId: z.string(),
  kind: z.enum(['group', 'direct']),
  lastMessageId: z.number(),
  senderId: z.string(),
  sentAt: z.number(),
});
export const joinAnswerCheck = z.union([
  z.object({
    ok: z.literal(true),
    messages: z.array(roomMessageSchema),
    hasOlder: z.boolean(),
    hasNewer: z.boolean(),
    lastReadId: z.number(),
    readBy: z.record(z.string(), z.number()),
    people: z.array(memberViewSchema),
    mutedUntil: z.number().nullable(),
    threads: z.array(roomMessageSchema).optional(),
    threadUnread: z.record(z.string(), z.number()).optional(),
    picturesAllowedBy: z.array(z.string()).optional(),
  }),
  z.object({ ok: z.literal(false), message: z.string(), code: z.string() }),
]);
export const threadAnswerCheck = z.union([
  z.object({
    ok: z.literal(true),
    root: roomMessageSchema,
    messages: z.array(roomMessageSchema),
    hasOlder: z.boolean(),
    hasNewer: z.boolean(),
    following: z.boolean(),
    lastReadId: z.number(),
  }),
  z.object({ ok: z.literal(false), message: z.string(), code: z.string() }),
]);
export const threadNoticeCheck = z.object({ roomId: z.string(), rootId: z.number(), messageId: z.number(), senderId: z.string() });
export const messagePageCheck = z.object({ messages: z.array(roomMessageSchema), hasMore: z.boolean(), hasNewer: z.boolean().optional() });

/** `@username` mentions in a text (usernames: letters, digits, _ and -), each once, lower-cased. */
export function mentionedNames(s: string): string[] {
  const names = new Set<string>();
  for (const m of s.matchAll(/(^|[^\w@])@([A-Za-z0-9_-]{3,20})/g)) names.add(m[2]!.toLowerCase());
  return [...names];
}

/**
 * Refusals of a room event that say nothing about the event itself: the server was restarting or
 * a chat was moving between servers (`unavailable`), or the process holding it did not answer in
 * time (`timeout`). The page sends the same event again (a post under the same client id, which
 * the room keeps once) rather than showing it as refused.
 */
export const RETRYABLE_ROOM_CODES: readonly string[] = ['unavailable', 'timeout'];
export const isRetryableRoomRefusal = (code: string) => RETRYABLE_ROOM_CODES.includes(code);
