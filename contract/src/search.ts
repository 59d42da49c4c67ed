import { z } from 'zod';
import { text } from './text.ts';
import { usernameSchema } from './auth.ts';
import { roomIdSchema } from './rooms.ts';

/**
 * Message search over the conversations a user belongs to: their direct messages and the group
 * rooms they are in. Words are matched as the room's language stems them (else as written).
 */

export const SEARCH_TEXT_MAX = 200;
export const SEARCH_PAGE_MAX = 50;
export const SEARCH_PAGE_DEFAULT = 20;

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const day = z.coerce.date({ error: 'Dates look like 2026-01-31' });

/** GET /api/rooms/search?q=&from=&roomId=&after=&before=&hasLink=&hasPicture=&hasVoice=&cursor=&limit= */
export const searchQuerySchema = z
  .object({
    q: text().trim().max(SEARCH_TEXT_MAX, `Search for at most ${SEARCH_TEXT_MAX} characters`).default(''),
    /** The sender's username. */
    from: usernameSchema.optional(),
    /** One room or direct conversation. */
    roomId: roomIdSchema.optional(),
    /** Sent at or after this time. */
    after: day.optional(),
    /** Sent before this time. */
    before: day.optional(),
    hasLink: flag.optional(),
    /** A picture or a GIF (a sticker is not one: it is a kind of emoji). */
    hasPicture: flag.optional(),
    hasVoice: flag.optional(),
    /** Where the previous page ended (its `next`). */
    cursor: text()
      .regex(/^\d{1,17}:[0-9a-f-]{36}:\d{1,16}$/, 'Unknown search page')
      .optional(),
    limit: z.coerce.number().int().min(1).max(SEARCH_PAGE_MAX).default(SEARCH_PAGE_DEFAULT),
  })
  .refine(
    (q) => q.q !== '' || q.from !== undefined || q.roomId !== undefined || q.hasLink || q.hasPicture || q.hasVoice || q.after || q.before,
    {
      error: 'Type something to search for, or choose a filter',
    },
  );
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** A piece of a hit's text: `match` where it is what was searched for. */
export type SnippetPart = { text: string; match: boolean };

export type SearchHit = {
  roomId: string;
  roomKind: 'group' | 'direct';
  /** A group's name, or the friend a direct conversation is with. */
  roomName: string;
  messageId: number;
  senderId: string;
  senderName: string;
  sentAt: number;
  snippet: SnippetPart[];
  /** A reply in a thread: the thread's root (the hit is shown in its thread). */
  threadId?: number;
  /** What the message carries besides its text, so a hit without words still says what it is. */
  content?: SearchHitContent;
};

export type SearchHitContent = 'picture' | 'voice' | 'sticker' | 'gif';

/** A page of hits, newest first; `next` asks for the following page. */
export type SearchPage = { hits: SearchHit[]; next: string | null };

export const searchPageCheck = z.object({
  hits: z.array(
    z.object({
      roomId: z.string(),
      roomKind: z.enum(['group', 'direct']),
      roomName: z.string(),
      messageId: z.number(),
      senderId: z.string(),
      senderName: z.string(),
      sentAt: z.number(),
      snippet: z.array(z.object({ text: z.string(), match: z.boolean() })),
      threadId: z.number().optional(),
    }),
  ),
  next: z.string().nullable(),
});
