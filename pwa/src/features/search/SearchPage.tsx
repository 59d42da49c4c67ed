import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Trans, useLingui } from '@lingui/react/macro';
import { SEARCH_TEXT_MAX } from '@parley/contract/search';
import { DocumentTitle } from '../../components/DocumentTitle';
import { PageHeader } from '../../components/ui/PageHeader';
import { Button } from '../../components/ui/Button';
import { inputClass } from '../../components/ui/Field';
import { SearchResultsPage } from './SearchResults';
import type { SearchArgs } from './searchApi';

/** A day picked in a date field (YYYY-MM-DD) as the instant it begins here, `days` later; undefined when none. */
function dayStart(day: string | null, days = 0): string | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (Number.isNaN(d.getTime())) return undefined;
  d.setDate(d.getDate() + days);
  return d.toISOString();
}

/**
 * /search: messages in the user's direct conversations and group rooms: words, who sent them,
 * in which conversation, between which days, with a link. The URL holds the search, so coming
 * back from a message found returns to the same results.
 */
export default function SearchPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const ids = useId();
  const q = params.get('q') ?? '';
  const from = params.get('from') ?? '';
  const roomId = params.get('roomId') ?? '';
  const roomLabel = params.get('room') ?? '';
  const since = params.get('since') ?? '';
  const until = params.get('until') ?? '';
  const hasLink = params.get('hasLink') === 'true';
  const hasPicture = params.get('hasPicture') === 'true';
  const hasVoice = params.get('hasVoice') === 'true';
  const asked = q !== '' || from !== '' || hasLink || hasPicture || hasVoice || since !== '' || until !== '';
  const args: SearchArgs = {
    q,
    from: from || undefined,
    roomId: roomId || undefined,
    after: dayStart(since),
    before: dayStart(until, 1),
    hasLink: hasLink || undefined,
    hasPicture: hasPicture || undefined,
    hasVoice: hasVoice || undefined,
  };
  // Pages shown so far, by where each starts; a new search starts again from the first.
  const key = JSON.stringify(args);
  const [pages, setPages] = useState<{ key: string; cursors: Array<string | undefined> }>({ key, cursors: [undefined] });
  const cursors = pages.key === key ? pages.cursors : [undefined];

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const next = new URLSearchParams();
    for (const name of ['q', 'from', 'since', 'until']) {
      const v = String(f.get(name) ?? '').trim();
      if (v) next.set(name, v);
    }
    for (const flag of ['hasLink', 'hasPicture', 'hasVoice']) if (f.get(flag)) next.set(flag, 'true');
    if (roomId && f.get('onlyHere')) {
      next.set('roomId', roomId);
      if (roomLabel) next.set('room', roomLabel);
    }
    setParams(next);
  }

  const label = 'text-body-sm font-medium text-fg';
  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title={t`Search messages · Parley`} />
      <PageHeader back="/messages" backLabel={t`Messages`} title={t`Search messages`} />
      <div className="mx-auto grid max-w-2xl gap-4 p-3 sm:p-6">
        <form role="search" onSubmit={submit} className="grid gap-3 rounded-card border border-line bg-surface p-3" key={params.toString()}>
          <div className="grid gap-1.5">
            <label htmlFor={`${ids}-q`} className={label}>
              <Trans>Words to find</Trans>
            </label>
            <div className="flex gap-2">
              <input
                id={`${ids}-q`}
                name="q"
                type="search"
                defaultValue={q}
                maxLength={SEARCH_TEXT_MAX}
                autoFocus={!asked}
                className={inputClass}
                enterKeyHint="search"
              />
              <Button type="submit" className="shrink-0">
                <Trans>Search</Trans>
              </Button>
            </div>
          </div>
          <fieldset className="grid gap-3 sm:grid-cols-3">
            <legend className="sr-only">
              <Trans>Filters</Trans>
            </legend>
            <div className="grid gap-1.5">
              <label htmlFor={`${ids}-from`} className={label}>
                <Trans>From (username)</Trans>
              </label>
              <input id={`${ids}-from`} name="from" defaultValue={from} maxLength={20} autoComplete="off" className={inputClass} />
            </div>
            <div className="grid gap-1.5">
              <label htmlFor={`${ids}-since`} className={label}>
                <Trans>Since</Trans>
              </label>
              <input id={`${ids}-since`} name="since" type="date" defaultValue={since} className={inputClass} />
            </div>
            <div className="grid gap-1.5">
              <label htmlFor={`${ids}-until`} className={label}>
                <Trans>Until</Trans>
              </label>
              <input id={`${ids}-until`} name="until" type="date" defaultValue={until} className={inputClass} />
            </div>
          </fieldset>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            <label className="inline-flex min-h-11 items-center gap-2 text-body-sm text-fg">
              <input type="checkbox" name="hasLink" defaultChecked={hasLink} className="size-5" />
              <Trans>Has a link</Trans>
            </label>
            <label className="inline-flex min-h-11 items-center gap-2 text-body-sm text-fg">
              <input type="checkbox" name="hasPicture" defaultChecked={hasPicture} className="size-5" />
              <Trans>Has a picture or GIF</Trans>
            </label>
            <label className="inline-flex min-h-11 items-center gap-2 text-body-sm text-fg">
              <input type="checkbox" name="hasVoice" defaultChecked={hasVoice} className="size-5" />
              <Trans>Has a voice message</Trans>
            </label>
            {roomId && (
              <label className="inline-flex min-h-11 items-center gap-2 text-body-sm text-fg">
                <input type="checkbox" name="onlyHere" defaultChecked className="size-5" />
                {roomLabel ? <Trans>Only in {roomLabel}</Trans> : <Trans>Only in this conversation</Trans>}
              </label>
            )}
          </div>
        </form>
        {asked ? (
          <section aria-label={t`Results`} className="grid gap-3">
            {cursors.map((cursor, i) => (
              <SearchResultsPage
                key={cursor ?? 'first'}
                args={args}
                cursor={cursor}
                first={i === 0}
                last={i === cursors.length - 1}
                onMore={(next) => setPages({ key, cursors: [...cursors, next] })}
              />
            ))}
          </section>
        ) : (
          <p className="text-body-sm text-fg-muted">
            <Trans>Find messages in your direct conversations and the group rooms you are in.</Trans>
          </p>
        )}
      </div>
    </main>
  );
}
