import { useEffect, useRef, type KeyboardEvent } from 'react';
import { focusRing } from '../ui/buttonStyles';
import { useOwnedEmoji } from './ownedEmoji';
import { useLingui } from '@lingui/react/macro';

// A small hand-picked set with names for screen readers: no emoji library to download.
const EMOJI: [string, string][] = [
  ['😀', 'grinning face'],
  ['😂', 'face with tears of joy'],
  ['🙂', 'slightly smiling face'],
  ['😉', 'winking face'],
  ['😊', 'smiling face with smiling eyes'],
  ['😍', 'smiling face with heart-eyes'],
  ['😘', 'face blowing a kiss'],
  ['😎', 'smiling face with sunglasses'],
  ['🤔', 'thinking face'],
  ['😅', 'grinning face with sweat'],
  ['😇', 'smiling face with halo'],
  ['🥳', 'partying face'],
  ['😴', 'sleeping face'],
  ['😮', 'face with open mouth'],
  ['😢', 'crying face'],
  ['😭', 'loudly crying face'],
  ['😡', 'enraged face'],
  ['🙄', 'face with rolling eyes'],
  ['😬', 'grimacing face'],
  ['🤗', 'hugging face'],
  ['👍', 'thumbs up'],
  ['👎', 'thumbs down'],
  ['👋', 'waving hand'],
  ['👏', 'clapping hands'],
  ['🙏', 'folded hands'],
  ['💪', 'flexed biceps'],
  ['✌️', 'victory hand'],
  ['🤝', 'handshake'],
  ['❤️', 'red heart'],
  ['💔', 'broken heart'],
  ['🔥', 'fire'],
  ['✨', 'sparkles'],
  ['🎉', 'party popper'],
  ['💯', 'hundred points'],
  ['⭐', 'star'],
  ['☕', 'hot beverage'],
  ['🍕', 'pizza'],
  ['🎵', 'musical note'],
  ['🎮', 'video game'],
  ['⚽', 'soccer ball'],
];
const COLUMNS = 8;

/** The emoji grid: arrow keys move, Enter picks, Escape closes and returns focus to the opener. */
export function EmojiPicker({ id, onPick, onClose }: { id: string; onPick: (emoji: string) => void; onClose: () => void }) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const { t } = useLingui();
  // The user's own emoji packs first, picked as `:name:` shortcodes; then the standard set.
  const custom = useOwnedEmoji();
  const all: Array<{ key: string; label: string; insert: string; image?: string }> = [
    ...custom.map((e) => ({ key: e.name, label: `:${e.name}: (${e.pack})`, insert: `:${e.name}:`, image: e.url })),
    ...EMOJI.map(([emoji, name]) => ({ key: emoji, label: name, insert: emoji })),
  ];

  useEffect(() => {
    buttons.current[0]?.focus();
  }, []);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const index = buttons.current.findIndex((b) => b === document.activeElement);
    // The grid reads from the inline start: in a right-to-left language the right arrow goes back.
    const forward = getComputedStyle(e.currentTarget).direction === 'rtl' ? -1 : 1;
    const moves: Record<string, number> = { ArrowRight: forward, ArrowLeft: -forward, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    } else if (e.key in moves && index >= 0) {
      e.preventDefault();
      const next = Math.min(all.length - 1, Math.max(0, index + moves[e.key]!));
      buttons.current[next]?.focus();
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      buttons.current[e.key === 'Home' ? 0 : all.length - 1]?.focus();
    }
  }

  return (
    <div
      id={id}
      role="dialog"
      aria-label={t`Emoji`}
      onKeyDown={onKeyDown}
      className="absolute end-0 bottom-full z-20 mb-2 w-[min(20rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-2 shadow-xl"
    >
      <div className="grid max-h-72 grid-cols-8 gap-1 overflow-y-auto">
        {all.map((e, i) => (
          <button
            key={e.key}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            aria-label={e.label}
            title={e.label}
            tabIndex={i === 0 ? 0 : -1}
            onClick={() => onPick(e.insert)}
            className={`grid aspect-square place-items-center rounded-lg text-xl hover:bg-slate-100 ${focusRing}`}
          >
            {e.image ? <img src={e.image} alt="" width={28} height={28} className="size-7" /> : <span aria-hidden="true">{e.key}</span>}
          </button>
        ))}
      </div>
    </div>
  );
}
