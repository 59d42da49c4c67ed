import type { LanguageExchange, Receiver } from '@parley/contract/matchmaking';
import { languageName } from '../../lib/languages';
import { countryName } from '../../lib/countries';
import { Trans, useLingui } from '@lingui/react/macro';

/**
 * How a match came about by language: an exchange (each speaks what the other learns), and the
 * languages and country the partner shows. Never more than a country: no city, no address.
 */
export function LanguageExchangeNote({
  exchange,
  receiver,
  tone = 'light',
}: {
  exchange: LanguageExchange | null | undefined;
  receiver: Receiver;
  tone?: 'light' | 'dark';
}) {
  const { i18n } = useLingui();
  const speaks = receiver.languages ?? [];
  if (!exchange && speaks.length === 0 && !receiver.country) return null;
  const dark = tone === 'dark';
  const youLearn = exchange ? languageName(exchange.youLearn) : '';
  const theyLearn = exchange ? languageName(exchange.theyLearn) : '';
  const languages = new Intl.ListFormat(i18n.locale === 'en-XA' ? 'en' : i18n.locale, { type: 'unit' }).format(speaks.map(languageName));
  const country = receiver.country ? countryName(receiver.country) : '';
  return (
    <div data-testid="language-note" className={`grid gap-1 px-3 py-2 text-sm ${dark ? 'text-slate-100' : 'text-slate-800'}`}>
      {exchange && (
        <p
          className={`rounded-lg px-3 py-1.5 font-semibold ${dark ? 'bg-emerald-950 text-emerald-100' : 'bg-emerald-50 text-emerald-900'}`}
        >
          <Trans>
            Language exchange: you practise {youLearn}, they practise {theyLearn}.
          </Trans>
        </p>
      )}
      {(speaks.length > 0 || receiver.country) && (
        <p className={dark ? 'text-slate-300' : 'text-slate-600'}>
          {speaks.length > 0 && <Trans>Speaks {languages}</Trans>}
          {speaks.length > 0 && receiver.country && ' · '}
          {receiver.country && <Trans>From {country}</Trans>}
        </p>
      )}
    </div>
  );
}
