import { useContext, useState } from 'react';
import type { TranslateAnswer } from '@parley/contract/translate';
import { Trans, useLingui } from '@lingui/react/macro';
import { focusRing } from '../ui/buttonStyles';
import { TranslateContext } from './translation';

type Shown =
  | { state: 'idle' }
  | { state: 'working' }
  | { state: 'done'; answer: TranslateAnswer; open: boolean }
  | { state: 'failed'; problem: string };

/**
 * One tap to read someone's message in your language, only when asked: nothing is sent before
 * the tap, and the translation stays under the original (marked as a translation, in its
 * language), which a second tap hides.
 */
export function TranslateMessage({ text, quiet }: { text: string; quiet: string }) {
  const translate = useContext(TranslateContext);
  const { t } = useLingui();
  const [shown, setShown] = useState<Shown>({ state: 'idle' });
  if (!translate || !text.trim()) return null;

  const run = () => {
    if (shown.state === 'done') return setShown({ ...shown, open: !shown.open });
    setShown({ state: 'working' });
    translate(text).then(
      (answer) => setShown({ state: 'done', answer, open: true }),
      (err: unknown) =>
        setShown({ state: 'failed', problem: err instanceof Error ? err.message : t`The message could not be translated.` }),
    );
  };
  const label =
    shown.state === 'working'
      ? t`Translating…`
      : shown.state === 'done' && shown.open
        ? t`Hide translation`
        : shown.state === 'failed'
          ? t`Try translating again`
          : t`Translate`;

  return (
    <span className="block">
      {shown.state === 'done' && shown.open && (
        <span className={`mt-1 block border-s-2 border-current ps-2 text-sm ${quiet}`} data-testid="translation">
          <span className="block text-xs font-semibold">
            <Trans>Translated</Trans>
          </span>
          <span lang={shown.answer.target} dir="auto" className="block whitespace-pre-wrap wrap-anywhere">
            {shown.answer.translatedText}
          </span>
        </span>
      )}
      {shown.state === 'failed' && (
        <span role="alert" className={`mt-1 block text-xs ${quiet}`}>
          {shown.problem}
        </span>
      )}
      <button
        type="button"
        onClick={run}
        disabled={shown.state === 'working'}
        aria-expanded={shown.state === 'done' ? shown.open : undefined}
        className={`mt-0.5 inline-flex min-h-6 items-center text-xs font-semibold underline underline-offset-2 disabled:opacity-60 ${quiet} ${focusRing}`}
      >
        {label}
      </button>
    </span>
  );
}
