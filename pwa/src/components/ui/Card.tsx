import type { HTMLAttributes, ReactNode } from 'react';

/** A raised panel on the canvas: the container of a page's sections, forms and lists. */
export function Card({
  className = '',
  as: Tag = 'div',
  ...rest
}: HTMLAttributes<HTMLElement> & { as?: 'div' | 'section' | 'article' | 'li' | 'form' }) {
  return <Tag className={`rounded-card border border-line bg-surface p-4 shadow-raised sm:p-6 ${className}`} {...rest} />;
}

/**
 * The centred card the sign-in, sign-up and confirmation screens sit in; its background fills the
 * screen below a 4rem header (`header`: the landing's top bar or the app's own).
 */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-canvas px-4 py-6 sm:items-center sm:py-10">
      <Card className="w-full max-w-md sm:p-8">{children}</Card>
    </main>
  );
}
