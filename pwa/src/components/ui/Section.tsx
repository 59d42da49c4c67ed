import { useId, type ReactNode } from 'react';
import { Card } from './Card';

/** A titled card of a page (people, Settings); its heading labels it for screen readers. */
export function Section({ title, children, description }: { title: string; children: ReactNode; description?: ReactNode }) {
  const id = useId();
  return (
    <Card as="section" aria-labelledby={id}>
      <h2 id={id} className="text-title font-bold text-fg">
        {title}
      </h2>
      {description && <p className="mt-1 text-body-sm text-fg-muted">{description}</p>}
      <div className="mt-4">{children}</div>
    </Card>
  );
}
