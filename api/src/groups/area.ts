import type { AppDeps, RoomCore } from '../deps.ts';
import { ablyTokenRoutes } from './ablyToken.ts';
import type { RoomModeration } from '../rooms/moderation.ts';
import { groupRoutes } from './routes.ts';
import { groupService } from './service.ts';

/** Group rooms over the stored-room core that server.ts hands in. */
export function createGroups(deps: AppDeps, core: RoomCore, moderation: RoomModeration) {
  const rooms = () => core;
  const groups = groupService(deps.db, rooms);
  return { routes: [groupRoutes(deps, groups, moderation), ablyTokenRoutes(deps)] };
}
