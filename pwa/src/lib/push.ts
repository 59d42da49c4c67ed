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

/** Asks permission (call from a click), subscribes this device and registers it with the server. */
export async function enablePush(call: PushCall): Promise<'enabled' | 'denied'> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const keyRes = await fetch('/api/notifications/push/key');
  if (!keyRes.ok) throw new Error('The server did not give its push key');
  const { publicKey } = (await keyRes.json()) as { publicKey: string };
  const reg = await navigator.serviceWorker.ready;
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  const json = sub.toJSON();
  const res = await call('/api/notifications/push/subscriptions', { endpoint: json.endpoint, keys: json.keys });
  if (!res.ok) throw new Error('The server refused this device');
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
