import { focusRing } from './ui/buttonStyles';

/** Chips a person picked (topics, hobbies), each with its own remove button. */
export function ChipList({
  label,
  items,
  removeLabel,
  onRemove,
  disabled,
}: {
  label: string;
  items: string[];
  removeLabel: (item: string) => string;
  onRemove: (item: string) => void;
  disabled?: boolean;
}) {
  if (items.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2">
      {items.map((t) => (
        <li key={t} className="flex items-center gap-1 rounded-full bg-indigo-100 py-1 ps-3 pe-1 text-sm text-indigo-900">
          {t}
          <button
            type="button"
            disabled={disabled}
            onClick={() => onRemove(t)}
            aria-label={removeLabel(t)}
            className={`grid size-6 place-items-center rounded-full hover:bg-indigo-200 disabled:opacity-50 ${focusRing}`}
          >
            <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
