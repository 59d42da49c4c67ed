/** A message quoted in a label or an announcement: its first 40 characters. */
export const quoteMessage = (text: string): string => `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;
