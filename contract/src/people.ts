import { z } from 'zod';
import { text } from './text.ts';
import { genderSchema, usernameSchema } from './auth.ts';
import { COUNTRY_CODES } from './countries.ts';
import { languageListSchema } from './languages.ts';
import { GENDER_FILTERS, MAX_AGE, MIN_AGE } from './constants.ts';
import { NOTIFICATION_KINDS } from './notifications.ts';
import { UI_LOCALES } from './locales.ts';
import type { NameStyle } from './billing.ts';

export const DESCRIPTION_MAX = 500;
export const HOBBIES_MAX = 10;
export const HOBBY_MAX_CHARS = 30;
/** Avatars and uploaded backgrounds: the largest file accepted, and the formats read. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;
/** The avatar sizes the server stores (square WebP). */
export const AVATAR_SIZES = [256, 64] as const;
/** Friend requests one user may have waiting for an answer at once. */
export const PENDING_REQUESTS_MAX = 50;
/** Days a deleted account's username stays reserved before anyone may take it. */
export const USERNAME_RESERVED_DAYS = 30;

/** Backgrounds shipped with the app, served from /backgrounds/<id>.svg. */
export const SHIPPED_BACKGROUNDS = [
  { id: 'dawn', name: 'Dawn' },
  { id: 'lagoon', name: 'Lagoon' },
  { id: 'dusk', name: 'Dusk' },
  { id: 'meadow', name: 'Meadow' },
  { id: 'paper', name: 'Paper' },
  { id: 'night', name: 'Night' },
] as const;
export const shippedBackgroundUrl = (id: string) => `/backgrounds/${id}.svg`;

/** Fields of a profile its owner may keep to themselves (and their friends). */
export const PRIVATE_FIELDS = ['age', 'gender', 'country', 'description', 'hobbies'] as const;
export type PrivateField = (typeof PRIVATE_FIELDS)[number];

export const AUDIENCES = ['everyone', 'friends'] as const;
/** Who may send me a friend request: anyone, only people I met in a chat, nobody. */
export const REQUESTERS = ['everyone', 'partners', 'nobody'] as const;

const hobbySchema = text()
  .trim()
  .min(1, 'A hobby cannot be empty')
  .max(HOBBY_MAX_CHARS, `A hobby is at most ${HOBBY_MAX_CHARS} characters`)
  .regex(/^[^\p{Cc}\p{Cf}]+$/u, 'A hobby cannot contain control or invisible characters');

