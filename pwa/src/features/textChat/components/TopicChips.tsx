import { useId, useState, type FormEvent } from 'react';
import { topicSchema } from '@parley/contract/matchmaking';
import { focusRing } from '../../../components/ui/buttonStyles';
import { inputClass } from '../../../components/ui/Field';
import { ChipList } from '../../../components/ChipList';
import { Trans, useLingui } from '@lingui/react/macro';

const MAX_TOPICS = 10;

/** Interests as removable chips, typed in or picked from the popular topics. */
export function TopicChips({
  topics,
  suggestions,
  disabled,
  onChange,
}: {
  topics: string[];
  suggestions: string[];
  disabled?: boolean;
  onChange: (topics: string[]) => void;
}) {
  const id = useId();
  const { t } = useLingui();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const full = topics.length >= MAX_TOPICS;
  const offered = suggestions.filter((s) => !topics.includes(s));

  function add(raw: string) {
    const parsed = topicSchema.safeParse(raw);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? t`That topic cannot be used`);
    const topic = parsed.data;
    if (topics.includes(topic)) return setError(t`“${topic}” is already one of your topics`);
    if (full) return setError(t`At most ${MAX_TOPICS} topics`);
    setError(null);
    setDraft('');
    onChange([...topics, topic]);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    add(draft);
  }

  return (
    <div className="grid gap-2">
      <label htmlFor={`${id}-topic`} className="text-sm font-semibold text-slate-900">
        <Trans>Topics</Trans>
      </label>
      <form onSubmit={submit} className="flex gap-2">
        <input
          id={`${id}-topic`}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          disabled={disabled || full}
          maxLength={40}
          placeholder={full ? t`Topic list is full` : t`e.g. music, hiking`}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          className={inputClass}
        />
        <button
          type="submit"
          disabled={disabled || full || !draft.trim()}
          className={`shrink-0 rounded-lg border border-indigo-700 px-3 py-2 text-sm font-semibold text-indigo-700 hover:bg-indigo-50 disabled:opacity-50 ${focusRing}`}
        >
          <Trans>Add</Trans>
        </button>
      </form>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          <Trans>You are matched first with people who share a topic.</Trans>
        </p>
      )}
      <ChipList
        label={t`Your topics`}
        items={topics}
        disabled={disabled}
        removeLabel={(topic) => t`Remove topic ${topic}`}
        onRemove={(topic) => onChange(topics.filter((x) => x !== topic))}
      />
      {offered.length > 0 && !full && (
        <div>
          <p id={`${id}-popular`} className="text-xs font-medium text-slate-600">
            <Trans>Popular right now</Trans>
          </p>
          <ul aria-labelledby={`${id}-popular`} className="mt-1 flex flex-wrap gap-1.5">
            {offered.map((s) => (
              <li key={s}>
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => add(s)}
                  aria-label={t`Add topic ${s}`}
                  className={`rounded-full border border-slate-300 bg-white px-2.5 py-0.5 text-sm text-slate-800 hover:border-indigo-700 hover:text-indigo-800 disabled:opacity-50 ${focusRing}`}
                >
                  <span aria-hidden="true">+ </span>
                  {s}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
