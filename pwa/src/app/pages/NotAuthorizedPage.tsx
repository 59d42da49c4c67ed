import { Link } from 'react-router-dom';
import { focusRing } from '../../components/ui/buttonStyles';
import { DocumentTitle } from '../../components/DocumentTitle';
import { Trans, useLingui } from '@lingui/react/macro';

/** Shown when a signed-in account may not open something (a banned room, a premium area, …). */
export default function NotAuthorizedPage() {
  const { t } = useLingui();
  return (
    <main id="main" className="flex min-h-frame flex-col items-center justify-center gap-4 bg-slate-50 px-4 text-center">
      <DocumentTitle title={t`Not authorized · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>You can&apos;t open this page</Trans>
      </h1>
      <p className="max-w-md text-slate-700">
        <Trans>
          Your account doesn&apos;t have access to it. If you were signed out, log in again; if you think this is a mistake, our support
          team can look into it.
        </Trans>
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/" className={`rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 ${focusRing}`}>
          <Trans>Back to the home page</Trans>
        </Link>
        <Link
          to="/contact-support"
          className={`rounded-lg border border-slate-400 px-4 py-2.5 font-semibold text-slate-800 hover:bg-slate-100 ${focusRing}`}
        >
          <Trans>Contact support</Trans>
        </Link>
      </div>
    </main>
  );
}
