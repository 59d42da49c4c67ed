import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { focusRing } from '../FormField';
import { LogoMark } from './Logo';

const navLink = `rounded-lg px-2.5 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100 hover:text-slate-950 ${focusRing}`;

/**
 * The top bar of the signed-in pages: the logo home, the user's own places, and `actions` the
 * app puts at the end (the notification bell). Fits a 390 px screen: the links wrap under the logo.
 */
export function AppBar({ actions }: { actions?: ReactNode }) {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2 sm:px-4">
        <Link to="/dashboard" className={`mr-auto flex items-center gap-2 rounded-lg text-lg font-bold text-slate-900 ${focusRing}`}>
          <LogoMark />
          Parley
        </Link>
        <nav aria-label="Your account" className="flex items-center gap-1">
          <Link to="/profile" className={navLink}>
            Profile
          </Link>
          <Link to="/settingboard" className={navLink}>
            Settings
          </Link>
        </nav>
        {actions}
      </div>
    </header>
  );
}
