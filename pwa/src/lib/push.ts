/**
 * Web Push on this device: subscribing after a user gesture, and unsubscribing on sign-out. The
 * calls to the server are passed in (`call`), so this works from a feature and from sign-out alike.
 */
export type PushCall = (url: string, body: unknown) => Promise<{ ok: boolean }>;

export type PushSupport = 'supported' | 'needsInstall' | 'unsupported';

/** iPhone and iPad deliver Web Push only to an app added to the Home Screen (iOS 16.4 and later). */
export function isAppleMobile(): boolean {
  return /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
}

function isStandalone(): boolean {
  return window.matchMedia('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

export function pushSupport(): PushSupport {
  const capable = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (isAppleMobile() && !isStandalone()) return 'needsInstall';
  return capable ? 'supported' : 'unsupported';
}

/** The VAPID key arrives base64url; PushManager wants its bytes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export async function currentPushSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null;
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/**
 * Why turning push on failed, in words the settings can say:
 * - `noWorker`: no service worker took control (a private window, a blocked or failed install), so
 *   `navigator.serviceWorker.ready` would never settle;
 * - `pushService`: the browser's push service refused or never answered (Chromium without Google's
 *   push service waits about 40 s, then fails with "Registration failed - push service error");
 * - `server`: Parley's server did not give its key or refused this device;
 * - `offline`: the server could not be reached.
 */
export type PushFailure = 'noWorker' | 'pushService' | 'server' | 'offline';
export class PushSetupError extends Error {
  constructor(
    readonly reason: PushFailure,
    cause?: unknown,
  ) {
    super(`push setup failed: ${reason}`, { cause });
    this.name = 'PushSetupError';
  }
}

/** How long each step after the permission prompt may take before the person is told it failed. */
export const PUSH_STEP_TIMEOUT_MS = { worker: 8_000, subscribe: 12_000, server: 8_000 } as const;
/** What enablePush is doing, for the settings to say while the button waits. */
export type PushStep = 'permission' | 'subscribing' | 'registering';

/** `work`, or a PushSetupError(`reason`) once `ms` passed or when it fails. */
export async function within<T>(ms: number, reason: PushFailure, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PushSetupError(reason, new Error(`no answer in ${ms} ms`))), ms);
  });
  try {
    return await Promise.race([work, late]);
  } catch (err) {
    throw err instanceof PushSetupError ? err : new PushSetupError(reason, err);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks permission (call from a click), subscribes this device and registers it with the server.
 * Every step after the prompt has a time limit; a failure is a PushSetupError saying which step.
 */
export async function enablePush(call: PushCall, onStep: (step: PushStep) => void = () => undefined): Promise<'enabled' | 'denied'> {
  onStep('permission');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  onStep('subscribing');
  const keyRes = await within(PUSH_STEP_TIMEOUT_MS.server, 'offline', fetch('/api/notifications/push/key'));
  if (!keyRes.ok) throw new PushSetupError('server');
  const { publicKey } = (await keyRes.json()) as { publicKey: string };
  const reg = await within(PUSH_STEP_TIMEOUT_MS.worker, 'noWorker', navigator.serviceWorker.ready);
  const sub = await within(
    PUSH_STEP_TIMEOUT_MS.subscribe,
    'pushService',
    (async () =>
      (await reg.pushManager.getSubscription()) ??
      (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) })))(),
  );
  onStep('registering');
  const json = sub.toJSON();
  const res = await within(
    PUSH_STEP_TIMEOUT_MS.server,
    'offline',
    call('/api/notifications/push/subscriptions', { endpoint: json.endpoint, keys: json.keys }),
  );
  if (!res.ok) throw new PushSetupError('server');
  return 'enabled';
}

/** Stops pushes to this device: the server forgets it, then the browser drops the subscription. Never throws. */
export async function disablePush(call: PushCall): Promise<void> {
  try {
    const sub = await currentPushSubscription();
    if (!sub) return;
    await call('/api/notifications/push/unsubscribe', { endpoint: sub.endpoint }).catch(() => undefined);
    await sub.unsubscribe();
  } catch {
    // Signing out must go on whatever the browser says.
  }
}
