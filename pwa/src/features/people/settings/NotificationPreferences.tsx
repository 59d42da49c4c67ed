import { useEffect, useId, useState } from 'react';
import { NOTIFICATION_KINDS, type NotificationKind } from '@parley/contract/notifications';
import type { Settings } from '@parley/contract/people';
import { TextField } from '../../../components/ui/Field';
import { describeApiError } from '../../../lib/apiError';
import {
  currentPushSubscription,
  disablePush,
  enablePush,
  PushSetupError,
  pushSupport,
  type PushCall,
  type PushFailure,
} from '../../../lib/push';
import { toast } from '../../../lib/toast';
import { useGetStreakRemindersQuery, usePushDeviceMutation, useSetStreakRemindersMutation, useUpdateSettingsMutation } from '../peopleApi';
import { secondaryButton, smallPrimary } from '../components/Section';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const KIND_LABELS: Record<NotificationKind, MessageDescriptor> = {
  friendRequest: msg`Friend requests`,
  friendAccepted: msg`Accepted friend requests`,
  directMessage: msg`Direct messages`,
  mention: msg`Mentions in group rooms`,
  threadReply: msg`Replies in threads you follow`,
  missionReminder: msg`Streak reminders`,
  levelUp: msg`Level-ups`,
  moderation: msg`Moderation outcomes`,
  wentLive: msg`People you follow going live`,
  supportReply: msg`Replies from support`,
  signIn: msg`Sign-ins from a new device`,
};

