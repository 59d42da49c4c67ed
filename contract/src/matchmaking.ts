import { z } from 'zod';
import { INVISIBLE_CHARS, MISLEADING_CHARS, text } from './text.ts';
import { GENDERS, GENDER_FILTERS, MAX_AGE, MESSAGE_MAX_BYTES, MIN_AGE, RECENT_PARTNERS, ROOM_TYPES } from './constants.ts';
import { callAttemptSchema } from './videoChat.ts';
import { languageListSchema } from './languages.ts';
import { COUNTRY_CODES } from './countries.ts';

/** Topics are free text, normalised to lower case single-spaced words, without characters that hide or reorder text. */
export const topicSchema = text()
  .transform((t) => t.trim().toLowerCase().replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, 'Topics cannot be empty')
      .max(30, 'Topics must be at most 30 characters')
      .refine((t) => !MISLEADING_CHARS.test(t) && !INVISIBLE_CHARS.test(t), 'Topics cannot contain invisible or control characters'),
  );

/** Moderators hide a topic from the popular suggestions (POST /api/chat/topics/hidden). */
export const hideTopicSchema = z.object({ topic: topicSchema, hidden: z.boolean().default(true) });

export const chatFiltersSchema = z
  .object({
    topics: z.array(topicSchema).max(10, 'At most 10 topics').default([]),
    gender: z.enum(GENDER_FILTERS).default('All'),
    ageRange: z
      .object({
        minAge: z.number().int().min(MIN_AGE, `Minimum age is ${MIN_AGE}`).max(MAX_AGE),
        maxAge: z.number().int().min(MIN_AGE).max(MAX_AGE, `Maximum age is ${MAX_AGE}`),
      })
      .refine((r) => r.minAge <= r.maxAge, 'Minimum age must not be above maximum age')
      .default({ minAge: MIN_AGE, maxAge: MAX_AGE }),
    /** Only people who speak one of these (empty: anyone, a shared language preferred). */
    languages: languageListSchema.optional(),
    /** Only people from one of these countries (empty: anywhere). */
    countries: z
      .array(z.enum(COUNTRY_CODES as [string, ...string[]], { error: 'Choose a country from the list' }))
      .max(10, 'At most 10 countries')
      .transform((c) => [...new Set(c)])
      .optional(),
    /** Only people from the user's own country or its neighbours. */
    nearMe: z.boolean().optional(),
  })
  .transform((f) => ({ ...f, topics: [...new Set(f.topics)] }));
export type ChatFilters = z.infer<typeof chatFiltersSchema>;
export type ChatFiltersInput = z.input<typeof chatFiltersSchema>;

export const roomTypeSchema = z.enum(ROOM_TYPES);
export type RoomType = z.infer<typeof roomTypeSchema>;

/**
 * A client's name for one search (its Start or Next), echoed in the `searching`, `matched` and
 * `chat:error` that answer it: a late answer to a search the user has since stopped or replaced
 * is recognised and ignored, however the events crossed on the way. A page whose connection
 * dropped while it was searching sends its search again under the same id: had that search been
 * matched meanwhile (its `matched` lost with the old connection), it gets that room (a video
 * room with its call's current attempt, `callAttempt`).
 */
export const searchIdSchema = text().min(1).max(64);

// In constants.ts (no schemas there), so a client slice can read them without loading zod.
export { RECENT_PARTNERS, RECENT_PARTNER_COOLDOWN_MS } from './constants.ts';

export const startSearchSchema = z.object({
  roomType: roomTypeSchema,
  filters: chatFiltersSchema,
  automaticReconnect: z.boolean().default(false),
  searchId: searchIdSchema.optional(),
  /**
   * Recent partners this user is glad to meet again at once: this search does not wait out its
   * own RECENT_PARTNER_COOLDOWN_MS for them. Their side's wait, filters and blocks still apply.
   */
  meetAgain: z
    .array(z.uuid({ error: 'meetAgain must list user ids' }))
    .max(RECENT_PARTNERS, `meetAgain lists at most ${RECENT_PARTNERS} people`)
    .optional(),
});
export type StartSearch = z.infer<typeof startSearchSchema>;

