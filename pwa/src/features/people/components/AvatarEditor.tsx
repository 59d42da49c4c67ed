import { useRef, useState } from 'react';
import { IMAGE_MAX_BYTES, IMAGE_TYPES, type OwnProfile } from '@parley/contract/people';
import { Avatar } from '../../../components/Avatar';
import { describeApiError } from '../../../lib/apiError';
import { toast } from '../../../lib/toast';
import { useRemoveAvatarMutation, useUploadAvatarMutation } from '../peopleApi';
import { secondaryButton, smallPrimary } from './Section';
import { Trans, useLingui } from '@lingui/react/macro';

/** Choose a photo: checked here for size, then resized and stripped of its metadata by the server. */
export function AvatarEditor({ profile }: { profile: OwnProfile }) {
  const input = useRef<HTMLInputElement>(null);
  const [upload, { isLoading }] = useUploadAvatarMutation();
  const [remove, { isLoading: removing }] = useRemoveAvatarMutation();
  const [error, setError] = useState('');
  const { t } = useLingui();

  async function onFile(file: File | undefined) {
    setError('');
    if (!file) return;
    if (file.size > IMAGE_MAX_BYTES) return setError(t`That file is larger than 10 MB. Choose a smaller photo.`);
    const result = await upload(file);
    if ('error' in result) setError(describeApiError(result.error));
    else toast({ title: t`Avatar updated`, description: t`This is the picture others see now.` });
    if (input.current) input.current.value = '';
  }

  return (
    <div className="flex flex-wrap items-center gap-4">
      <Avatar name={profile.username} src={profile.avatar} size={96} />
      <div className="grid gap-2">
        <input
          ref={input}
          id="avatar-file"
          type="file"
          accept={[...IMAGE_TYPES, '.heic', '.heif'].join(',')}
          className="sr-only"
          onChange={(e) => void onFile(e.target.files?.[0])}
          aria-describedby="avatar-hint"
        />
        <div className="flex flex-wrap gap-2">
          <label htmlFor="avatar-file" className={`${smallPrimary} cursor-pointer`} aria-disabled={isLoading}>
            {isLoading ? t`Uploading…` : t`Upload a photo`}
          </label>
          {profile.avatar && (
            <button type="button" className={secondaryButton} disabled={removing} onClick={() => void remove()}>
              <Trans>Remove</Trans>
            </button>
          )}
        </div>
        <p id="avatar-hint" className="text-xs text-slate-700">
          <Trans>JPEG, PNG, WebP or HEIC, up to 10 MB. Location and camera details are removed.</Trans>
        </p>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
