import { FULL_REPORT_WEIGHT } from '@parley/contract/safety';

/** A report's weight as a share of an established reporter's: "1", "0.5", "0". */
export const weightLabel = (weight: number) => String(Math.round((weight / FULL_REPORT_WEIGHT) * 100) / 100);
