import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';

/** A user's picture, or their initials when there is none (or it fails to load). */
export function Avatar({ name, src, size = 48 }: { name: string; src?: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  const { t } = useLingui();
  const initials =
    name
      .split(/[\s_-]+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?';
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (src && !failed) {
    return (
      <img
        src={src}
        alt={t`${name}'s avatar`}
        width={size}
        height={size}
        style={style}
        className="rounded-full object-cover"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span
      role="img"
      aria-label={t`${name}'s avatar`}
      style={style}
      className="inline-flex items-center justify-center rounded-full bg-indigo-700 font-semibold text-white"
    >
      {initials}
    </span>
  );
}
