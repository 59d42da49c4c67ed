import { Link } from 'react-router-dom';
import { focusRing } from '../../components/FormField';
import { useMissionsQuery } from './missionApi';

const link = `font-semibold text-indigo-800 underline underline-offset-2 ${focusRing}`;

/** The dashboard's missions section: level, gold, streak and today's quests left, with the way in. */
export default function MissionsSection() {
  const { data, isError } = useMissionsQuery();
  if (isError) return <p className="text-sm text-slate-700">Your missions could not be loaded. Check your connection.</p>;
  if (!data) return <p className="text-sm text-slate-700">Loading Content...</p>;
  const open = data.quests.filter((q) => q.cadence === 'daily' && !q.claimed).length;
  return (
    <div className="grid gap-2 text-base text-slate-800">
      <p>
        Level {data.level} · {data.gold} gold · {data.consecutiveDays}-day streak
      </p>
      <p className="text-sm text-slate-700">{open > 0 ? `${open} of today’s quests left.` : 'Today’s quests are done. Well done!'}</p>
      <p className="flex gap-4">
        <Link to="/missions" className={link}>
          Missions
        </Link>
        <Link to="/store" className={link}>
          Store
        </Link>
      </p>
    </div>
  );
}
