import type { ReactNode } from 'react';

/** What a list says when it has nothing yet (distinct from loading and from an error). */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="grid justify-items-start gap-2 rounded-card border border-dashed border-line-strong p-4 text-body-sm text-fg-muted">
      <p>{children}</p>
      {action}
    </div>
  );
}
