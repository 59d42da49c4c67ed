import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { focusRing } from '../../components/FormField';

/** The top line of the group chat pages: the way back and the page's name. */
export function PageHeader({ back, backLabel, title, children }: { back: string; backLabel: string; title: string; children?: ReactNode }) {
  return (
    <header className="flex shrink-0 flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-white px-3 py-2 sm:px-4">
      <div className="flex min-w-0 items-center gap-3">
        <Link to={back} className={`shrink-0 rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:underline ${focusRing}`}>
          <span aria-hidden="true">← </span>
          {backLabel}
        </Link>
        <h1 className="truncate text-lg font-bold text-slate-900">{title}</h1>
      </div>
      {children}
    </header>
  );
}
