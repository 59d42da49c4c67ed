import { REPORT_ENCOUNTERS, type ReportEncounter } from '@parley/contract/safety';

/**
 * Whether `reporterId` had met `otherId` in one kind of place. The people, rooms and live areas
 * answer them; server.ts wires them here. A profile seen is no encounter.
 */
export type EncounterSources = Partial<Record<ReportEncounter, (reporterId: string, otherId: string) => Promise<boolean>>>;

/** Where the reporter had met the other person (the first kind of REPORT_ENCOUNTERS that answers yes), or null. */
export function encounterFinder(sources: EncounterSources) {
  return async (reporterId: string, otherId: string): Promise<ReportEncounter | null> => {
    const answers = await Promise.all(REPORT_ENCOUNTERS.map((kind) => sources[kind]?.(reporterId, otherId) ?? false));
    return REPORT_ENCOUNTERS.find((_, i) => answers[i]) ?? null;
  };
}
