/**
 * A grey placeholder the shape of what is loading; several make a loading list. It is hidden from
 * screen readers: the region around it says it is busy (aria-busy) or a status line says "Loading".
 */
export function Skeleton({ className = 'h-4 w-full' }: { className?: string }) {
  return (
    <span aria-hidden="true" className={`block animate-pulse rounded-control bg-surface-muted motion-reduce:animate-none ${className}`} />
  );
}

/** `rows` placeholders the height of list rows. */
export function SkeletonRows({ rows = 3 }: { rows?: number }) {
  return (
    <div aria-hidden="true" className="grid gap-2">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-14 w-full" />
      ))}
    </div>
  );
}
