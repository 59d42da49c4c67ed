import { Link } from 'react-router-dom';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/FormField';
import { AppHeader } from '../../components/layout/AppHeader';

/** A room that cannot be opened says why and where to go, in the app's frame, rather than leaving a blank screen. */
export function RoomProblem({ title, message }: { title: string; message: string }) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <AppHeader home="/dashboard" />
      <main id="main" className="flex flex-1 flex-col items-center justify-center gap-4 px-4 text-center">
        <DocumentTitle title={`${title} · Parley`} />
        <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
        <p className="max-w-md text-slate-700">{message}</p>
        <Link to="/groupchat" className={`rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 ${focusRing}`}>
          Find another room
        </Link>
      </main>
    </div>
  );
}
