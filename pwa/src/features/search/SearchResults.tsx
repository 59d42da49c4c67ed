import { Link } from 'react-router-dom';
import type { SearchHit, SearchHitContent } from '@parley/contract/search';
import { Trans, useLingui } from '@lingui/react/macro';
import { focusRing } from '../../components/ui/buttonStyles';
import { Button } from '../../components/ui/Button';
import { RevealedText } from '../../components/conversation/RevealedText';
import { describeApiError } from '../../lib/apiError';
import { useSearchMessagesQuery, type SearchArgs } from './searchApi';

const dateFormat = { dateStyle: 'medium', timeStyle: 'short' } as const;

/** Where a hit is read in context: its conversation, opened at the message (a thread's reply: its thread, open beside its root). */
function hitPath(h: SearchHit): string {
  const message = h.threadId === undefined ? `?message=${h.messageId}` : `?message=${h.threadId}&thread=${h.threadId}`;
  return h.roomKind === 'direct'
    ? `/messages/${encodeURIComponent(h.roomName)}${message}`
    : `/groupchat/${encodeURIComponent(h.roomId)}${message}`;
}

/** One page of results; the last page offers the next one. */
export function SearchResultsPage({
  args,
  cursor,
  last,
  first,
  onMore,
}: {
  args: SearchArgs;
  cursor: string | undefined;
  last: boolean;
  first: boolean;
  onMore: (next: string) => void;
}) {
  const { t } = useLingui();
  const { data, error, isFetching } = useSearchMessagesQuery({ ...args, cursor });
  if (error)
    return (
      <p role="alert" className="text-body-sm text-danger">
        {describeApiError(error)}
      </p>
    );
  if (!data)
    return isFetching ? (
      <p role="status" className="text-body-sm text-fg-muted">
        <Trans>Searching…</Trans>
      </p>
    ) : null;
  return (
    <>
      {first && (
        <p role="status" className="text-body-sm text-fg-muted">
          {data.hits.length === 0 ? <Trans>No messages found.</Trans> : <Trans>Newest first.</Trans>}
        </p>
      )}
      <ol className="grid gap-2" aria-label={first ? t`Messages found` : t`More messages found`}>
        {data.hits.map((h) => (
          <li key={`${h.roomId}:${h.messageId}`}>
            <Hit hit={h} />
          </li>
        ))}
      </ol>
      {last && data.next && (
        <Button variant="secondary" size="sm" onClick={() => onMore(data.next!)} className="justify-self-center">
          <Trans>More results</Trans>
        </Button>
      )}
    </>
  );
}

function Hit({ hit }: { hit: SearchHit }) {
  const { i18n } = useLingui();
  const where = hit.roomKind === 'direct' ? `@${hit.roomName}` : `# ${hit.roomName}`;
  return (
    <Link
      to={hitPath(hit)}
      data-testid="search-hit"
      className={`block rounded-card border border-line bg-surface p-3 text-fg hover:bg-surface-hover ${focusRing}`}
    >
      <span className="flex flex-wrap items-baseline justify-between gap-x-3 text-body-sm">
        <span className="min-w-0 font-semibold break-words">
          <bdi>{hit.senderName}</bdi> <span className="font-normal text-fg-muted">·</span>{' '}
          <span className="font-normal text-fg-muted">
            {hit.roomKind === 'direct' ? <Trans>with {where}</Trans> : <Trans>in {where}</Trans>}
          </span>
        </span>
        <time dateTime={new Date(hit.sentAt).toISOString()} className="text-fg-subtle">
          {i18n.date(new Date(hit.sentAt), dateFormat)}
        </time>
      </span>
      {hit.content && (
        <span className="mt-1 block text-body-sm font-medium text-fg-muted">
          <ContentLabel content={hit.content} />
        </span>
      )}
      <span dir="auto" className="mt-1 block whitespace-pre-wrap wrap-anywhere">
        {hit.snippet.map((p, i) =>
          p.match ? (
            <mark key={i} className="rounded-sm bg-amber-200 px-0.5 text-slate-950">
              <RevealedText text={p.text} />
            </mark>
          ) : (
            <RevealedText key={i} text={p.text} />
          ),
        )}
      </span>
    </Link>
  );
}

/** What a hit carries besides words: a hit of a picture alone still says what it is. */
function ContentLabel({ content }: { content: SearchHitContent }) {
  switch (content) {
    case 'picture':
      return <Trans>Picture</Trans>;
    case 'voice':
      return <Trans>Voice message</Trans>;
    case 'sticker':
      return <Trans>Sticker</Trans>;
    case 'gif':
      return <Trans>GIF</Trans>;
  }
}
