import { Link } from 'react-router-dom';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/FormField';

/** A room that cannot be opened says why and where to go, rather than leaving a blank screen. */
export function RoomProblem({ title, message }: { title: string; message: string }) {
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-slate-50 px-4 text-center">
      <DocumentTitle title={`${title} · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      <p className="max-w-md text-slate-700">{message}</p>
      <Link to="/groupchat" className={`rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 ${focusRing}`}>
        Find another room
      </Link>
    </main>
  );
}
