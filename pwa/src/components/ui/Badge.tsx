import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';

/**
 * An unread count on a tab, a room or a conversation: shown as a number (99+ above 99) and read out
 * as "N unread" by screen readers. Nothing at 0.
 */
export function CountBadge({ count, className = '' }: { count: number; className?: string }) {
  const { t } = useLingui();
  if (count <= 0) return null;
  return (
    <span
      data-testid="count-badge"
      className={`inline-flex min-w-5 items-center justify-center rounded-pill bg-danger px-1.5 text-caption font-bold text-white ${className}`}
    >
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="sr-only">{t`, ${plural(count, { one: '# unread', other: '# unread' })}`}</span>
    </span>
  );
}
