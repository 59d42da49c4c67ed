/** Parley's mark: two speech bubbles meeting, one from each side of the conversation. */
export function LogoMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <path
        d="M4 6.5A4.5 4.5 0 0 1 8.5 2h11A4.5 4.5 0 0 1 24 6.5v6a4.5 4.5 0 0 1-4.5 4.5H12l-5 4v-4.2A4.5 4.5 0 0 1 4 12.5z"
        fill="#4338ca"
      />
      <path
        d="M28 15.5a4.5 4.5 0 0 0-4.5-4.5h-9a4.5 4.5 0 0 0-4.5 4.5v5a4.5 4.5 0 0 0 4.5 4.5h6l5 4v-4.3a4.5 4.5 0 0 0 2.5-4.2z"
        fill="#f43f5e"
        fillOpacity="0.92"
      />
      <circle cx="15.5" cy="18" r="1.3" fill="#fff" />
      <circle cx="19" cy="18" r="1.3" fill="#fff" />
      <circle cx="22.5" cy="18" r="1.3" fill="#fff" />
    </svg>
  );
}
