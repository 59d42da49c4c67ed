import { Link } from 'react-router-dom';
import { focusRing } from '../../components/FormField';
import { useLiveStreamsQuery } from './liveApi';

const SHOWN = 3;

/** The dashboard's "live now": the most watched streams, and the way to all of them or to go live. */
export default function LiveNowSection() {
  const { data, isError } = useLiveStreamsQuery({});
  if (isError) return <p className="text-sm text-slate-700">Live streams could not be loaded. Check your connection.</p>;
  if (!data) return <p className="text-sm text-slate-700">Loading Content...</p>;
  const top = data.streams.slice(0, SHOWN);
  return (
    <div className="grid gap-2">
      {top.length === 0 ? (
        <p className="text-sm text-slate-700">Nobody is live right now.</p>
      ) : (
        <ul className="grid gap-1" aria-label="Streams live now">
          {top.map((s) => (
            <li key={s.roomId}>
              <Link to={`/livestream/${s.roomId}`} className={`text-base text-slate-900 underline-offset-2 hover:underline ${focusRing}`}>
                <strong>{s.title}</strong> · {s.broadcaster.username} · {s.viewers} watching
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link to="/livestream" className={`font-semibold text-indigo-800 underline underline-offset-2 ${focusRing}`}>
        All streams, or go live
      </Link>
    </div>
  );
}
