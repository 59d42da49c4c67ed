import { useEffect, useId, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { chooseLocale } from '../lib/i18n/i18n';
import { takePrerenderedLanguage } from '../lib/prerenderedForm';
import { LOCALES, PSEUDO_LOCALE, isLocale, type Locale } from '../lib/i18n/locales';

/**
 * The interface language: every language named in itself, switched at once and remembered on this
 * device. `onChosen` lets a signed-in page keep the choice with the account as well.
 */
export function LanguageChooser({ onChosen, className = '' }: { onChosen?: (locale: Locale) => void; className?: string }) {
  const { i18n } = useLingui();
  const id = useId();
  const [failed, setFailed] = useState(false);
  const current = i18n.locale;

  // Chosen on the pre-rendered page before this chooser replaced it: applied now, not lost.
  useEffect(() => {
    const early = takePrerenderedLanguage();
    if (early && isLocale(early)) chooseLocale(early).catch(() => setFailed(true));
  }, []);

  async function choose(value: string) {
    if (!isLocale(value) || value === current) return;
    try {
      await chooseLocale(value);
      setFailed(false);
      onChosen?.(value);
    } catch {
      setFailed(true);
    }
  }

  return (
    <div className={`grid gap-1 ${className}`}>
      <label htmlFor={id} className="text-body-sm font-medium text-fg">
        <Trans>Language</Trans>
      </label>
      <select
        id={id}
        data-language-chooser
        value={current}
        onChange={(e) => void choose(e.target.value)}
        className="min-h-11 rounded-control border border-line-strong bg-surface px-3 text-body text-fg"
      >
        {LOCALES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
        {/* The pseudo-locale is for finding strings left untranslated, while developing. */}
        {(import.meta.env.DEV || current === PSEUDO_LOCALE) && <option value={PSEUDO_LOCALE}>Pseudo (en-XA)</option>}
      </select>
      {failed && (
        <p role="alert" className="text-body-sm text-danger-text">
          <Trans>That language could not be loaded. Check your connection and try again.</Trans>
        </p>
      )}
    </div>
  );
}
