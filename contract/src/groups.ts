import { z } from 'zod';
import { displayName, INVISIBLE_CHARS, MISLEADING_CHARS, text } from './text.ts';
import type { RoomMemberView } from './rooms.ts';
import { languageCodeSchema } from './languages.ts';

/** Group rooms: rooms by interest where many people talk, with an owner and moderators. */

export const GROUP_CATEGORIES = ['Music', 'Gaming', 'Movies', 'Sports', 'Tech', 'Languages', 'Just chatting', 'Other'] as const;
export type GroupCategory = (typeof GROUP_CATEGORIES)[number];

export const GROUP_CAPACITY_MIN = 2;
export const GROUP_CAPACITY_MAX = 1000;
export const GROUP_CAPACITY_DEFAULT = 200;
/** Open rooms one person may own at once. */
export const GROUP_ROOMS_PER_OWNER = 5;

const plain = (s: string) => !MISLEADING_CHARS.test(s) && !INVISIBLE_CHARS.test(s);

export const createGroupSchema = z.object({
  name: text({ error: 'Name is required' })
    .trim()
    .min(3, 'Name must be at least 3 characters')
    .max(40, 'Name must be at most 40 characters')
    .superRefine(displayName('Name')),
  category: z.enum(GROUP_CATEGORIES, { error: 'Pick a category' }),
  description: text()
    .trim()
    .max(280, 'Description must be at most 280 characters')
    .refine(plain, 'Description cannot contain invisible or control characters')
    .default(''),
  visibility: z.enum(['public', 'invite'], { error: 'Public or invite-only' }).default('public'),
  capacity: z
    .number({ error: 'Capacity must be a number' })
    .int()
    .min(GROUP_CAPACITY_MIN, `Capacity is at least ${GROUP_CAPACITY_MIN}`)
    .max(GROUP_CAPACITY_MAX, `Capacity is at most ${GROUP_CAPACITY_MAX}`)
    .default(GROUP_CAPACITY_DEFAULT),
  /** The language spoken in the room (ISO 639-1), if the owner says. */
  language: languageCodeSchema.nullable().default(null),
});
export type CreateGroup = z.infer<typeof createGroupSchema>;
export type CreateGroupInput = z.input<typeof createGroupSchema>;

export const listGroupsQuerySchema = z.object({
  category: z.enum(GROUP_CATEGORIES).optional(),
  q: text().trim().max(40).optional(),
  /**
   * Rooms in this language, or `any`. Without it: rooms in the person's languages and rooms that
   * name none (everything when their profile lists no language).
   */
  language: z.union([z.literal('any'), languageCodeSchema]).optional(),
});

/** GET /api/groups: the rooms, and the languages the list was filtered by (empty: all). */
export type GroupList = { rooms: GroupSummary[]; languages: string[] };

export const joinGroupSchema = z.object({ invite: text().min(1).max(64).optional() }).default({});

export type GroupSummary = {
  roomId: string;
  name: string;
  category: GroupCategory;
  description: string;
  owner: string;
  visibility: 'public' | 'invite';
  official: boolean;
  capacity: number;
  members: number;
  /** People with the room open now. */
  peopleInRoom: number;
  lastActivityAt: number | null;
  /** The room's latest message id (0 before the first): unread counts move on from it as activity is told. */
  lastMessageId: number;
  /** The room's language (ISO 639-1), or null when not said. */
  language: string | null;
  member: boolean;
  unread: number;
};

export type GroupDetail = GroupSummary & {
  roomOwner: string;
  role: RoomMemberView['role'] | null;
  slowModeS: number;
  readOnly: boolean;
  closed: boolean;
  /** Owner and moderators only: the current invite code of an invite-only room. */
  invite: string | null;
};

/** A group room's Ably channel (hosted fan-out): the token's capability and the client name it alike. */
export const ablyChannel = (roomId: string) => `group:${roomId}`;
/** Where the signed-in client fetches its Ably token request (Ably's `authUrl`). */
export const ABLY_TOKEN_PATH = '/api/auth/ablyclienttoken';
/** Whether the server fans group rooms out through Ably (public, cacheable): without it the client asks for no token. */
export const ABLY_STATUS_PATH = '/api/auth/ably';
export type AblyStatus = { enabled: boolean };

export { moderationSchema, MUTE_MAX_MIN, SLOW_MODE_MAX_S, type Moderation, type ModerationEntry } from './rooms.ts';

export const GROUP_REFUSALS = {
  notMember: 'Join the room to read and write in it.',
  banned: 'You are banned from this room.',
  closed: 'This room is closed.',
  unknown: 'This room does not exist.',
  full: 'This room is full.',
  inviteOnly: 'This room is invite-only. Ask a member for the invite link.',
  muted: 'You are muted in this room.',
  readOnly: 'This room is read-only for now.',
  slowMode: 'Slow mode is on: wait before sending again.',
  tooManyRooms: (n: number) => `You already own ${n} open rooms. Close one to create another, or own more with Premium.`,
  tooLarge: (n: number) => `Your rooms can hold up to ${n} people. Premium members can open larger rooms.`,
  notModerator: 'Only the room owner and moderators can do this.',
  notOwner: 'Only the room owner can do this.',
} as const;
