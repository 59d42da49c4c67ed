import type WebPushLib from 'web-push';
import { and, asc, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import { PUSH_TTL_S, type NotificationKind, type PushPayload, type PushSubscriptionBody } from '@parley/contract/notifications';
import type { Db } from '../db/client.ts';
import { pushSubscriptions } from '../db/schema.ts';
import { endpointAllowed, pushAgent, type PushTransportOverride } from './endpoints.ts';
import { pushSent } from '../platform/metrics.ts';
import { lazyRequire } from '../platform/lazyRequire.ts';

/** Loaded with the first push: a process that sends none does not carry it. */
const webpush = () => lazyRequire('web-push') as typeof WebPushLib;

/** Devices one user may have subscribed at once; a new one past this replaces the oldest. */
export const MAX_DEVICES = 20;
const SEND_TIMEOUT_MS = 10_000;
/** How long a VAPID token is valid (push services accept at most 24 h). */
const VAPID_TOKEN_S = 12 * 60 * 60;

/** Push services answer these for a subscription that is gone or that they will never accept. */
export const isDeadSubscription = (status: number) =>
  status === 404 || status === 410 || (status >= 400 && status < 500 && status !== 408 && status !== 429);

/**
 * A subscription whose sends keep failing (timeouts, errors of the push service, a host that does
 * not answer) is dropped after this many in a row, once the first of them is PUSH_FAILING_FOR_MS
 * old: a push service's outage of a few hours does not cost anyone their devices.
 */
export const PUSH_FAILURES_BEFORE_DROP = 5;
export const PUSH_FAILING_FOR_MS = 24 * 60 * 60 * 1000;

/** `failures`: sends in a row that failed, when the caller read it (a success then writes only if there were any). */
export type StoredSubscription = { id: string; endpoint: string; p256dh: string; auth: string; failures?: number };
export type PushOutcome = { sent: number; removed: number; failed: number };

const URGENCY: Record<NotificationKind, 'high' | 'normal' | 'low'> = {
  friendRequest: 'normal',
  friendAccepted: 'normal',
  directMessage: 'high',
  mention: 'high',
  threadReply: 'normal',
  missionReminder: 'low',
  levelUp: 'low',
  moderation: 'normal',
  wentLive: 'normal',
  supportReply: 'normal',
  signIn: 'high',
};

/**
 * Web Push: devices' subscriptions stored per endpoint, messages encrypted (aes128gcm) and signed
 * with the server's VAPID keys. Only endpoints that are https on public addresses are stored or
 * sent to (endpoints.ts); `override` admits a local stand-in, for tests.
 */
export function webPush(db: Db, vapid: { publicKey: string; privateKey: string; subject: string }, override?: PushTransportOverride) {
  const agent = pushAgent(override);
  // A VAPID token is a signature per push service (its origin), valid for hours: signed once and
  // reused until an hour before it expires, instead of an ES256 signature for every push.
  const vapidTokens = new Map<string, { headers: Record<string, string>; renewAt: number }>();
  const vapidHeaders = (endpoint: string) => {
    const audience = new URL(endpoint).origin;
    const now = Date.now();
    const cached = vapidTokens.get(audience);
    if (cached && cached.renewAt > now) return cached.headers;
    const expiresS = Math.floor(now / 1000) + VAPID_TOKEN_S;
    const headers = webpush().getVapidHeaders(audience, vapid.subject, vapid.publicKey, vapid.privateKey, 'aes128gcm', expiresS) as Record<
      string,
      string
    >;
    if (vapidTokens.size > 1000) vapidTokens.clear();
    vapidTokens.set(audience, { headers, renewAt: now + (VAPID_TOKEN_S - 3600) * 1000 });
    return headers;
  };
  /** Counts one more failure in a row; answers whether the subscription has now failed long enough to go. */
  const failedAgain = async (id: string): Promise<boolean> => {
    const [row] = await db
      .update(pushSubscriptions)
      .set({ failures: sql`${pushSubscriptions.failures} + 1`, failingSince: sql`coalesce(${pushSubscriptions.failingSince}, now())` })
      .where(eq(pushSubscriptions.id, id))
      .returning({
        failures: pushSubscriptions.failures,
        // The database's clock on both sides of the comparison.
        longEnough: sql<boolean>`${pushSubscriptions.failingSince} <= now() - make_interval(secs => ${PUSH_FAILING_FOR_MS / 1000})`,
      });
    return row !== undefined && row.failures >= PUSH_FAILURES_BEFORE_DROP && row.longEnough === true;
  };
  return {
    allowed: (endpoint: string) => endpointAllowed(endpoint, override),

    async subscribe(userId: string, sid: string | undefined, sub: PushSubscriptionBody): Promise<void> {
      // An endpoint belongs to one browser profile: whoever subscribes it last receives its pushes.
      await db
        .insert(pushSubscriptions)
        .values({ userId, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, sid: sid ?? null })
        .onConflictDoUpdate({
          target: pushSubscriptions.endpoint,
          set: { userId, p256dh: sub.keys.p256dh, auth: sub.keys.auth, sid: sid ?? null, failures: 0, failingSince: null },
        });
      const keep = await db
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(asc(pushSubscriptions.createdAt))
        .offset(0);
      if (keep.length > MAX_DEVICES) {
        const drop = keep.slice(0, keep.length - MAX_DEVICES).map((r) => r.id);
        await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, drop));
      }
    },

    async unsubscribe(userId: string, endpoint: string): Promise<boolean> {
      const rows = await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
        .returning({ id: pushSubscriptions.id });
      return rows.length > 0;
    },

    /** Ends every device of a user but those of the sign-ins named (sign out everywhere keeps none). */
    async unsubscribeAll(userId: string, keepSids: string[] = []): Promise<void> {
      await db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), keepSids.length ? notInArray(pushSubscriptions.sid, keepSids) : undefined));
    },

    /** Sends to every device of the user; subscriptions the push service says are gone, or that keep failing, are deleted. */
    async send(userId: string, payload: PushPayload): Promise<PushOutcome> {
      return this.sendTo(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)), payload);
    },

    /** Sends to these devices (read by the caller along with what it needed anyway). */
    async sendTo(subs: StoredSubscription[], payload: PushPayload): Promise<PushOutcome> {
      if (subs.length === 0) return { sent: 0, removed: 0, failed: 0 };
      const outcome: PushOutcome = { sent: 0, removed: 0, failed: 0 };
      const body = JSON.stringify(payload);
      await Promise.all(
        subs.map(async (s) => {
          if (!endpointAllowed(s.endpoint, override)) {
            await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, s.id));
            outcome.removed++;
            return;
          }
          try {
            await webpush().sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, body, {
              headers: vapidHeaders(s.endpoint),
              TTL: PUSH_TTL_S,
              urgency: URGENCY[payload.kind],
              topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || undefined,
              contentEncoding: 'aes128gcm',
              agent,
              timeout: SEND_TIMEOUT_MS,
            });
            outcome.sent++;
            if (s.failures !== 0)
              await db
                .update(pushSubscriptions)
                .set({ failures: 0, failingSince: null })
                .where(and(eq(pushSubscriptions.id, s.id), gt(pushSubscriptions.failures, 0)));
          } catch (err) {
            const status = err instanceof webpush().WebPushError ? err.statusCode : 0;
            const refusedAddress = (err as NodeJS.ErrnoException).code === 'EPUSHPRIVATE';
            if (isDeadSubscription(status) || refusedAddress || (await failedAgain(s.id))) {
              await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, s.id));
              outcome.removed++;
            } else outcome.failed++;
          }
        }),
      );
      pushSent(outcome);
      return outcome;
    },
    close: () => agent.destroy(),
  };
}
export type WebPush = ReturnType<typeof webPush>;
