import type { MessageMedia } from '@parley/contract/media';

/**
 * Stickers and GIFs this device sent lately, newest first. Kept on the device rather than the
 * server: the picker shows them with no request, and no one's picks are stored anywhere else.
 */
const KEY = 'parley.recentMedia';
const KEPT = 16;

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function recentMedia(): MessageMedia[] {
  try {
    const list = JSON.parse(storage()?.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(list)
      ? list.filter(
          (m): m is MessageMedia =>
            typeof m === 'object' &&
            m !== null &&
            (m.kind === 'sticker' || m.kind === 'gif') &&
            typeof m.id === 'string' &&
            typeof m.url === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

export function rememberMedia(m: MessageMedia) {
  const list = [m, ...recentMedia().filter((x) => !(x.kind === m.kind && x.id === m.id))].slice(0, KEPT);
  try {
    storage()?.setItem(KEY, JSON.stringify(list));
  } catch {
    // A full or refused storage only loses the recent list.
  }
}

/** `items` with the recently used ones first, in the order they were used. */
export function recentFirst<T extends { id: string }>(items: readonly T[], kind: MessageMedia['kind']): T[] {
  const order = new Map(
    recentMedia()
      .filter((m) => m.kind === kind)
      .map((m, i) => [m.id, i]),
  );
  return [...items].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
}

/** The ones of `items` used lately, most recent first. */
export function recentOnly<T extends { id: string }>(items: readonly T[], kind: MessageMedia['kind']): T[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  return recentMedia().flatMap((m) => (m.kind === kind && byId.has(m.id) ? [byId.get(m.id)!] : []));
}
