import type { AppDeps } from '../deps.ts';
import { blockLists } from './blocks.ts';

/** The safety area as server.ts composes it: who must never meet whom (reports and bans come here too). */
export function createSafety(deps: AppDeps) {
  const blocks = blockLists(deps.db, (err) => deps.log.error({ err }, 'safety background step failed'));
  return {
    /** Users this one blocked or was blocked by. */
    blocksOf: (userId: string) => blocks.of(userId),
    close: () => blocks.close(),
  };
}
