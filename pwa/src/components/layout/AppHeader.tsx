import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { focusRing } from '../ui/buttonStyles';
import { LogoMark } from './Logo';

/**
 * The app's own header on pages outside the landing's top bar (the dashboard, pages still to come,
 * confirming an account): the mark and name, leading `home`, and what the page puts on the right.
 */
export function AppHeader({ home = '/', children }: { home?: string; children?: ReactNode }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-16 max-w-5xl items-center justify-between gap-3 px-4">
        <Link to={home} className={`flex items-center gap-2 rounded-md text-lg font-bold text-slate-900 ${focusRing}`}>
          <LogoMark />
          Parley
        </Link>
        {children && <div className="flex items-center gap-3">{children}</div>}
      </div>
    </header>
  );
}
