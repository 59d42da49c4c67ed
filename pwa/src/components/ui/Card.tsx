import type { HTMLAttributes } from 'react';

/** A raised panel on the page's canvas. */
export function Card({ className = '', ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={`rounded-card border border-line bg-surface p-4 shadow-raised ${className}`} {...rest} />;
}