export const profileUpdateSchema = z
  .object({
    description: text()
      .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`)
      .refine((s) => !/[\p{Cc}\p{Cf}]/u.test(s.replace(/[\n\t]/g, '')), 'Description cannot contain control or invisible characters'),
    hobbies: z
      .array(hobbySchema)
      .max(HOBBIES_MAX, `At most ${HOBBIES_MAX} hobbies`)
      .refine((h) => new Set(h.map((x) => x.toLowerCase())).size === h.length, 'Each hobby once'),
    gender: genderSchema,
    country: z.enum(COUNTRY_CODES as [string, ...string[]], { error: 'Choose a country from the list' }).nullable(),
    privateFields: z.array(z.enum(PRIVATE_FIELDS)).max(PRIVATE_FIELDS.length),
    /** Languages the person speaks (ISO 639-1), and the ones they are learning. */
    languages: languageListSchema,
    learning: languageListSchema,
  })
  .partial()
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const deleteAccountSchema = z
  .object({ password: text({ error: 'Enter your password' }).min(1, 'Enter your password').max(200) })
  .strict();

export const usernameParamSchema = usernameSchema;

export type Rating = { up: number; down: number };
export type Relation = 'self' | 'friend' | 'requestSent' | 'requestReceived' | 'none' | 'blocked';

/** A person in a list (friends, requests, recent partners). */
export type PersonSummary = { userId: string; username: string; avatar: string };
export type Friend = PersonSummary & { online: boolean; since: string };

/**
 * Another user's card as the server answers it: a field its owner keeps private is absent (not
 * null) unless the viewer is a friend; `limited` when the owner shows the profile to friends only.
 */
export type UserProfile = PersonSummary & {
  gender?: 'male' | 'female' | 'other' | null;
  age?: number | null;
  description?: string;
  hobbies?: string[];
  country?: string | null;
  languages?: string[];
  learning?: string[];
  premiumUser: string;
  /** The premium badge and chosen name colour (plain for the free tier). */
  nameStyle: NameStyle;
  /** The person donated and chose to be thanked in public. */
  thankedDonor: boolean;
  rating: Rating;
  createdAt: string;
  friendsList?: PersonSummary[];
  relation: Relation;
  limited: boolean;
};

/** The owner's own profile. */
export type OwnProfile = PersonSummary & {
  gender: 'male' | 'female' | 'other' | null;
  age: number | null;
  description: string;
  hobbies: string[];
  /** Chosen by the owner; without it the country of their connection is used (`detectedCountry`). */
  country: string | null;
  /** The country of the address this answer went to, from the geo database shipped with the server. */
  detectedCountry?: string | null;
  languages: string[];
  learning: string[];
  premiumUser: string;
  rating: Rating;
  createdAt: string;
  privateFields: PrivateField[];
  background: string | null;
  hasPassword: boolean;
};

export const friendRequestSchema = z.object({ username: usernameSchema }).strict();
export const friendRequestAnswerSchema = z.object({ accept: z.boolean() }).strict();
export const requestIdSchema = z.uuid({ error: 'Not a request id' });

export type FriendRequest = { requestId: string; from: PersonSummary; to: PersonSummary; createdAt: string };
export type FriendRequests = { incoming: FriendRequest[]; outgoing: FriendRequest[] };

export type RecentPartner = PersonSummary & {
  roomId: string;
  kind: 'textChat' | 'videoChat';
  metAt: string;
  relation: Relation;
  rated: boolean;
  nameStyle: NameStyle;
};

export const rateSchema = z
  .object({
    roomId: text().min(1).max(100),
    username: usernameSchema,
    value: z.enum(['up', 'down'], { error: 'Rate with up or down' }),
  })
  .strict();
export type RateBody = z.infer<typeof rateSchema>;

const timeOfDay = text().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use a time like 22:00');
const timeZone = text()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone');

const kindPreference = z.object({ inApp: z.boolean(), push: z.boolean() }).strict();
const deviceId = text().max(200);

const chatFiltersSchema = z
  .object({
    gender: z.enum(GENDER_FILTERS).default('All'),
    minAge: z.number().int().min(MIN_AGE).max(MAX_AGE).default(MIN_AGE),
    maxAge: z.number().int().min(MIN_AGE).max(MAX_AGE).default(MAX_AGE),
    topics: z.array(text().trim().min(1).max(30)).max(10).default([]),
  })
  .refine((f) => f.minAge <= f.maxAge, 'The lowest age must not be above the highest');
const devicesSchema = z.object({ camera: deviceId.nullable().default(null), microphone: deviceId.nullable().default(null) });
const notificationPrefsSchema = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, kindPreference.default({ inApp: true, push: true })])) as Record<
    (typeof NOTIFICATION_KINDS)[number],
    z.ZodDefault<typeof kindPreference>
  >,
);
const quietHoursSchema = z.object({ start: timeOfDay, end: timeOfDay, timeZone }).nullable();
const privacySchema = z.object({
  profileVisibleTo: z.enum(AUDIENCES).default('everyone'),
  friendRequestsFrom: z.enum(REQUESTERS).default('everyone'),
  /** Others do not see how far this person has read, and neither do they see others' (as each of them would). */
  hideReadReceipts: z.boolean().default(false),
});
const settingsGroups = {
  chatFilters: chatFiltersSchema,
  devices: devicesSchema,
  notifications: notificationPrefsSchema,
  quietHours: quietHoursSchema,
  privacy: privacySchema,
  /** The interface language chosen in the app (null: none chosen yet; the browser's is used). */
  locale: z.enum(UI_LOCALES).nullable(),
};

/** Settings as stored and answered; every field has a default, so an old row reads as a full one. */
export const settingsSchema = z.object({
  chatFilters: chatFiltersSchema.default({ gender: 'All', minAge: MIN_AGE, maxAge: MAX_AGE, topics: [] }),
  devices: devicesSchema.default({ camera: null, microphone: null }),
  notifications: notificationPrefsSchema.default(
    Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, { inApp: true, push: true }])) as never,
  ),
  quietHours: quietHoursSchema.default(null),
  privacy: privacySchema.default({ profileVisibleTo: 'everyone', friendRequestsFrom: 'everyone', hideReadReceipts: false }),
  locale: z.enum(UI_LOCALES).nullable().default(null),
});
export type Settings = z.infer<typeof settingsSchema>;
/** A change: the groups given, each whole; no defaults here, so a group left out stays as it is. */
export const settingsUpdateSchema = z.object(settingsGroups).partial().strict();

export const backgroundChoiceSchema = z
  .object({
    background: z
      .union([z.enum(SHIPPED_BACKGROUNDS.map((b) => b.id) as [string, ...string[]]), text().regex(/^upload:[0-9a-f-]{36}$/)])
      .nullable(),
  })
  .strict();
export type BackgroundGallery = {
  shipped: Array<{ id: string; name: string; url: string }>;
  uploads: Array<{ id: string; url: string }>;
  current: string | null;
};

/** The URL a background choice shows (shipped id or `upload:<imageId>`). */
export function backgroundUrl(choice: string | null): string | null {
  if (!choice) return null;
  if (choice.startsWith('upload:')) return `/api/images/${choice.slice(7)}-bg.webp`;
  return shippedBackgroundUrl(choice);
}

/** Realtime events of the people area. */
export const peopleEvents = {
  /** Server → client: a friend came online or went offline: FriendPresence. */
  friendPresence: 'friends:presence',
  /** Server → client: a friend request arrived, was answered or withdrawn; refetch the lists. */
  friendsChanged: 'friends:changed',
} as const;
export type FriendPresence = { userId: string; online: boolean };