/** Per kind: in the app, and as a push on this device; quiet hours; turning push on for this device. */
export function NotificationPreferences({ settings }: { settings: Settings }) {
  const [save] = useUpdateSettingsMutation();
  const [pushDevice] = usePushDeviceMutation();
  const [pushOn, setPushOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  // What turning push on or off is doing now, or how it ended: said beside the button, not only in a toast.
  const [status, setStatus] = useState('');
  const support = pushSupport();
  const quiet = settings.quietHours;
  const { i18n, t } = useLingui();
  const statusId = useId();

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
    if ('error' in r) toast({ title: t`Not saved`, description: describeApiError(r.error), variant: 'error' });
  };
  const setKind = (kind: NotificationKind, channel: 'inApp' | 'push', on: boolean) =>
    void update({ notifications: { ...settings.notifications, [kind]: { ...settings.notifications[kind], [channel]: on } } });

  async function togglePush() {
    setBusy(true);
    try {
      if (pushOn) {
        setStatus(t`Turning off…`);
        await disablePush(call);
        setPushOn(false);
        setStatus(t`Off on this device.`);
      } else {
        const answer = await enablePush(call, (step) =>
          setStatus(
            step === 'permission'
              ? t`Waiting for your answer to the browser's question…`
              : step === 'subscribing'
                ? t`Asking your browser's push service for an address…`
                : t`Registering this device with Parley…`,
          ),
        );
        if (answer === 'enabled') {
          setPushOn(true);
          setStatus(t`On for this device.`);
          toast({ title: t`Notifications are on`, description: t`This device will show Parley notifications while the app is closed.` });
        } else {
          setStatus(t`Blocked: allow notifications for Parley in your browser's site settings, then try again.`);
          toast({
            title: t`Notifications are blocked`,
            description: t`Allow notifications for Parley in your browser's site settings, then try again.`,
            variant: 'error',
          });
        }
      }
    } catch (err) {
      const why = pushFailureText(err instanceof PushSetupError ? err.reason : null);
      setStatus(why);
      toast({ title: t`Could not turn on notifications`, description: why, variant: 'error' });
    } finally {
      setBusy(false);
    }
  }

  /** What went wrong, in words (never the browser's own error text). */
  function pushFailureText(reason: PushFailure | null): string {
    switch (reason) {
      case 'noWorker':
        return t`This browser window cannot run Parley in the background (a private window, or an extension blocking it). Open Parley in a normal window, or install it, and try again.`;
      case 'pushService':
        return t`Your browser's push service did not answer. Some browsers have no push service (or it is turned off in their settings); try again later or in another browser.`;
      case 'server':
        return t`Parley's server did not accept this device. Try again in a moment.`;
      case 'offline':
        return t`Parley's server could not be reached. Check your connection and try again.`;
      default:
        return t`Something went wrong. Try again.`;
    }
  }

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold text-slate-800">
          <Trans>Push notifications on this device</Trans>
        </h3>
        {support === 'needsInstall' ? (
          <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
            <Trans>
              On iPhone and iPad, notifications need Parley on your Home Screen (iOS 16.4 or later): tap Share, then “Add to Home Screen”,
              open Parley from there and turn them on here.
            </Trans>
          </p>
        ) : support === 'unsupported' ? (
          <p className="text-sm text-slate-700">
            <Trans>This browser cannot show notifications while Parley is closed.</Trans>
          </p>
        ) : (
          <div className="grid justify-items-start gap-2">
            <button
              type="button"
              className={pushOn ? secondaryButton : smallPrimary}
              disabled={busy || pushOn === null}
              aria-describedby={statusId}
              onClick={() => void togglePush()}
            >
              {pushOn ? t`Turn off on this device` : t`Turn on for this device`}
            </button>
            <p id={statusId} role="status" className="text-sm text-slate-700">
              {status}
            </p>
          </div>
        )}
      </div>
      <table className="w-full text-start text-sm">
        <caption className="sr-only">
          <Trans>What you are told about, and how</Trans>
        </caption>
        <thead>
          <tr className="text-slate-800">
            <th scope="col" className="py-2 font-semibold">
              <Trans>Kind</Trans>
            </th>
            <th scope="col" className="py-2 text-center font-semibold">
              <Trans>In the app</Trans>
            </th>
            <th scope="col" className="py-2 text-center font-semibold">
              <Trans>Push</Trans>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {NOTIFICATION_KINDS.map((k) => (
            <tr key={k}>
              <th scope="row" className="py-2 font-normal text-slate-900">
                {i18n._(KIND_LABELS[k])}
              </th>
              {(['inApp', 'push'] as const).map((channel) => (
                <td key={channel} className="py-1 text-center">
                  <input
                    type="checkbox"
                    className="size-6 accent-indigo-700"
                    aria-label={channel === 'inApp' ? t`${i18n._(KIND_LABELS[k])}: in the app` : t`${i18n._(KIND_LABELS[k])}: push`}
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
        <legend className="text-sm font-semibold text-slate-800">
          <Trans>Quiet hours (no push, the app still keeps them)</Trans>
        </legend>
        <label className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-900">
          <input
            type="checkbox"
            className="size-5 accent-indigo-700"
            checked={quiet !== null}
            onChange={(e) => void update({ quietHours: e.target.checked ? { start: '22:00', end: '07:00', timeZone: zone } : null })}
          />
          <Trans>Quiet hours</Trans>
        </label>
        {quiet && (
          <div className="grid grid-cols-2 gap-3">
            <TextField
              label={t`From`}
              type="time"
              value={quiet.start}
              onChange={(e) => e.target.value && void update({ quietHours: { ...quiet, start: e.target.value } })}
            />
            <TextField
              label={t`Until`}
              type="time"
              value={quiet.end}
              onChange={(e) => e.target.value && void update({ quietHours: { ...quiet, end: e.target.value } })}
            />
            <p className="col-span-2 text-xs text-slate-700">
              <Trans>Time zone: {quiet.timeZone}</Trans>
            </p>
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
  const { t } = useLingui();
  if (on === undefined) return null;
  return (
    <label className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-900">
      <input
        type="checkbox"
        className="size-5 accent-indigo-700"
        checked={on}
        onChange={(e) =>
          void save(e.target.checked).then(
            (r) => 'error' in r && toast({ title: t`Not saved`, description: describeApiError(r.error), variant: 'error' }),
          )
        }
      />
      <Trans>Remind me to keep my streak: at most once a day, never in quiet hours</Trans>
    </label>
  );
}
