import type { ReactNode } from 'react';

/**
 * The user's chosen chat background behind a conversation (text, video, group, direct): the image
 * covers the area, under a veil (light on a page, dark in the video panel) that keeps messages readable.
 */
export function ChatBackground({ src, children, veil = 'light' }: { src: string | null; children: ReactNode; veil?: 'light' | 'dark' }) {
  if (!src) return children;
  return (
    <div
      data-chat-background={src}
      className="relative flex min-h-0 flex-1 flex-col bg-cover bg-center"
      style={{ backgroundImage: `url("${src}")` }}
    >
      <div aria-hidden="true" className={`pointer-events-none absolute inset-0 ${veil === 'light' ? 'bg-white/40' : 'bg-slate-950/60'}`} />
      <div className="relative flex min-h-0 flex-1 flex-col">{children}</div>
    </div>
  );
}
