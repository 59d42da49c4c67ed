/**
 * Whether this user opens the dashboard on this device for the first time: the greeting then
 * shows the way in rather than "welcome back". Remembered per user id on the device only (a hint,
 * not personal data: ids, no names), the latest few.
 */
const KEY = 'parley.dashboardSeen';
const KEEP = 20;

function read(): string[] {
  try {
    const list: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function isFirstVisit(userId: string): boolean {
  return !read().includes(userId);
}

export function rememberVisit(userId: string): void {
  try {
    const seen = read().filter((id) => id !== userId);
    window.localStorage.setItem(KEY, JSON.stringify([userId, ...seen].slice(0, KEEP)));
  } catch {
    // Storage refused: every visit greets as the first.
  }
}
