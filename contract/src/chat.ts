import { z } from 'zod';
import type { GENDERS } from './constants.ts';
import { GENDER_FILTERS, MAX_AGE, MESSAGE_MAX_BYTES, MIN_AGE, ROOM_TYPES } from './constants.ts';

/** Topics are free text, normalised to lower case single-spaced words. */
export const topicSchema = z
  .string()
  .transform((t) => t.trim().toLowerCase().replace(/\s+/g, ' '))
  .pipe(z.string().min(1, 'Topics cannot be empty').max(30, 'Topics must be at most 30 characters'));

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
  })
  .transform((f) => ({ ...f, topics: [...new Set(f.topics)] }));
export type ChatFilters = z.infer<typeof chatFiltersSchema>;
export type ChatFiltersInput = z.input<typeof chatFiltersSchema>;

export const roomTypeSchema = z.enum(ROOM_TYPES);
export type RoomType = z.infer<typeof roomTypeSchema>;

export const startSearchSchema = z.object({
  roomType: roomTypeSchema,
  filters: chatFiltersSchema,
  automaticReconnect: z.boolean().default(false),
});
export type StartSearch = z.infer<typeof startSearchSchema>;

const encoder = new TextEncoder();
export const messageTextSchema = z
  .string({ error: 'Message must be text' })
  .refine((t) => t.trim().length > 0, 'Message cannot be empty')
  .refine((t) => encoder.encode(t).length <= MESSAGE_MAX_BYTES, `Message is larger than ${MESSAGE_MAX_BYTES} bytes`);

export const sendMessageSchema = z.object({
  id: z.string().min(1).max(64),
  text: messageTextSchema,
});
export type SendMessage = z.infer<typeof sendMessageSchema>;

export const typingSchema = z.object({ typing: z.boolean() });

/** A partner as the other side sees them: public profile only. */
export type Receiver = {
  userId: string;
  username: string;
  avatar: string;
  age: number | null;
  gender: (typeof GENDERS)[number] | null;
  sharedTopics: string[];
};

export type OnlineUser = { userId: string; username: string; avatar: string };

export type ChatMessage = { id: string; text: string; sentAt: number };

export type RoomSetup = {
  roomId: string;
  roomType: RoomType;
  receiver: Receiver;
  /** true when topics were asked for and the partner shares none of them */
  noCommonTopic: boolean;
  /** video: the side that places the PeerJS call */
  initiator: boolean;
};

export type SocketError = { event: string; message: string; code: string };

/** Acknowledgement of a sent message: the server accepted it and the partner received it. */
export type MessageAck = { ok: true; id: string; sentAt: number; delivered: boolean } | { ok: false; message: string; code: string };

/** Event names, both directions. One place so client and server never drift. */
export const EV = {
  onlineUsers: 'getOnlineUsers',
  error: 'chat:error',
  start: 'chat:start',
  stop: 'chat:stop',
  next: 'chat:next',
  searching: 'chat:searching',
  matched: 'chat:matched',
  message: 'chat:message',
  typing: 'chat:typing',
  partnerLeft: 'chat:partnerLeft',
  forceLogout: 'session:end',
} as const;
