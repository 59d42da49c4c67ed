import { z } from 'zod';
import { displayName, text } from './text.ts';
import { GIFT_MAX, GIFT_MIN } from './shop.ts';
import type { ModerationEntry } from './rooms.ts';

/** A stream's title, at most this many characters. */
export const LIVE_TITLE_MAX = 80;
export const LIVE_CATEGORIES = ['Just chatting', 'Music', 'Gaming', 'Art', 'Learning', 'Sports', 'Outdoors', 'Other'] as const;
export type LiveCategory = (typeof LIVE_CATEGORIES)[number];
/** Join attempts (watch or publish) a user may make per minute. */
export const LIVE_JOINS_PER_MINUTE = 20;
/** Streams (or tabs of one stream) a user may watch at once: each holds a connection and ports on the server. */
export const LIVE_WATCHES_PER_USER = 4;
/** Watches at once from one address (an IPv6 /64): generous, since a school or a mobile carrier puts many people behind one. */
export const LIVE_WATCHES_PER_ADDRESS = 50;
/** Messages a stream keeps for its chat's history (the oldest go first). */
export const LIVE_CHAT_HISTORY = 200;
/** A stream's thumbnail: a JPEG data URL of at most this many characters. */
export const LIVE_THUMBNAIL_MAX_CHARS = 120_000;

/** A stream's id (its room's id), in paths and payloads. */
export const liveRoomIdSchema = text({ error: 'roomId is required' }).min(1, 'roomId is required').max(64);
const sdpSchema = z.object({ type: z.enum(['offer', 'answer']), sdp: text().min(1).max(20_000) });
export type LiveSdp = z.infer<typeof sdpSchema>;

