import { Link } from 'react-router-dom';
import { focusRing } from '../../components/FormField';
import { DocumentTitle } from '../../components/DocumentTitle';
import { AppHeader } from '../../components/layout/AppHeader';

/** The honest page of a route whose feature is not built yet: no invented content. */
export default function NotYetAvailablePage({ feature }: { feature: string }) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <AppHeader home="/dashboard" />
      <main id="main" className="flex flex-1 flex-col items-center justify-center gap-4 px-4 py-10 text-center">
        <DocumentTitle title={`${feature} · Parley`} />
        <h1 className="text-2xl font-bold text-slate-900">{feature} is not available yet</h1>
        <p className="max-w-md text-slate-700">
          We are still building this part of Parley. Text chat and video chat already work; try them in the meantime.
        </p>
        <Link to="/dashboard" className={`rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 ${focusRing}`}>
          Back to the dashboard
        </Link>
      </main>
    </div>
  );
}
