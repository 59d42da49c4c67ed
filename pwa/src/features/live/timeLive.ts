/** How long a stream has run, as "42 min" or "1 h 5 min". */
export function timeLive(startedAt: number, until = Date.now()): string {
  const minutes = Math.max(0, Math.floor((until - startedAt) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
