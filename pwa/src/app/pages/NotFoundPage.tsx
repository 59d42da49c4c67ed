import { Link } from 'react-router-dom';
import { focusRing } from '../../components/FormField';
import { DocumentTitle } from '../../components/DocumentTitle';
import { AppHeader } from '../../components/layout/AppHeader';

/** Any path the app does not know (an error page). */
export default function NotFoundPage() {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <AppHeader />
      <main id="main" className="flex flex-1 flex-col items-center justify-center gap-4 px-4 py-10 text-center">
        <DocumentTitle title="Page not found · Parley" />
        <p className="text-6xl font-black text-indigo-700">404</p>
        <h1 className="text-2xl font-bold text-slate-900">We couldn&apos;t find that page</h1>
        <p className="max-w-md text-slate-700">
          The link may be broken, or the page may have moved. Let&apos;s get you back to meeting people.
        </p>
        <Link to="/" className={`rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 ${focusRing}`}>
          Back to the home page
        </Link>
      </main>
    </div>
  );
}
