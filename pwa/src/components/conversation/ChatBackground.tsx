import type { ReactNode } from 'react';

/**
 * The user's chosen chat background behind a conversation (text, video, group, direct): the
 * image covers the area, and a light veil keeps the messages readable on any picture.
 */
export function ChatBackground({ src, children, className = '' }: { src: string | null; children: ReactNode; className?: string }) {
  if (!src) return <div className={className}>{children}</div>;
  return (
    <div
      data-chat-background={src}
      className={`relative ${className}`}
      style={{ backgroundImage: `url("${src}")`, backgroundSize: 'cover', backgroundPosition: 'center' }}
    >
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 bg-white/40" />
      <div className="relative h-full">{children}</div>
    </div>
  );
}
