import { Link } from 'react-router-dom';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/ui/buttonStyles';
import { PageHeader } from '../../components/ui/PageHeader';
import { Trans, useLingui } from '@lingui/react/macro';

/** A room that cannot be opened says why and where to go, in the app's frame, rather than leaving a blank screen. */
export function RoomProblem({ title, message }: { title: string; message: string }) {
  const { t } = useLingui();
  return (
    <main id="main" className="flex min-h-frame flex-col bg-slate-50">
      <DocumentTitle title={t`${title} · Parley`} />
      <PageHeader back="/groupchat" backLabel={t`Rooms`} title={title} />
      <div className="flex flex-1 flex-col items-center justify-center gap-4 px-4 text-center">
        <p className="max-w-md text-slate-700">{message}</p>
        <Link to="/groupchat" className={`rounded-lg bg-indigo-700 px-4 py-2.5 font-semibold text-white hover:bg-indigo-800 ${focusRing}`}>
          <Trans>Find another room</Trans>
        </Link>
      </div>
    </main>
  );
}
