import { useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { emojiImagePath, ITEM_KINDS, type ItemKind, type StoreItem } from '@parley/contract/shop';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/ui/buttonStyles';
import { inputClass } from '../../components/ui/Field';
import { describeApiError } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { CustomEmojiSection } from './CustomEmojiSection';
import { useBuyItemMutation, useStoreItemsQuery } from './shopApi';
import { useAppSelector } from '../../store/hooks';
import { itemDescription, itemName, kindLabel } from './storeWords';
import { Plural, Trans, useLingui } from '@lingui/react/macro';

function Item({ item, gold }: { item: StoreItem; gold: number }) {
  const [buy, { isLoading }] = useBuyItemMutation();
  // One tap's key: a retry of the same tap is answered with the first result, never charged twice.
  const attempt = useRef(crypto.randomUUID());
  const { t } = useLingui();
  const name = itemName(item);
  const price = item.price;
  async function onBuy() {
    const r = await buy({ itemId: item.id, idempotencyKey: attempt.current });
    attempt.current = crypto.randomUUID();
    if ('error' in r && r.error) {
      toast({ title: t`Not bought`, description: describeApiError(r.error), variant: 'error' });
      return;
    }
    const left = r.data.gold;
    toast({
      title: t`${name} is yours`,
      description:
        item.kind === 'emojiPack'
          ? t`Find its emoji in the chat’s emoji picker. ${left} gold left.`
          : item.kind === 'stickerPack'
            ? t`Find its stickers beside the emoji in direct messages and group rooms. ${left} gold left.`
            : t`${left} gold left.`,
    });
  }
  const short = gold < item.price;
  const missing = item.price - gold;
  return (
    <li className="flex flex-col gap-3 rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <div className="flex items-center gap-3">
        <img src={item.imageUrl} alt="" width={48} height={48} className="size-12 shrink-0" />
        <div className="min-w-0">
          <h2 className="font-semibold text-slate-950">{name}</h2>
          <p className="text-sm text-slate-700">{kindLabel(item.kind)}</p>
        </div>
      </div>
      <p className="text-sm text-slate-800">{itemDescription(item)}</p>
      {item.emoji.length > 0 && (
        <ul aria-label={t`Emoji in ${name}`} className="flex flex-wrap gap-1">
          {item.emoji.map((e) => (
            <li key={e}>
              <img src={emojiImagePath(e)} alt={`:${e}:`} title={`:${e}:`} width={28} height={28} className="size-7" />
            </li>
          ))}
        </ul>
      )}
      <div className="mt-auto flex items-center justify-between gap-2">
        <p className="font-semibold text-amber-900">
          <Plural value={price} one="# gold" other="# gold" />
        </p>
        {item.owned ? (
          <p className="rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900">
            <Trans>Owned</Trans>
          </p>
        ) : (
          <button
            type="button"
            disabled={isLoading}
            onClick={() => void onBuy()}
            aria-label={t`Buy ${name} for ${price} gold`}
            aria-describedby={short ? `${item.id}-short` : undefined}
            className={`min-h-11 rounded-lg bg-indigo-700 px-4 text-sm font-semibold text-white hover:bg-indigo-800 disabled:opacity-60 ${focusRing}`}
          >
            <Trans>Buy</Trans>
          </button>
        )}
      </div>
      {!item.owned && short && (
        <p id={`${item.id}-short`} className="text-xs text-slate-700">
          <Trans>{missing} more gold needed</Trans>
        </p>
      )}
    </li>
  );
}

/** /store: items bought with gold, searchable and by category; what the user owns is marked. */
export default function StorePage() {
  const searchId = useId();
  const [q, setQ] = useState('');
  const [kind, setKind] = useState<ItemKind | ''>('');
  const query = { ...(q.trim() && { q: q.trim().slice(0, 40) }), ...(kind && { kind }) };
  const { data, error, isFetching } = useStoreItemsQuery(query);
  // The gold as the missions and the purchases answered it (the missions feature keeps it).
  const gold = useAppSelector((s) => s.mission.gold);
  const { t } = useLingui();
  const count = data?.length ?? 0;
  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Store · Parley`} />
      <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 md:py-12">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl">
            <Trans>Store</Trans>
          </h1>
          <p className="text-lg font-semibold text-amber-900" data-testid="store-gold">
            <span aria-hidden="true">🪙 </span>
            <Plural value={gold} one="# gold" other="# gold" /> ·{' '}
            <Link to="/missions" className={`text-base text-indigo-700 underline ${focusRing}`}>
              <Trans>Earn more</Trans>
            </Link>
          </p>
        </div>
        <div className="mt-6 grid gap-3 sm:grid-cols-[1fr_auto]">
          <div>
            <label htmlFor={searchId} className="text-sm font-semibold text-slate-900">
              <Trans>Search the store</Trans>
            </label>
            <input
              id={searchId}
              type="search"
              value={q}
              maxLength={40}
              onChange={(e) => setQ(e.target.value)}
              placeholder={t`Emoji, frames, colours…`}
              className={inputClass}
            />
          </div>
        </div>
        <div role="group" aria-label={t`Categories`} className="mt-4 flex flex-wrap gap-2">
          {(['', ...ITEM_KINDS] as const).map((k) => (
            <button
              key={k || 'all'}
              type="button"
              aria-pressed={kind === k}
              onClick={() => setKind(k)}
              className={`min-h-11 rounded-full px-4 text-sm font-semibold ring-1 ${kind === k ? 'bg-indigo-700 text-white ring-indigo-700' : 'bg-white text-slate-900 ring-slate-300'} ${focusRing}`}
            >
              {k ? kindLabel(k) : t`All`}
            </button>
          ))}
        </div>
        {error ? (
          <p role="alert" className="mt-6 text-slate-900">
            {describeApiError(error, t`The store could not be loaded.`)}
          </p>
        ) : (
          <>
            <p role="status" className="sr-only">
              {isFetching ? t`Loading items` : <Plural value={count} one="# item" other="# items" />}
            </p>
            {data && data.length === 0 && (
              <p className="mt-6 text-slate-700">
                <Trans>Nothing matches that search.</Trans>
              </p>
            )}
            <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {data?.map((item) => (
                <Item key={item.id} item={item} gold={gold} />
              ))}
            </ul>
          </>
        )}
        <CustomEmojiSection />
      </div>
    </main>
  );
}
