import type { Settings } from '@parley/contract/people';
import { SelectField } from '../../../components/ui/Field';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useGetBlocksQuery, useUnblockMutation, useUpdateSettingsMutation } from '../peopleApi';
import { PersonRow } from '../components/PersonRow';
import { secondaryButton } from '../components/Section';
import { Trans, useLingui } from '@lingui/react/macro';

/** Who may send me friend requests, who sees my profile, and whether others see how far I have read. */
export function PrivacySettings({ settings }: { settings: Settings }) {
  const [save] = useUpdateSettingsMutation();
  const { t } = useLingui();
  const set = async (change: Partial<Settings['privacy']>) => {
    const r = await save({ privacy: { ...settings.privacy, ...change } });
    if ('error' in r) toast({ title: t`Not saved`, description: describeApiError(r.error), variant: 'error' });
  };
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField
        label={t`Who sees my profile`}
        value={settings.privacy.profileVisibleTo}
        onChange={(e) => void set({ profileVisibleTo: e.target.value as Settings['privacy']['profileVisibleTo'] })}
      >
        <option value="everyone">{t`Everyone`}</option>
        <option value="friends">{t`Friends only`}</option>
      </SelectField>
      <SelectField
        label={t`Who can send me friend requests`}
        value={settings.privacy.friendRequestsFrom}
        onChange={(e) => void set({ friendRequestsFrom: e.target.value as Settings['privacy']['friendRequestsFrom'] })}
      >
        <option value="everyone">{t`Everyone`}</option>
        <option value="partners">{t`People I chatted with`}</option>
        <option value="nobody">{t`Nobody`}</option>
      </SelectField>
      <div className="grid gap-1 sm:col-span-2">
        <label className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-900">
          <input
            type="checkbox"
            className="size-5 accent-indigo-700"
            aria-describedby="read-receipts-hint"
            checked={settings.privacy.hideReadReceipts}
            onChange={(e) => void set({ hideReadReceipts: e.target.checked })}
          />
          <Trans>Hide my read receipts</Trans>
        </label>
        <p id="read-receipts-hint" className="text-sm text-slate-700">
          <Trans>Others will not see when you have read their messages, and you will not see when they have read yours.</Trans>
        </p>
      </div>
    </div>
  );
}

export function BlockedUsers() {
  const { data, isLoading } = useGetBlocksQuery();
  const [unblock] = useUnblockMutation();
  const { t } = useLingui();
  if (isLoading)
    return (
      <p className="text-sm text-slate-700">
        <Trans>Loading Content...</Trans>
      </p>
    );
  if (!data?.length)
    return (
      <p className="text-sm text-slate-700">
        <Trans>You have not blocked anyone.</Trans>
      </p>
    );
  return (
    <ul className="divide-y divide-slate-100" aria-label={t`Blocked users`}>
      {data.map((u) => (
        <PersonRow key={u.userId} username={u.username} avatar={u.avatar}>
          <button
            type="button"
            className={secondaryButton}
            onClick={() =>
              void unblock(u.username).then((r) =>
                toast(
                  'error' in r
                    ? { title: t`Not unblocked`, description: describeApiError(r.error), variant: 'error' }
                    : { title: t`${u.username} is unblocked` },
                ),
              )
            }
          >
            <Trans>Unblock</Trans>
          </button>
        </PersonRow>
      ))}
    </ul>
  );
}
