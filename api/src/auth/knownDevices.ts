import { createHmac, randomBytes, timingSafeEqual, type BinaryLike } from 'node:crypto';

/** How long a browser stays known to an account after its last successful sign-in there. */
export const KNOWN_DEVICE_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
const COOKIE_PREFIX = 'parley_known_';

/** The cookie a successful sign-in sets: this browser is known to that account. */
export type KnownDeviceCookie = { name: string; value: string; expires: Date };

/**
 * "Known device" cookies: signed proof that this browser once signed in to an account. Such a
 * browser is exempt from the per-username failure counter (an attacker's guesses cannot lock its
 * owner out) and has a failure limit of its own instead. One cookie per account, named by a keyed
 * hash of the username, so a shared browser can be known to several accounts without naming them.
 * The MAC covers a canonical JSON of typed fields with a purpose label and version.
 */
export function knownDevices(secret: BinaryLike, now = () => Date.now()) {
  const key = createHmac('sha256', secret).update('parley known device key v1').digest();
  const mac = (fields: unknown[]) =>
    createHmac('sha256', key)
      .update(JSON.stringify(['parley known device', 1, ...fields]))
      .digest();
  const nameFor = (userKey: string) => `${COOKIE_PREFIX}${mac(['name', userKey]).toString('base64url').slice(0, 16)}`;

  return {
    nameFor,
    /** A fresh cookie for this account's username key (lower-cased username). */
    issue(userKey: string): KnownDeviceCookie {
      const issuedAt = Math.floor(now() / 1000);
      const id = randomBytes(12).toString('base64url');
      const sig = mac(['device', userKey, issuedAt, id]).toString('base64url');
      return { name: nameFor(userKey), value: `${issuedAt}.${id}.${sig}`, expires: new Date(issuedAt * 1000 + KNOWN_DEVICE_DAYS * DAY_MS) };
    },
    /** The device's id when `value` is a valid, unexpired cookie issued for this username key; undefined otherwise. */
    verify(userKey: string, value: string | undefined): string | undefined {
      const parts = value?.split('.');
      if (parts?.length !== 3) return undefined;
      const [issuedText, id, sig] = parts as [string, string, string];
      const issuedAt = Number(issuedText);
      if (!/^\d{1,12}$/.test(issuedText) || !/^[A-Za-z0-9_-]{16}$/.test(id)) return undefined;
      if (issuedAt * 1000 + KNOWN_DEVICE_DAYS * DAY_MS <= now()) return undefined;
      const expected = mac(['device', userKey, issuedAt, id]);
      const given = Buffer.from(sig, 'base64url');
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
    },
  };
}

export type KnownDevices = ReturnType<typeof knownDevices>;