const encoder = new TextEncoder();
/**
 * C0 controls other than tab and line breaks: nobody types them, and each is six bytes of JSON. Without
 * them a message's frame is at most twice its UTF-8 size, which bounds what a socket may send.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const C0_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const notBlank = (t: string) => t.trim().length > 0;
const noControls = (t: string) => !C0_CONTROLS.test(t);
// A UTF-16 code unit is at most 3 bytes of UTF-8: most messages need no encoding to be measured.
const withinSize = (t: string) => t.length * 3 <= MESSAGE_MAX_BYTES || encoder.encode(t).length <= MESSAGE_MAX_BYTES;
export const messageTextSchema = text({ error: 'Message must be text' })
  .refine(notBlank, 'Message cannot be empty')
  .refine(noControls, 'Message cannot contain control characters')
  .refine(withinSize, `Message is larger than ${MESSAGE_MAX_BYTES} bytes`);
/** What messageTextSchema accepts (C0_CONTROLS has NUL), answered without zod's machinery. */
export const isMessageText = (t: string) => notBlank(t) && noControls(t) && withinSize(t);

/** Client → server `chat:next` (skip): the payload is optional. */
export const nextSearchSchema = z.object({ searchId: searchIdSchema.optional() }).optional();

/** Client → server `chat:settings`: changes the current search's options while it lasts. */
export const chatSettingsSchema = z.object({ automaticReconnect: z.boolean() });
export type ChatSettings = z.infer<typeof chatSettingsSchema>;

/** A partner as the other side sees them: public profile only. */
export type Receiver = {
  userId: string;
  username: string;
  avatar: string;
  age: number | null;
  gender: (typeof GENDERS)[number] | null;
  sharedTopics: string[];
  /** The languages the partner speaks. */
  languages?: string[];
  /** The partner's country, unless they keep it from strangers (never a city or an address). */
  country?: string;
};

/** A language exchange: the partner speaks what the user learns, and learns what the user speaks. */
export type LanguageExchange = { youLearn: string; theyLearn: string };

export type RoomSetup = {
  roomId: string;
  roomType: RoomType;
  receiver: Receiver;
  /** true when topics were asked for and the partner shares none of them */
  noCommonTopic: boolean;
  /** video: the side that places the PeerJS call */
  initiator: boolean;
  /** Matched as a language exchange. */
  exchange?: LanguageExchange;
  /** The search (start or next) this match answers, when the client named it. */
  searchId?: string;
  /** video: the attempt of the room's call under way when it is not the first (see rtcEvents in rtc.ts). */
  callAttempt?: number;
};

export type SocketError = { event: string; message: string; code: string; searchId?: string };

/** Server → client payloads; clients check them before anything reaches their state. */
export const receiverSchema = z.object({
  userId: z.string(),
  username: z.string(),
  avatar: z.string(),
  age: z.number().nullable(),
  gender: z.enum(GENDERS).nullable(),
  sharedTopics: z.array(z.string()),
  languages: z.array(z.string().max(8)).max(10).optional(),
  country: z.string().max(8).optional(),
});
export const roomSetupSchema = z.object({
  roomId: z.string().min(1),
  roomType: z.string(),
  receiver: receiverSchema,
  noCommonTopic: z.boolean().default(false),
  initiator: z.boolean().default(false),
  searchId: z.string().optional(),
  callAttempt: callAttemptSchema.default(0),
  exchange: z.object({ youLearn: z.string().max(8), theyLearn: z.string().max(8) }).optional(),
});
export const searchingSchema = z.object({ roomType: z.string(), requeued: z.boolean().default(false), searchId: z.string().optional() });
export const partnerLeftSchema = z.object({ roomId: z.string(), reason: z.string().optional() });
export const socketErrorSchema = z.object({ event: z.string(), message: z.string(), code: z.string(), searchId: z.string().optional() });

/** The chat's event names, both directions; one place so client and server never drift. */
export const chatEvents = {
  /** Client → server: start a search (StartSearch). */
  start: 'chat:start',
  /** Client → server: stop searching or leave the room. */
  stop: 'chat:stop',
  /** Client → server: leave the room and search again (skip). */
  next: 'chat:next',
  /** Client → server: the current search's options (ChatSettings), e.g. automatic reconnect switched on mid-chat. */
  settings: 'chat:settings',
  /** Server → client: in the queue (SearchingState). */
  searching: 'chat:searching',
  /** Server → client: a partner was found (RoomSetup). */
  matched: 'chat:matched',
  /** Server → client: the partner left (PartnerLeft). */
  partnerLeft: 'chat:partnerLeft',
  /** Client → server: take a held room back after a drop (ResumeAnswer). */
  resume: 'chat:resume',
  /** Server → client: the partner's connection dropped; their room is held. */
  partnerAway: 'chat:partnerAway',
  /** Server → client: the partner is back. */
  partnerBack: 'chat:partnerBack',
  /** Server → client: a refused event of any realtime area (SocketError). */
  error: 'chat:error',
  /**
   * Server → client while a search waits (SearchStatus): SEARCH_STATUS_EVERY_MS after it started
   * waiting, then again every SEARCH_STATUS_EVERY_MS when the numbers changed.
   */
  searchStatus: 'chat:searchStatus',
} as const;

