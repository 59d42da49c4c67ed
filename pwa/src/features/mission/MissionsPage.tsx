import { Link } from 'react-router-dom';
import { motion } from 'framer-motion';
import type { MissionOverview, MissionQuest } from '@parley/contract/missions';
import { DocumentTitle } from '../../components/DocumentTitle';
import { FullScreenSpinner } from '../../components/FullScreenSpinner';
import { focusRing } from '../../components/FormField';
import { describeApiError } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { useClaimQuestMutation, useMissionsQuery, useSaveMissionSettingsMutation } from './missionApi';
import { StreakCalendar } from './StreakCalendar';

const card = 'rounded-3xl bg-white p-5 ring-1 ring-slate-200 sm:p-6';

/** A labelled bar for XP and quest progress. */
function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const pct = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className="h-3 rounded-full bg-slate-200"
    >
      <div
        className="h-3 rounded-full bg-indigo-700 motion-safe:transition-[width] motion-safe:duration-500"
        style={{ width: `${pct}%` }}
      />
    </div>
  );
}

function Quest({ quest }: { quest: MissionQuest }) {
  const [claim, { isLoading }] = useClaimQuestMutation();
  const done = quest.progress >= quest.target;
  async function onClaim() {
    const r = await claim({ period: quest.period, questId: quest.questId });
    if ('error' in r && r.error) toast({ title: 'Reward not claimed', description: describeApiError(r.error), variant: 'error' });
    else toast({ title: 'Reward claimed', description: `+${quest.xp} XP and +${quest.gold} gold` });
  }
  return (
    <li className="grid gap-2 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-slate-900">{quest.title}</p>
        <p className="text-sm text-slate-700">
          +{quest.xp} XP · +{quest.gold} gold
        </p>
      </div>
      <ProgressBar value={quest.progress} max={quest.target} label={`${quest.title}: ${quest.progress} of ${quest.target}`} />
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm text-slate-700">
          {quest.progress} / {quest.target}
        </p>
        {quest.claimed ? (
          <p className="text-sm font-semibold text-emerald-800">Claimed</p>
        ) : (
          <button
            type="button"
            disabled={!done || isLoading}
            onClick={() => void onClaim()}
            aria-label={done ? `Claim ${quest.gold} gold for “${quest.title}”` : undefined}
            className={`min-h-11 rounded-lg bg-indigo-700 px-4 text-sm font-semibold text-white hover:bg-indigo-800 disabled:bg-slate-300 disabled:text-slate-700 ${focusRing}`}
          >
            {done ? 'Claim' : 'In progress'}
          </button>
        )}
      </div>
    </li>
  );
}

function QuestSection({ id, title, quests, note }: { id: string; title: string; quests: MissionQuest[]; note?: string }) {
  return (
    <section aria-labelledby={`${id}-heading`} className={card}>
      <h2 id={`${id}-heading`} className="text-xl font-bold text-slate-950">
        {title}
      </h2>
      {note && <p className="mt-1 text-sm text-slate-700">{note}</p>}
      <ul className="mt-4 grid gap-3">
        {quests.map((q) => (
          <Quest key={`${q.period}-${q.questId}`} quest={q} />
        ))}
      </ul>
    </section>
  );
}

function Overview({ data }: { data: MissionOverview }) {
  const [saveSettings] = useSaveMissionSettingsMutation();
  const span = data.nextLevelXp - data.levelStartXp;
  const daily = data.quests.filter((q) => q.cadence === 'daily');
  const weekly = data.quests.filter((q) => q.cadence === 'weekly');
  return (
    <div className="grid gap-5">
      <section aria-labelledby="level-heading" className={card}>
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div className="flex items-center gap-4">
            <motion.div
              key={data.level}
              initial={false}
              animate={{ rotate: 0, scale: 1 }}
              className="grid size-16 place-items-center rounded-full bg-indigo-700 text-2xl font-bold text-white"
              aria-hidden="true"
            >
              {data.level}
            </motion.div>
            <div>
              <h2 id="level-heading" className="text-xl font-bold text-slate-950">
                Level {data.level}
              </h2>
              <p className="text-slate-700">
                {data.XP} XP · {data.nextLevel} XP to level {data.level + 1}
              </p>
            </div>
          </div>
          <p className="text-lg font-semibold text-amber-900" data-testid="gold">
            <span aria-hidden="true">🪙 </span>
            {data.gold} gold
          </p>
        </div>
        <div className="mt-4">
          <ProgressBar value={data.XP - data.levelStartXp} max={span} label={`Experience towards level ${data.level + 1}`} />
        </div>
        <p className="mt-3 text-sm text-slate-700">
          Earn XP and gold by chatting: a chat your partner answers, a chat of a minute or more, your daily visit and quests.{' '}
          <Link to="/store" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
            Spend gold in the store
          </Link>
        </p>
      </section>

      <section aria-labelledby="streak-heading" className={card}>
        <h2 id="streak-heading" className="text-xl font-bold text-slate-950">
          <span aria-hidden="true">🔥 </span>
          {data.consecutiveDays === 1 ? '1-day streak' : `${data.consecutiveDays}-day streak`}
        </h2>
        <p className="mt-1 text-slate-700">
          Streak freezes: {data.freezes} of {data.maxFreezes}. You earn one for every 7 days in a row, and a freeze covers a missed day by
          itself.
        </p>
        <StreakCalendar today={data.today} visited={data.parsedDates} frozen={data.frozenDates} />
        <label className="mt-4 flex min-h-11 items-center gap-3 text-slate-900">
          <input
            type="checkbox"
            className="size-5 accent-indigo-700"
            checked={data.settings.streakReminders}
            onChange={(e) => void saveSettings({ streakReminders: e.target.checked })}
          />
          Remind me once a day when my streak is about to end (never between {data.settings.quietFrom}:00 and {data.settings.quietTo}:00)
        </label>
      </section>

      <QuestSection id="daily" title="Today’s quests" quests={daily} note="New quests at midnight where you are." />
      <QuestSection id="weekly" title="This week’s quest" quests={weekly} />

      <section aria-labelledby="rewards-heading" className={card}>
        <h2 id="rewards-heading" className="text-xl font-bold text-slate-950">
          Recent rewards
        </h2>
        {data.recentRewards.length === 0 ? (
          <p className="mt-2 text-slate-700">Nothing yet: start a chat to earn your first XP.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200">
            {data.recentRewards.map((r, i) => (
              <li key={`${r.at}-${i}`} className="flex flex-wrap justify-between gap-2 py-2 text-slate-900">
                <span>{r.label}</span>
                <span className="text-sm text-slate-700">
                  {r.xp > 0 && `+${r.xp} XP`}
                  {r.xp > 0 && r.gold > 0 && ' · '}
                  {r.gold > 0 && `+${r.gold} gold`}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** /missions: level, XP, gold, the daily streak with its calendar, quests and recent rewards. */
export default function MissionsPage() {
  const { data, error, refetch } = useMissionsQuery();
  if (!data && !error) return <FullScreenSpinner />;
  return (
    <main id="main" className="min-h-frame bg-slate-50">
      <DocumentTitle title="Missions · Parley" />
      <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 md:py-12">
        <h1 className="mb-6 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl">Missions</h1>
        {data ? (
          <Overview data={data} />
        ) : (
          <div role="alert" className={card}>
            <p className="text-slate-900">{describeApiError(error, 'Your missions could not be loaded.')}</p>
            <button type="button" onClick={() => void refetch()} className={`mt-3 font-semibold text-indigo-700 underline ${focusRing}`}>
              Try again
            </button>
          </div>
        )}
      </div>
    </main>
  );
}
