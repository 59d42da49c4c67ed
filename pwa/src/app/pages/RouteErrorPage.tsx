import { Link } from 'react-router-dom';
import { focusRing } from '../../components/ui/buttonStyles';
import { Trans } from '@lingui/react/macro';

/** A page that failed to load or render: say so plainly and offer a way on. */
export default function RouteErrorPage() {
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-slate-50 px-4 text-center">
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>This page could not open</Trans>
      </h1>
      <p className="max-w-md text-slate-700">
        {offline ? (
          <Trans>You are offline and this page was not saved on your device yet. Connect and try again.</Trans>
        ) : (
          <Trans>Something went wrong while loading it. Reloading usually fixes this.</Trans>
        )}
      </p>
      <div className="flex gap-3">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className={`rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 ${focusRing}`}
        >
          <Trans>Reload</Trans>
        </button>
        <Link
          to="/"
          reloadDocument
          className={`rounded-lg border border-slate-400 px-4 py-2.5 font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`}
        >
          <Trans>Home page</Trans>
        </Link>
      </div>
    </main>
  );
}
