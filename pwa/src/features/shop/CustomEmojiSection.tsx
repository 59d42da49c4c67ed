import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { CUSTOM_EMOJI_MAX_BYTES, CUSTOM_EMOJI_TYPES, EMOJI_NAME, PACK_EMOJI_PREFIX } from '@parley/contract/shop';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { TextField } from '../../components/ui/Field';
import { focusRing } from '../../components/ui/buttonStyles';
import { describeApiError } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { useCustomEmojiQuery, useDeleteEmojiMutation, useUploadEmojiMutation } from './shopApi';

/** What the form can tell before sending: the server checks all of it again. */
function problemOf(name: string, file: File | null): string | null {
  const prefix = PACK_EMOJI_PREFIX;
  if (!EMOJI_NAME.test(name)) return i18n._(msg`Use 2 to 32 lower-case letters, digits or underscores, like like_this.`);
  if (name.startsWith(prefix)) return i18n._(msg`Names starting with ${prefix} belong to the store’s packs.`);
  if (!file) return i18n._(msg`Choose a PNG, WebP or GIF image.`);
  // The server's own words (SHOP_ERR), in the interface language.
  if (!(CUSTOM_EMOJI_TYPES as readonly string[]).includes(file.type))
    return i18n._(msg`That file is not an image Parley can use as an emoji. Use a PNG, WebP or GIF.`);
  if (file.size > CUSTOM_EMOJI_MAX_BYTES) return i18n._(msg`That file is larger than 256 KB. Choose a smaller image.`);
  return null;
}

/** Premium members' own emoji on /store: upload under a `:name:`, see and delete them. */
export function CustomEmojiSection() {
  const headingId = useId();
  const { data } = useCustomEmojiQuery();
  const [upload, { isLoading }] = useUploadEmojiMutation();
  const [remove] = useDeleteEmojiMutation();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { t } = useLingui();
  if (!data) return null;
  const used = data.emoji.length;
  const limit = data.limit;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const file = fileInput.current?.files?.[0] ?? null;
    const found = problemOf(name, file);
    setProblem(found);
    if (found || !file) return;
    const r = await upload({ name, file });
    if ('error' in r) return setProblem(describeApiError(r.error));
    toast({ title: t`Emoji added`, description: t`Write :${name}: in any chat to use it.` });
    setName('');
    if (fileInput.current) fileInput.current.value = '';
  }

  return (
    <section aria-labelledby={headingId} className="mt-10 rounded-3xl bg-white p-5 ring-1 ring-slate-200 sm:p-6">
      <h2 id={headingId} className="text-xl font-bold text-slate-950">
        <Trans>Your own emoji</Trans>
      </h2>
      {!data.allowed ? (
        <p className="mt-2 text-slate-700">
          <Trans>
            Premium members upload their own emoji and use them in every chat.{' '}
            <Link to="/premium-membership" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
              See Premium
            </Link>
          </Trans>
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-700">
            <Trans>
              PNG, WebP or GIF up to 256 KB, shown at 64 px. {used} of {limit} used.
            </Trans>
          </p>
          <form onSubmit={(e) => void onSubmit(e)} className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" noValidate>
            <TextField
              label={t`Name (written :name:)`}
              value={name}
              maxLength={32}
              autoCapitalize="none"
              onChange={(e) => setName(e.target.value.toLowerCase())}
            />
            <div className="grid gap-1">
              <label htmlFor={`${headingId}-file`} className="text-sm font-semibold text-slate-900">
                <Trans>Image</Trans>
              </label>
              <input
                id={`${headingId}-file`}
                ref={fileInput}
                type="file"
                accept={CUSTOM_EMOJI_TYPES.join(',')}
                className={`min-h-11 text-sm text-slate-900 file:me-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 ${focusRing}`}
              />
            </div>
            <button
              type="submit"
              disabled={isLoading}
              className={`min-h-11 rounded-lg bg-indigo-700 px-4 font-semibold text-white hover:bg-indigo-800 disabled:bg-slate-300 ${focusRing}`}
            >
              <Trans>Upload</Trans>
            </button>
          </form>
          {problem && (
            <p role="alert" className="mt-2 text-sm text-red-800">
              {problem}
            </p>
          )}
          {data.emoji.length > 0 && (
            <ul className="mt-4 flex flex-wrap gap-3">
              {data.emoji.map(({ name: emojiName, ...e }) => (
                <li key={emojiName} className="flex items-center gap-2 rounded-xl bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
                  <img src={e.url} alt="" width={32} height={32} className="size-8" />
                  <span className="text-sm text-slate-900">:{emojiName}:</span>
                  <button
                    type="button"
                    aria-label={t`Delete :${emojiName}:`}
                    onClick={() =>
                      void remove(emojiName).then(
                        (r) => 'error' in r && toast({ title: t`Not deleted`, description: describeApiError(r.error), variant: 'error' }),
                      )
                    }
                    className={`min-h-11 rounded px-2 text-sm font-semibold text-red-800 underline ${focusRing}`}
                  >
                    <Trans>Delete</Trans>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
