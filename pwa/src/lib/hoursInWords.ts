/** A span given in hours, as people say it: "24 hours", "3 days", "7 days". */
export const hoursInWords = (h: number) => (h % 24 === 0 && h > 24 ? `${h / 24} days` : `${h} hours`);