/** A waiting search hears how things stand this long after it started waiting, and as often after. */
export const SEARCH_STATUS_EVERY_MS = 3_000;

/**
 * How a waiting search stands. `fitting` counts the people online now, other than the user, whose
 * gender and age fit the search's filters: 0 means nobody online fits them, so widening the
 * filters is the only way to a match right now.
 */
export type SearchStatus = {
  roomType: RoomType;
  searchId?: string;
  /** People online (the user included). */
  online: number;
  /** Other people waiting for a partner of the same kind (text or video). */
  searching: number;
  /** Other people online whose gender and age fit the search's filters. */
  fitting: number;
  /** With required languages: other people online who speak one of them (0: widen the languages). */
  languageFitting?: number;
  /** With a country filter or near me: other people online there who show their country (0: widen the countries). */
  countryFitting?: number;
};
export const searchStatusSchema = z.object({
  roomType: z.string(),
  searchId: z.string().optional(),
  online: z.number().int().min(0),
  searching: z.number().int().min(0),
  fitting: z.number().int().min(0),
  languageFitting: z.number().int().min(0).optional(),
  countryFitting: z.number().int().min(0).optional(),
});

/** With topics set and no topic match for this long, a search falls back to any compatible partner. */
export const TOPIC_FALLBACK_MS = 3_000;
/** Per user, across tabs: a steady rate with a short burst on top. */
export const MESSAGE_RATE_PER_S = 10;
export const MESSAGE_BURST = 20;

/** Server → client after `chat:start` (requeued false) or when put back in the queue (requeued true). */
export type SearchingState = { roomType: RoomType; requeued: boolean; searchId?: string };

/**
 * `reported`: told only to the pages of someone who reported or blocked their partner; the partner
 * hears `left`, as if they had pressed Leave (never why).
 */
export const PARTNER_LEFT_REASONS = ['skip', 'left', 'disconnected', 'reported'] as const;
export type PartnerLeft = { roomId: string; reason: (typeof PARTNER_LEFT_REASONS)[number] };

export type PopularTopicsAnswer = { topics: string[] };

/**
 * Resuming a chat (text or video) after a dropped connection. When a socket in a room drops (not
 * closed on purpose: page unload and sign-out end the chat at once), the server holds the chat
 * for RESUME_GRACE_MS and tells the partner (`chat:partnerAway`); meanwhile what the partner
 * posts is kept for the page to catch up on. The same page (tab id), once reconnected, sends
 * `chat:resume` {roomId} with an acknowledgement: `{ ok: true, partnerAway }` and the chat goes
 * on (the partner gets `chat:partnerBack`), or `{ ok: false }`: the chat has ended. Past the grace
 * the partner gets `chat:partnerLeft` with reason `disconnected`, as before.
 */
export const RESUME_GRACE_MS = 15_000;
export const resumeSchema = z.object({ roomId: text().min(1).max(64) });
/**
 * Refused with `partnerLeft`: the partner left while this page was away (not that it was too late).
 * `callAttempt`: a video room's call was placed again meanwhile (the page may have missed the
 * `video:redial`); absent for the first attempt.
 */
export type ResumeAnswer = { ok: true; partnerAway: boolean; callAttempt?: number } | { ok: false; partnerLeft?: true };
export const resumeAnswerSchema = z.union([
  z.object({ ok: z.literal(true), partnerAway: z.boolean(), callAttempt: callAttemptSchema.optional() }),
  z.object({ ok: z.literal(false), partnerLeft: z.literal(true).optional() }),
]);
/** `chat:partnerAway` and `chat:partnerBack`. */
export const partnerPresenceSchema = z.object({ roomId: z.string() });
export type PartnerPresence = z.infer<typeof partnerPresenceSchema>;
