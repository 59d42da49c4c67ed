import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { focusRing } from './buttonStyles';

/**
 * A page's own line under the app's top bar: the way back, the page's title (its h1) and what the
 * page puts at the end. It goes inside the page's <main>: the app's top bar is the one banner.
 */
export function PageHeader({
  back,
  backLabel,
  title,
  leading,
  note,
  children,
}: {
  back?: string;
  backLabel?: string;
  title: ReactNode;
  /** Before the title, after the way back (an avatar). */
  leading?: ReactNode;
  /** A short word after the title, outside it (online, offline). */
  note?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-surface px-3 py-2 sm:px-4">
      {/* The title keeps room for a short name; the page's actions go to a row of their own before it breaks. */}
      <div className="flex min-w-[min(100%,15rem)] flex-1 items-center gap-2">
        {back && (
          <Link
            to={back}
            className={`shrink-0 rounded-control px-2 py-1 text-body-sm font-medium text-accent-text hover:underline ${focusRing}`}
          >
            {/* An arrow that points back: the other way in a right-to-left language. */}
            <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
              ←
            </span>{' '}
            {backLabel}
          </Link>
        )}
        {leading && <span className="shrink-0">{leading}</span>}
        <h1 className="min-w-0 text-title font-bold break-words text-fg">{title}</h1>
        {note && <span className="shrink-0 text-body-sm text-fg-subtle">{note}</span>}
      </div>
      {children && <div className="flex flex-wrap items-center gap-2">{children}</div>}
    </header>
  );
}
