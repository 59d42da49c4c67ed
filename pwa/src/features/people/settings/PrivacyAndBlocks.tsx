import type { Settings } from '@parley/contract/people';
import { SelectField } from '../../../components/FormField';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useGetBlocksQuery, useUnblockMutation, useUpdateSettingsMutation } from '../peopleApi';
import { PersonRow } from '../components/PersonRow';
import { secondaryButton } from '../components/Section';

/** Who may send me friend requests, and who sees my profile. */
export function PrivacySettings({ settings }: { settings: Settings }) {
  const [save] = useUpdateSettingsMutation();
  const set = async (change: Partial<Settings['privacy']>) => {
    const r = await save({ privacy: { ...settings.privacy, ...change } });
    if ('error' in r) toast({ title: 'Not saved', description: describeApiError(r.error), variant: 'error' });
  };
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField
        label="Who sees my profile"
        value={settings.privacy.profileVisibleTo}
        onChange={(e) => void set({ profileVisibleTo: e.target.value as Settings['privacy']['profileVisibleTo'] })}
      >
        <option value="everyone">Everyone</option>
        <option value="friends">Friends only</option>
      </SelectField>
      <SelectField
        label="Who can send me friend requests"
        value={settings.privacy.friendRequestsFrom}
        onChange={(e) => void set({ friendRequestsFrom: e.target.value as Settings['privacy']['friendRequestsFrom'] })}
      >
        <option value="everyone">Everyone</option>
        <option value="partners">People I chatted with</option>
        <option value="nobody">Nobody</option>
      </SelectField>
    </div>
  );
}

export function BlockedUsers() {
  const { data, isLoading } = useGetBlocksQuery();
  const [unblock] = useUnblockMutation();
  if (isLoading) return <p className="text-sm text-slate-700">Loading Content...</p>;
  if (!data?.length) return <p className="text-sm text-slate-700">You have not blocked anyone.</p>;
  return (
    <ul className="divide-y divide-slate-100" aria-label="Blocked users">
      {data.map((u) => (
        <PersonRow key={u.userId} username={u.username} avatar={u.avatar}>
          <button
            type="button"
            className={secondaryButton}
            onClick={() =>
              void unblock(u.username).then((r) =>
                toast(
                  'error' in r
                    ? { title: 'Not unblocked', description: describeApiError(r.error), variant: 'error' }
                    : { title: `${u.username} is unblocked` },
                ),
              )
            }
          >
            Unblock
          </button>
        </PersonRow>
      ))}
    </ul>
  );
}
