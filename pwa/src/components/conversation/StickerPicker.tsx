import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import type { GifResult, GifSearch, MessageMedia, StickerList } from '@parley/contract/media';
import { Trans, useLingui } from '@lingui/react/macro';
import { describeApiError } from '../../lib/apiError';
import { focusRing } from '../ui/buttonStyles';
import { Skeleton } from '../ui/Skeleton';
import { TextField } from '../ui/Field';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/Tabs';
import type { ConversationMedia } from './media';
import { recentFirst, recentOnly, rememberMedia } from './recentMedia';
import { stickerWord } from './stickerWords';

/** A pause in typing this long searches. */
const SEARCH_PAUSE_MS = 300;

type Source = Pick<ConversationMedia, 'stickers' | 'searchGifs'>;

const tile = `grid aspect-square place-items-center overflow-hidden rounded-lg bg-surface-muted hover:bg-surface-hover ${focusRing}`;

/**
 * Stickers and GIFs beside the emoji picker: a sticker or GIF picked is sent at once, as a message
 * of its own. Tabs move with the arrow keys, Escape closes and returns focus to the opener.
 */
export function StickerPicker({
  id,
  source,
  onPick,
  onClose,
}: {
  id: string;
  source: Source;
  onPick: (m: MessageMedia) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);

  function pick(m: MessageMedia) {
    rememberMedia(m);
    onPick(m);
  }
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    onClose();
  }

  return (
    <div
      id={id}
      role="dialog"
      aria-label={t`Stickers and GIFs`}
      onKeyDown={onKeyDown}
      className="absolute end-0 bottom-full z-20 mb-2 w-[min(22rem,calc(100vw-2rem))] rounded-xl border border-line bg-surface p-2 text-fg shadow-xl"
    >
      <Tabs defaultValue="stickers">
        <TabsList aria-label={t`Stickers or GIFs`}>
          <TabsTrigger ref={first} value="stickers">
            <Trans>Stickers</Trans>
          </TabsTrigger>
          <TabsTrigger value="gifs">
            <Trans>GIFs</Trans>
          </TabsTrigger>
        </TabsList>
        <TabsContent value="stickers" className="mt-2 max-h-72 overflow-y-auto">
          <Stickers source={source} onPick={pick} />
        </TabsContent>
        <TabsContent value="gifs" className="mt-2">
          <Gifs source={source} onPick={pick} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function Stickers({ source, onPick }: { source: Source; onPick: (m: MessageMedia) => void }) {
  const { t, i18n } = useLingui();
  const [list, setList] = useState<StickerList | 'failed' | null>(null);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    let live = true;
    source.stickers().then(
      (l) => live && setList(l),
      (err: unknown) => {
        if (!live) return;
        setProblem(describeApiError(err));
        setList('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [source]);

  if (list === null) return <Skeleton className="h-24 w-full" />;
  if (list === 'failed')
    return (
      <p role="alert" className="p-2 text-sm text-danger-text">
        {problem}
      </p>
    );
  const usable = list.packs.filter((p) => p.usable).flatMap((p) => p.stickers);
  const recent = recentOnly(usable, 'sticker').slice(0, 8);
  const send = (s: { id: string; label: string; url: string }) =>
    onPick({ kind: 'sticker', id: s.id, url: s.url, width: 160, height: 160, alt: s.label });
  const grid = (stickers: Array<{ id: string; label: string; url: string }>, usableHere: boolean) => (
    <ul className="grid grid-cols-4 gap-1">
      {stickers.map((s) => {
        const label = stickerWord(i18n, s.id, s.label);
        return (
          <li key={s.id}>
            {usableHere ? (
              <button type="button" aria-label={label} title={label} onClick={() => send(s)} className={`${tile} w-full`}>
                <img src={s.url} alt="" width={64} height={64} className="size-16" />
              </button>
            ) : (
              <img src={s.url} alt={label} width={64} height={64} className="size-16 opacity-60 grayscale" />
            )}
          </li>
        );
      })}
    </ul>
  );
  return (
    <div className="flex flex-col gap-3">
      {recent.length > 0 && (
        <section aria-label={t`Recently used stickers`}>
          <p className="mb-1 text-xs font-semibold text-fg-muted">
            <Trans>Recently used</Trans>
          </p>
          {grid(recent, true)}
        </section>
      )}
      {list.packs.map((p) => {
        const name = stickerWord(i18n, p.id, p.name);
        return (
          <section key={p.id} aria-label={name}>
            <p className="mb-1 text-xs font-semibold text-fg-muted">{name}</p>
            {grid(p.stickers, p.usable)}
            {!p.usable && (
              <p className="mt-1 text-xs text-fg-muted">
                <Trans>
                  Get this pack in the{' '}
                  <Link to="/store" className={`font-semibold text-accent-text underline ${focusRing}`}>
                    store
                  </Link>{' '}
                  to send its stickers.
                </Trans>
              </p>
            )}
          </section>
        );
      })}
    </div>
  );
}

function Gifs({ source, onPick }: { source: Source; onPick: (m: MessageMedia) => void }) {
  const { t } = useLingui();
  const [q, setQ] = useState('');
  const [found, setFound] = useState<{ q: string; answer: GifSearch } | { q: string; problem: string } | null>(null);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () =>
        source.searchGifs(q.trim()).then(
          (answer) => live && setFound({ q, answer }),
          (err: unknown) => live && setFound({ q, problem: describeApiError(err) }),
        ),
      q ? SEARCH_PAUSE_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q, source]);

  const send = (g: GifResult) => onPick({ kind: 'gif', ...g });
  let results;
  if (!found) results = <Skeleton className="h-24 w-full" />;
  else if ('problem' in found)
    results = (
      <p role="alert" className="p-2 text-sm text-danger-text">
        {found.problem}
      </p>
    );
  else if (!found.answer.configured)
    results = (
      <p className="p-2 text-sm text-fg-muted">
        <Trans>This server has no GIF library.</Trans>
      </p>
    );
  else if (found.answer.gifs.length === 0)
    results = (
      <p className="p-2 text-sm text-fg-muted">
        <Trans>No GIFs match that.</Trans>
      </p>
    );
  else
    results = (
      <ul className="grid grid-cols-3 gap-1" aria-label={t`GIFs`} aria-busy={found.q !== q}>
        {recentFirst(found.answer.gifs, 'gif').map((g) => (
          <li key={g.id}>
            <button type="button" aria-label={t`GIF: ${g.alt}`} title={g.alt} onClick={() => send(g)} className={`${tile} w-full`}>
              <img src={g.url} alt="" width={g.width} height={g.height} loading="lazy" className="size-full object-cover" />
            </button>
          </li>
        ))}
      </ul>
    );
  return (
    <div className="flex flex-col gap-2">
      <TextField label={t`Search GIFs`} type="search" value={q} maxLength={40} onChange={(e) => setQ(e.target.value)} />
      <div className="max-h-60 overflow-y-auto">{results}</div>
    </div>
  );
}
