import { useLingui } from '@lingui/react/macro';

/** A moment of the moderators' pages, in the interface language's date format. */
export function When({ iso, dateStyle = 'medium' }: { iso: string; dateStyle?: 'medium' | 'short' }) {
  const { i18n } = useLingui();
  return <time dateTime={iso}>{i18n.date(new Date(iso), { dateStyle, timeStyle: 'short' })}</time>;
}
