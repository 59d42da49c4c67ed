import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { GIF_ID, GIF_RESULTS, gifUrl, type GifResult } from '@parley/contract/media';

/** A GIF larger than this is left out of the library (a chat GIF, not a film). */
export const GIF_MAX_BYTES = 8 * 1024 * 1024;
/** The folder is read again at most this often, so GIFs the operator adds appear without a restart. */
const RESCAN_MS = 60_000;

type Gif = GifResult & { file: string; tags: string[]; mtime: number };

/** Width and height from a GIF's logical screen descriptor; undefined when the file is not a GIF. */
function gifSize(head: Buffer): { width: number; height: number } | undefined {
  const sig = head.subarray(0, 6).toString('latin1');
  if (sig !== 'GIF87a' && sig !== 'GIF89a') return undefined;
  const width = head.readUInt16LE(6);
  const height = head.readUInt16LE(8);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** A file name's own words (`happy-cat_dance.gif` → happy, cat, dance), lower case. */
const nameTags = (id: string) => id.split(/[-_]+/).filter(Boolean);

/**
 * The operator's GIF library: the `.gif` files of one folder, each tagged by the words of its name
 * and, optionally, by `tags.json` beside them (`{ "file.gif": ["tag", …] }`). Only files that are
 * GIFs by their first bytes, named as a GIF id allows and not too large, are listed; ids are the
 * names without `.gif`, so a request can never name a file outside the folder.
 */
export function gifLibrary(dir: string | undefined, now = Date.now) {
  let gifs = new Map<string, Gif>();
  let scannedAt = -Infinity;
  let scanning: Promise<void> | undefined;

  async function scan() {
    if (!dir) return;
    const next = new Map<string, Gif>();
    // tags.json is optional; a missing or unreadable one tags by names alone.
    const parsed: unknown = await readFile(path.join(dir, 'tags.json'), 'utf8')
      .then(
        (text) => JSON.parse(text) as unknown,
        () => undefined,
      )
      .catch(() => undefined);
    const extra = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.toLowerCase().endsWith('.gif')) continue;
      const id = name.slice(0, -4).toLowerCase();
      if (!GIF_ID.test(id)) continue;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || info.size > GIF_MAX_BYTES) continue;
      const head = Buffer.alloc(10);
      const fh = await open(file, 'r').catch(() => undefined);
      if (!fh) continue;
      try {
        await fh.read(head, 0, 10, 0);
      } finally {
        await fh.close();
      }
      const size = gifSize(head);
      if (!size) continue;
      const listed = extra[name];
      const tags = new Set(nameTags(id));
      if (Array.isArray(listed))
        for (const t of listed) if (typeof t === 'string' && t.trim()) tags.add(t.trim().toLowerCase().slice(0, 40));
      next.set(id, { id, url: gifUrl(id), ...size, alt: [...tags].join(' '), file, tags: [...tags], mtime: info.mtimeMs });
    }
    gifs = next;
    scannedAt = now();
  }

  async function current() {
    if (now() - scannedAt > RESCAN_MS) await (scanning ??= scan().finally(() => (scanning = undefined)));
    return gifs;
  }

  const view = ({ id, url, width, height, alt }: Gif): GifResult => ({ id, url, width, height, alt });

  return {
    configured: dir !== undefined,
    /** GIFs with a tag starting with each word of `q` (all of them without `q`), newest files first. */
    async search(q: string | undefined): Promise<GifResult[]> {
      const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const all = [...(await current()).values()].sort((a, b) => b.mtime - a.mtime || a.id.localeCompare(b.id));
      const hits = all.filter((g) => words.every((w) => g.tags.some((t) => t.startsWith(w))));
      return hits.slice(0, GIF_RESULTS).map(view);
    },
    /** One GIF of the library, or undefined. */
    async get(id: string): Promise<GifResult | undefined> {
      const g = (await current()).get(id);
      return g && view(g);
    },
    /** Its bytes, for serving. */
    async file(id: string): Promise<Buffer | undefined> {
      const g = (await current()).get(id);
      return g ? readFile(g.file).catch(() => undefined) : undefined;
    },
  };
}
export type GifLibrary = ReturnType<typeof gifLibrary>;
