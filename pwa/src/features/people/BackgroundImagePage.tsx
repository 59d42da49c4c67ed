import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from '@parley/contract/people';
import { useIsSignedIn } from '../../store/hooks';
import { DocumentTitle } from '../../components/DocumentTitle';
import { focusRing } from '../../components/ui/buttonStyles';
import { describeApiError } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { useGetBackgroundsQuery, useSetBackgroundMutation, useUploadBackgroundMutation } from './peopleApi';
import { smallPrimary } from './components/Section';
import { Trans, useLingui } from '@lingui/react/macro';

type Choice = { id: string | null; name: string; url: string | null };

/** /backgroundimage: the gallery of chat backgrounds; anyone may browse, saving needs sign-in. */
export default function BackgroundImagePage() {
  const signedIn = useIsSignedIn();
  const { data, isLoading } = useGetBackgroundsQuery();
  const [choose, choosing] = useSetBackgroundMutation();
  const [upload, uploading] = useUploadBackgroundMutation();
  const [error, setError] = useState('');
  const file = useRef<HTMLInputElement>(null);
  const current = data?.current ?? null;
  const { t } = useLingui();
  const choices: Choice[] = [
    { id: null, name: t`No background`, url: null },
    ...(data?.shipped ?? []).map((b) => ({ id: b.id, name: b.name, url: b.url })),
    ...(data?.uploads ?? []).map((u, i) => ({ id: u.id, name: t`Your upload ${i + 1}`, url: u.url })),
  ];

  async function pick(c: Choice) {
    if (!signedIn) return;
    const r = await choose(c.id);
    if ('error' in r) setError(describeApiError(r.error));
    else toast({ title: t`Background saved`, description: t`${c.name} now shows behind your conversations.` });
  }

  async function onFile(f: File | undefined) {
    setError('');
    if (!f) return;
    if (f.size > IMAGE_MAX_BYTES) return setError(t`That file is larger than 10 MB. Choose a smaller picture.`);
    const r = await upload(f);
    if ('error' in r) setError(describeApiError(r.error));
    else await pick({ id: r.data.id, name: t`Your upload`, url: r.data.url });
    if (file.current) file.current.value = '';
  }

  return (
    <main id="main" className="mx-auto max-w-5xl px-3 py-6 sm:px-4">
      <DocumentTitle title={t`Chat backgrounds · Parley`} />
      <h1 className="text-2xl font-bold text-slate-900">
        <Trans>Chat backgrounds</Trans>
      </h1>
      <p className="mt-1 text-slate-700">
        <Trans>The picture behind your text, video, group and direct conversations.</Trans>
      </p>
      {!signedIn && (
        <p className="mt-3 rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-950">
          <Trans>
            <Link to="/login" state={{ from: { pathname: '/backgroundimage' } }} className={`font-semibold underline ${focusRing}`}>
              Log in
            </Link>{' '}
            to choose one or upload your own.
          </Trans>
        </p>
      )}
      {signedIn && (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <input
            ref={file}
            id="background-file"
            type="file"
            accept={[...IMAGE_TYPES, '.heic'].join(',')}
            className="sr-only"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          <label htmlFor="background-file" className={`${smallPrimary} cursor-pointer`}>
            {uploading.isLoading ? t`Uploading…` : t`Upload your own`}
          </label>
          <span className="text-xs text-slate-700">
            <Trans>JPEG, PNG, WebP or HEIC, up to 10 MB.</Trans>
          </span>
        </div>
      )}
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      )}
      {isLoading ? (
        <p role="status" className="mt-6">
          <Trans>Loading Content...</Trans>
        </p>
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label={t`Backgrounds`}>
          {choices.map((c) => {
            const selected = signedIn && c.id === current;
            return (
              <li key={c.id ?? 'none'}>
                <button
                  type="button"
                  aria-pressed={signedIn ? selected : undefined}
                  disabled={!signedIn || choosing.isLoading}
                  onClick={() => void pick(c)}
                  className={`group block w-full overflow-hidden rounded-xl border-2 bg-white text-start disabled:cursor-default ${selected ? 'border-indigo-700' : 'border-slate-200'} ${focusRing}`}
                >
                  <span
                    aria-hidden="true"
                    className="block aspect-[4/3] w-full bg-slate-100 bg-cover bg-center"
                    style={c.url ? { backgroundImage: `url("${c.url}")` } : undefined}
                  />
                  <span className="flex items-center justify-between px-2 py-1.5 text-sm font-medium text-slate-900">
                    {c.name}
                    {selected && (
                      <span className="text-xs font-semibold text-indigo-800">
                        <Trans>Chosen</Trans>
                      </span>
                    )}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}
