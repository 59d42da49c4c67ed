import { Link } from 'react-router-dom';
import { focusRing } from '../../components/ui/buttonStyles';
import { DocumentTitle } from '../../components/DocumentTitle';
import { AppHeader } from '../../components/layout/AppHeader';
import { Trans, useLingui } from '@lingui/react/macro';

/** Any path the app does not know (an error page). */
export default function NotFoundPage() {
  const { t } = useLingui();
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <AppHeader />
      <main id="main" className="flex flex-1 flex-col items-center justify-center gap-4 px-4 py-10 text-center">
        <DocumentTitle title={t`Page not found · Parley`} />
        <p className="text-6xl font-black text-indigo-700">404</p>
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>We couldn&apos;t find that page</Trans>
        </h1>
        <p className="max-w-md text-slate-700">
          <Trans>The link may be broken, or the page may have moved. Let&apos;s get you back to meeting people.</Trans>
        </p>
        <Link to="/" className={`rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 ${focusRing}`}>
          <Trans>Back to the home page</Trans>
        </Link>
      </main>
    </div>
  );
}
