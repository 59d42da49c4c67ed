import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { focusRing } from './buttonStyles';

type Parts = {
  /** Before the text (an avatar, an icon). */
  leading?: ReactNode;
  title: ReactNode;
  /** A second, quieter line. */
  detail?: ReactNode;
  /** After the text (a badge, a time, actions). */
  trailing?: ReactNode;
};

function Body({ leading, title, detail, trailing }: Parts) {
  return (
    <>
      {leading && <span className="shrink-0">{leading}</span>}
      <span className="grid min-w-0 flex-1">
        <span className="truncate font-semibold text-fg">{title}</span>
        {detail && <span className="truncate text-body-sm text-fg-muted">{detail}</span>}
      </span>
      {trailing && <span className="flex shrink-0 items-center gap-2">{trailing}</span>}
    </>
  );
}

const row = 'flex min-h-14 items-center gap-3 rounded-control px-3 py-2';

/**
 * One row of a list (a conversation, a room, a person): what it is at the start, a detail under it,
 * and a count or actions at the end. With `to` the whole row is a link; put it in an <li>.
 */
export function ListRow({ to, state, className = '', ...parts }: Parts & { to?: string; state?: unknown; className?: string }) {
  if (to)
    return (
      <Link to={to} state={state} className={`${row} hover:bg-surface-hover ${focusRing} ${className}`}>
        <Body {...parts} />
      </Link>
    );
  return (
    <div className={`${row} ${className}`}>
      <Body {...parts} />
    </div>
  );
}
