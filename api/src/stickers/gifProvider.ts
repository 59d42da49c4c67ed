import { z } from 'zod';
import { GIF_RESULTS, gifUrl, type GifResult } from '@parley/contract/media';
import { GIF_MAX_BYTES } from './gifLibrary.ts';

/** A provider's answers and files come within this long, or not at all. */
const TIMEOUT_MS = 5000;
/** GIFs looked up by id (to send or serve one) are remembered this long. */
const KEPT_MS = 10 * 60_000;
const KEPT_MAX = 2000;

/** The part of a Tenor v2 answer (search and posts) that Parley reads. */
const answerSchema = z.object({
  results: z.array(
    z.object({
      id: z.string().regex(/^[A-Za-z0-9]{1,40}$/),
      content_description: z.string().max(200).optional(),
      media_formats: z.object({
        gif: z.object({ url: z.url({ protocol: /^https?$/ }), dims: z.tuple([z.number().int().positive(), z.number().int().positive()]) }),
      }),
    }),
  ),
});
type Found = GifResult & { source: string };

/**
 * A Tenor-compatible GIF search (GIF_PROVIDER_URL and GIF_PROVIDER_KEY): `/search?q=` and
 * `/posts?ids=`. Its GIFs get ids of their own (`p.<id>`), are checked with the provider before a
 * message carries one, and are served through this server, so browsers never contact the provider.
 */
export function gifProvider(base: string, key: string, now = Date.now) {
  const known = new Map<string, { gif: Found; at: number }>();

  async function call(path: string, params: Record<string, string>): Promise<Found[]> {
    const url = new URL(`${base.replace(/\/$/, '')}${path}`);
    for (const [k, v] of Object.entries({ ...params, key })) url.searchParams.set(k, v);
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    if (!res.ok) throw new Error(`the GIF provider answered ${res.status}`);
    const answer = answerSchema.parse(await res.json());
    return answer.results.map((r) => {
      const id = `p.${r.id}`;
      const [width, height] = r.media_formats.gif.dims;
      const gif: Found = {
        id,
        url: gifUrl(id),
        width,
        height,
        alt: (r.content_description ?? '').trim() || 'GIF',
        source: r.media_formats.gif.url,
      };
      remember(gif);
      return gif;
    });
  }
  function remember(gif: Found) {
    known.delete(gif.id);
    known.set(gif.id, { gif, at: now() });
    if (known.size > KEPT_MAX) known.delete(known.keys().next().value!);
  }
  const view = ({ id, url, width, height, alt }: Found): GifResult => ({ id, url, width, height, alt });

  async function lookup(id: string): Promise<Found | undefined> {
    const kept = known.get(id);
    if (kept && now() - kept.at < KEPT_MS) return kept.gif;
    const [found] = await call('/posts', { ids: id.slice(2) });
    return found?.id === id ? found : undefined;
  }

  return {
    isProviderId: (id: string) => id.startsWith('p.'),
    async search(q: string): Promise<GifResult[]> {
      if (!q) return [];
      return (await call('/search', { q, limit: String(GIF_RESULTS), media_filter: 'gif', contentfilter: 'medium' })).map(view);
    },
    async get(id: string): Promise<GifResult | undefined> {
      const g = await lookup(id);
      return g && view(g);
    },
    /** The GIF's bytes, fetched from the provider's media address: a GIF by content, not too large. */
    async file(id: string): Promise<Buffer | undefined> {
      const g = await lookup(id);
      if (!g) return undefined;
      const res = await fetch(g.source, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
      if (!res.ok || Number(res.headers.get('content-length') ?? 0) > GIF_MAX_BYTES) return undefined;
      const bytes = Buffer.from(await res.arrayBuffer());
      const sig = bytes.subarray(0, 6).toString('latin1');
      return bytes.length <= GIF_MAX_BYTES && (sig === 'GIF87a' || sig === 'GIF89a') ? bytes : undefined;
    },
  };
}
export type GifProvider = ReturnType<typeof gifProvider>;
