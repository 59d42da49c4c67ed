import { useEffect, useState } from 'react';
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, type NotificationKind } from '@parley/contract/notifications';
import type { Settings } from '@parley/contract/people';
import { TextField } from '../../../components/FormField';
import { describeApiError } from '../../../lib/apiError';
import { currentPushSubscription, disablePush, enablePush, pushSupport, type PushCall } from '../../../lib/push';
import { toast } from '../../../lib/toast';
import { useGetStreakRemindersQuery, usePushDeviceMutation, useSetStreakRemindersMutation, useUpdateSettingsMutation } from '../peopleApi';
import { secondaryButton, smallPrimary } from '../components/Section';

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Per kind: in the app, and as a push on this device; quiet hours; turning push on for this device. */
export function NotificationPreferences({ settings }: { settings: Settings }) {
  const [save] = useUpdateSettingsMutation();
  const [pushDevice] = usePushDeviceMutation();
  const [pushOn, setPushOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const support = pushSupport();
  const quiet = settings.quietHours;

  useEffect(() => {
    void currentPushSubscription().then(
      (s) => setPushOn(s !== null),
      () => setPushOn(false),
    );
  }, []);

  const call: PushCall = async (url, body) => {
    const r = await pushDevice({ action: url.endsWith('/unsubscribe') ? 'unsubscribe' : 'subscriptions', body });
    return { ok: !('error' in r) };
  };
  const update = async (change: Partial<Settings>) => {
    const r = await save(change);
    if ('error' in r) toast({ title: 'Not saved', description: describeApiError(r.error), variant: 'error' });
  };
  const setKind = (kind: NotificationKind, channel: 'inApp' | 'push', on: boolean) =>
    void update({ notifications: { ...settings.notifications, [kind]: { ...settings.notifications[kind], [channel]: on } } });

  async function togglePush() {
    setBusy(true);
    try {
      if (pushOn) {
        await disablePush(call);
        setPushOn(false);
      } else if ((await enablePush(call)) === 'enabled') {
        setPushOn(true);
        toast({ title: 'Notifications are on', description: 'This device will show Parley notifications while the app is closed.' });
      } else
        toast({
          title: 'Notifications are blocked',
          description: "Allow notifications for Parley in your browser's site settings, then try again.",
          variant: 'error',
        });
    } catch (err) {
      toast({ title: 'Could not turn on notifications', description: err instanceof Error ? err.message : 'Try again.', variant: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold text-slate-800">Push notifications on this device</h3>
        {support === 'needsInstall' ? (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
            On iPhone and iPad, notifications need Parley on your Home Screen (iOS 16.4 or later): tap Share, then “Add to Home Screen”,
            open Parley from there and turn them on here.
          </p>
        ) : support === 'unsupported' ? (
          <p className="text-sm text-slate-700">This browser cannot show notifications while Parley is closed.</p>
        ) : (
          <div>
            <button
              type="button"
              className={pushOn ? secondaryButton : smallPrimary}
              disabled={busy || pushOn === null}
              onClick={() => void togglePush()}
            >
              {pushOn ? 'Turn off on this device' : 'Turn on for this device'}
            </button>
          </div>
        )}
      </div>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">What you are told about, and how</caption>
        <thead>
          <tr className="text-slate-800">
            <th scope="col" className="py-2 font-semibold">
              Kind
            </th>
            <th scope="col" className="py-2 text-center font-semibold">
              In the app
            </th>
            <th scope="col" className="py-2 text-center font-semibold">
              Push
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {NOTIFICATION_KINDS.map((k) => (
            <tr key={k}>
              <th scope="row" className="py-2 font-normal text-slate-900">
                {NOTIFICATION_KIND_LABELS[k]}
              </th>
              {(['inApp', 'push'] as const).map((channel) => (
                <td key={channel} className="py-1 text-center">
                  <input
                    type="checkbox"
                    className="size-6 accent-indigo-700"
                    aria-label={`${NOTIFICATION_KIND_LABELS[k]}: ${channel === 'inApp' ? 'in the app' : 'push'}`}
                    checked={settings.notifications[k][channel]}
                    onChange={(e) => setKind(k, channel, e.target.checked)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <StreakReminderSwitch />
      <fieldset className="grid gap-3">
        <legend className="text-sm font-semibold text-slate-800">Quiet hours (no push, the app still keeps them)</legend>
        <label className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-900">
          <input
            type="checkbox"
            className="size-5 accent-indigo-700"
            checked={quiet !== null}
            onChange={(e) => void update({ quietHours: e.target.checked ? { start: '22:00', end: '07:00', timeZone: zone } : null })}
          />
          Quiet hours
        </label>
        {quiet && (
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label="From"
              type="time"
              value={quiet.start}
              onChange={(e) => e.target.value && void update({ quietHours: { ...quiet, start: e.target.value } })}
            />
            <TextField
              label="Until"
              type="time"
              value={quiet.end}
              onChange={(e) => e.target.value && void update({ quietHours: { ...quiet, end: e.target.value } })}
            />
            <p className="col-span-2 text-xs text-slate-700">Time zone: {quiet.timeZone}</p>
          </div>
        )}
      </fieldset>
    </div>
  );
}

/** The one switch for streak reminders (the same one /missions shows); they never come in quiet hours. */
function StreakReminderSwitch() {
  const { data: on } = useGetStreakRemindersQuery();
  const [save] = useSetStreakRemindersMutation();
  if (on === undefined) return null;
  return (
    <label className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-900">
      <input
        type="checkbox"
        className="size-5 accent-indigo-700"
        checked={on}
        onChange={(e) =>
          void save(e.target.checked).then(
            (r) => 'error' in r && toast({ title: 'Not saved', description: describeApiError(r.error), variant: 'error' }),
          )
        }
      />
      Remind me to keep my streak: at most once a day, never in quiet hours
    </label>
  );
}
