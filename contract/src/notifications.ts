import { z } from 'zod';
import { text } from './text.ts';

/** What a notification is about; each kind has its own in-app and push preference. */
export const NOTIFICATION_KINDS = [
  'friendRequest',
  'friendAccepted',
  'directMessage',
  'mention',
  'threadReply',
  'missionReminder',
  'levelUp',
  'moderation',
  'wentLive',
  'supportReply',
  'signIn',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  friendRequest: 'Friend requests',
  friendAccepted: 'Accepted friend requests',
  directMessage: 'Direct messages',
  mention: 'Mentions in group rooms',
  threadReply: 'Replies in threads you follow',
  missionReminder: 'Streak reminders',
  levelUp: 'Level-ups',
  moderation: 'Moderation outcomes',
  wentLive: 'People you follow going live',
  supportReply: 'Replies from support',
  signIn: 'Sign-ins from a new device',
};

export const NOTIFICATIONS_PAGE_MAX = 50;
/** Seconds a push service keeps an undelivered notification. */
export const PUSH_TTL_S = 24 * 60 * 60;

export type AppNotification = {
  notificationId: string;
  kind: NotificationKind;
  text: string;
  /** An in-app path (`/users/ana`, `/messages/ana`). */
  link: string;
  read: boolean;
  /** Coalesced notifications (one per direct conversation) count how many events they stand for. */
  count: number;
  createdAt: string;
};
export type NotificationPage = { notificationList: AppNotification[]; unread: number; nextBefore: string | null };

export const notificationPageQuery = z
  .object({
    before: z
      .string()
      .regex(/^\d{1,18}$/, 'before must be a notification id')
      .optional(),
    limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_MAX).default(20),
  })
  .strict();

export const notificationIdSchema = z.string().regex(/^\d{1,18}$/, 'Not a notification id');

/** An in-app path: starts with one slash, no scheme, no backslash. */
export const appLinkSchema = text()
  .max(300)
  .regex(/^\/(?![/\\])[^\s\\]*$/, 'A link is a path inside Parley');

export const pushSubscriptionSchema = z
  .object({
    endpoint: z.url({ protocol: /^https$/, error: 'A push endpoint is an https URL' }).max(2000),
    expirationTime: z.number().nullable().optional(),
    keys: z
      .object({
        p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, 'Not a P-256 public key'),
        auth: z.string().regex(/^[A-Za-z0-9_-]{16,24}={0,2}$/, 'Not a push auth secret'),
      })
      .strict(),
  })
  .strict();
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionSchema>;
export const pushUnsubscribeSchema = z.object({ endpoint: z.url().max(2000) }).strict();

/** What a push message carries; the service worker shows it and opens `link` on a click. */
export type PushPayload = { notificationId: string; kind: NotificationKind; title: string; body: string; link: string; tag: string };

/** Client → server: what this page shows now (`path`), and whether it is visible; no push for what is on screen. */
export const focusSchema = z.object({ path: appLinkSchema.nullable(), visible: z.boolean() }).strict();
export type Focus = z.infer<typeof focusSchema>;

export const notificationEvents = {
  /** Server → client: AppNotification (new, or a coalesced one updated). */
  created: 'notification:new',
  /** Server → client: { notificationIds: string[] | 'all' } marked read on another page. */
  read: 'notification:read',
  /** Client → server: Focus. */
  focus: 'notification:focus',
} as const;
export type NotificationsRead = { notificationIds: string[] | 'all' };
