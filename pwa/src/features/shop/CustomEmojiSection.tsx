import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { CUSTOM_EMOJI_MAX_BYTES, CUSTOM_EMOJI_TYPES, EMOJI_NAME, PACK_EMOJI_PREFIX, SHOP_ERR } from '@parley/contract/shop';
import { TextField, focusRing } from '../../components/FormField';
import { describeApiError } from '../../lib/apiError';
import { toast } from '../../lib/toast';
import { useCustomEmojiQuery, useDeleteEmojiMutation, useUploadEmojiMutation } from './shopApi';

/** What the form can tell before sending: the server checks all of it again. */
function problemOf(name: string, file: File | null): string | null {
  if (!EMOJI_NAME.test(name)) return 'Use 2 to 32 lower-case letters, digits or underscores, like like_this.';
  if (name.startsWith(PACK_EMOJI_PREFIX)) return `Names starting with ${PACK_EMOJI_PREFIX} belong to the store's packs.`;
  if (!file) return 'Choose a PNG, WebP or GIF image.';
  if (!(CUSTOM_EMOJI_TYPES as readonly string[]).includes(file.type)) return SHOP_ERR.notAnEmojiImage;
  if (file.size > CUSTOM_EMOJI_MAX_BYTES) return SHOP_ERR.emojiTooLarge;
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
  if (!data) return null;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const file = fileInput.current?.files?.[0] ?? null;
    const found = problemOf(name, file);
    setProblem(found);
    if (found || !file) return;
    const r = await upload({ name, file });
    if ('error' in r) return setProblem(describeApiError(r.error));
    toast({ title: 'Emoji added', description: `Write :${name}: in any chat to use it.` });
    setName('');
    if (fileInput.current) fileInput.current.value = '';
  }

  return (
    <section aria-labelledby={headingId} className="mt-10 rounded-3xl bg-white p-5 ring-1 ring-slate-200 sm:p-6">
      <h2 id={headingId} className="text-xl font-bold text-slate-950">
        Your own emoji
      </h2>
      {!data.allowed ? (
        <p className="mt-2 text-slate-700">
          Premium members upload their own emoji and use them in every chat.{' '}
          <Link to="/premium-membership" className={`font-semibold text-indigo-700 underline ${focusRing}`}>
            See Premium
          </Link>
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-700">
            PNG, WebP or GIF up to 256 KB, shown at 64 px. {data.emoji.length} of {data.limit} used.
          </p>
          <form onSubmit={(e) => void onSubmit(e)} className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" noValidate>
            <TextField
              label="Name (written :name:)"
              value={name}
              maxLength={32}
              autoCapitalize="none"
              onChange={(e) => setName(e.target.value.toLowerCase())}
            />
            <div className="grid gap-1">
              <label htmlFor={`${headingId}-file`} className="text-sm font-semibold text-slate-900">
                Image
              </label>
              <input
                id={`${headingId}-file`}
                ref={fileInput}
                type="file"
                accept={CUSTOM_EMOJI_TYPES.join(',')}
                className={`min-h-11 text-sm text-slate-900 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 ${focusRing}`}
              />
            </div>
            <button
              type="submit"
              disabled={isLoading}
              className={`min-h-11 rounded-lg bg-indigo-700 px-4 font-semibold text-white hover:bg-indigo-800 disabled:bg-slate-300 ${focusRing}`}
            >
              Upload
            </button>
          </form>
          {problem && (
            <p role="alert" className="mt-2 text-sm text-red-800">
              {problem}
            </p>
          )}
          {data.emoji.length > 0 && (
            <ul className="mt-4 flex flex-wrap gap-3">
              {data.emoji.map((e) => (
                <li key={e.name} className="flex items-center gap-2 rounded-xl bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
                  <img src={e.url} alt="" width={32} height={32} className="size-8" />
                  <span className="text-sm text-slate-900">:{e.name}:</span>
                  <button
                    type="button"
                    aria-label={`Delete :${e.name}:`}
                    onClick={() =>
                      void remove(e.name).then(
                        (r) => 'error' in r && toast({ title: 'Not deleted', description: describeApiError(r.error), variant: 'error' }),
                      )
                    }
                    className={`min-h-11 rounded px-2 text-sm font-semibold text-red-800 underline ${focusRing}`}
                  >
                    Delete
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