/** POST /api/live: going live. */
export const goLiveSchema = z.object({
  title: text({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(LIVE_TITLE_MAX, `Title is at most ${LIVE_TITLE_MAX} characters`)
    .superRefine(displayName('Title')),
  category: z.enum(LIVE_CATEGORIES, { error: 'Choose a category from the list' }),
});
export type GoLive = z.infer<typeof goLiveSchema>;

/** GET /api/live?category=&q= */
export const liveListQuerySchema = z.object({
  category: z.enum(LIVE_CATEGORIES).optional(),
  q: text().max(80).optional(),
});

/** PUT /api/live/:roomId/thumbnail */
export const liveThumbnailSchema = z.object({
  image: text()
    .max(LIVE_THUMBNAIL_MAX_CHARS, 'Thumbnail is too large')
    .regex(/^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/, 'Thumbnail must be a JPEG data URL'),
});

export type LiveBroadcaster = { userId: string; username: string; avatar: string };
/** A stream as the list and its page show it. */
export type LiveStream = {
  roomId: string;
  title: string;
  category: LiveCategory;
  broadcaster: LiveBroadcaster;
  viewers: number;
  startedAt: number;
  /** Set once the stream has ended. */
  endedAt?: number;
  hasThumbnail: boolean;
};
export type LiveList = { streams: LiveStream[] };

/**
 * GET /api/live/:roomId/summary, for the broadcaster once the stream ended: what the server
 * counted while it ran. `messages` are the viewers' and broadcaster's chat lines (gift notices
 * apart); `newFollowers` are follows made while it ran that still stand.
 */
export type LiveSummary = {
  roomId: string;
  title: string;
  startedAt: number;
  endedAt: number;
  peakViewers: number;
  totalViewers: number;
  messages: number;
  gifts: number;
  gold: number;
  newFollowers: number;
};

/** GET /api/live/:roomId/restrictions, for the broadcaster and their moderators: who is muted or banned in the channel now. */
export type LiveRestrictions = {
  slowModeS: number;
  muted: Array<{ userId: string; username: string; mutedUntil: number }>;
  banned: Array<{ userId: string; username: string; reason: string; at: number }>;
};

/**
 * One line of a stream's record (GET /api/live/:roomId/record, for the broadcaster and admins):
 * a moderation of its chat as the rooms record it, or a report filed from the stream (whose
 * reporter the broadcaster is not told).
 */
export type LiveRecordEntry =
  | (ModerationEntry & { kind: 'moderation' })
  | { kind: 'report'; id: string; reporter: string | null; target: string | null; reason: string; at: number };
export type LiveRecord = { stream: LiveStream; entries: LiveRecordEntry[] };

/** Follows a user may start or stop per minute. */
export const LIVE_FOLLOWS_PER_MINUTE = 30;
/** A broadcaster's followers hear of them going live at most once per this many seconds (start/stop spam). */
export const WENT_LIVE_NOTICE_INTERVAL_S = 10 * 60;
/** Gifts a viewer may send per minute. */
export const LIVE_GIFTS_PER_MINUTE = 10;
/** Amounts the player offers; any whole amount within the shop's gift limits is accepted. */
export const LIVE_GIFT_AMOUNTS = [10, 50, 100] as const;

/** PUT/DELETE/GET /api/live/follows/:userId */
export const liveFollowParamsSchema = z.object({ userId: z.uuid({ message: 'userId must be a user id' }) });
export type LiveFollowState = { following: boolean; followers: number };

/** Client → server `live:gift`: gold from a viewer to the broadcaster, once per idempotency key. */
export const liveGiftSchema = z.object({
  roomId: liveRoomIdSchema,
  amount: z.number().int('amount must be a whole number').min(GIFT_MIN).max(GIFT_MAX, `amount must be at most ${GIFT_MAX}`),
  idempotencyKey: z.uuid({ message: 'idempotencyKey must be a UUID' }),
});
export type LiveGift = z.infer<typeof liveGiftSchema>;
export type LiveGiftAnswer = { ok: true; gold: number } | { ok: false; message: string; code: string };

/** What a viewer gets when they start watching (`live:watch`'s answer). */
export type LiveWatchAnswer =
  | { ok: true; offer: LiveSdp; viewers: number }
  /** Watching the chat only (`media: false`): no offer to answer. */
  | { ok: true; offer: null; viewers: number }
  | { ok: false; message: string; code: string };
export type LivePublishAnswer = { ok: true; answer: LiveSdp } | { ok: false; message: string; code: string };
export type LiveAck = { ok: true } | { ok: false; message: string; code: string };

export const livePublishSchema = z.object({ roomId: liveRoomIdSchema, offer: sdpSchema });
/** `media: false` watches the chat only (video off, to save data): counted as a viewer, no peer connection. */
export const liveWatchSchema = z.object({ roomId: liveRoomIdSchema, media: z.boolean().default(true) });
export const liveAnswerSchema = z.object({ roomId: liveRoomIdSchema, answer: sdpSchema });
export const liveRoomSchema = z.object({ roomId: liveRoomIdSchema });

/**
 * Socket events of live streams. Media: the broadcaster offers (`publish`, answered in the ack);
 * a viewer asks to `watch` and gets the server's offer, and sends its `answer`. Refusals come as
 * acks `{ok: false}` or as `chat:error`.
 */
export const liveEvents = {
  /** Client → server: the broadcaster's offer ({roomId, offer}); ack LivePublishAnswer. Owner only. */
  publish: 'live:publish',
  /** Client → server: start watching ({roomId}); ack LiveWatchAnswer. */
  watch: 'live:watch',
  /** Client → server: a viewer's answer to the server's offer ({roomId, answer}). */
  answer: 'live:answer',
  /** Client → server: stop watching ({roomId}). */
  leave: 'live:leave',
  /** Client → server: the broadcaster ends the stream ({roomId}). */
  end: 'live:end',
  /** Server → client: a stream's viewer count ({roomId, viewers}). */
  viewers: 'live:viewers',
  /** Server → a viewer's socket the broadcaster's side banned {roomId}: its video stops (the chat hears `room:removed`). */
  dropped: 'live:dropped',
  /** Client → server LiveGift (viewers only, not to yourself); ack LiveGiftAnswer. Everyone watching gets the gift as a `room:message` with `gift`. */
  gift: 'live:gift',
  /** Server → client: the stream ended ({roomId, startedAt, endedAt}). */
  ended: 'live:ended',
} as const;
