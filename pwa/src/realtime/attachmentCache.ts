/**
 * Pictures and voice messages are served only to signed-in members (an Authorization header, so
 * no plain <img src>): each file is fetched once and held as an object URL while the page lives.
 * A file we sent ourselves is held from the moment it is sent, with no download.
 */

/** Files held at once; the oldest are let go past it (their object URLs revoked). */
const KEPT = 80;
const held = new Map<string, Promise<string>>();

function keep(url: string, objectUrl: Promise<string>) {
  held.delete(url);
  held.set(url, objectUrl);
  while (held.size > KEPT) {
    const [oldest, gone] = held.entries().next().value as [string, Promise<string>];
    held.delete(oldest);
    void gone.then((u) => URL.revokeObjectURL(u)).catch(() => undefined);
  }
}

/** The object URL of the file at `url`, loading it with `load` (the app's signed-in fetch) the first time. */
export function attachmentObjectUrl(url: string, load: (url: string) => Promise<Blob>): Promise<string> {
  const known = held.get(url);
  if (known) return known;
  const loading = load(url).then((blob) => URL.createObjectURL(blob));
  // A failed load is tried again next time.
  loading.catch(() => held.delete(url));
  keep(url, loading);
  return loading;
}

/** A file we sent: its addresses (a picture's full size and thumbnail) show our own copy. */
export function primeAttachment(urls: Array<string | undefined>, objectUrl: string) {
  for (const url of urls) if (url) keep(url, Promise.resolve(objectUrl));
}

/** A deleted message's file: let go at once. */
export function forgetAttachment(urls: Array<string | undefined>) {
  for (const url of urls) if (url) held.delete(url);
}
