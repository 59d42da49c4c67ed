import type { AppDeps } from '../deps.ts';
import type { RoomCore } from '../rooms/core.ts';
import { linkPreviews } from './previews.ts';
import { linkRoutes } from './routes.ts';

/** Previews asked a minute by one person (each message with a link asks once), and images by one address. */
export const PREVIEWS_PER_MINUTE = 300;
export const IMAGES_PER_MINUTE = 240;

/** Link previews as server.ts composes them, over the room core that says who may read a message. */
export function createLinks(deps: AppDeps, rooms: () => RoomCore) {
  const previews = linkPreviews({ secret: Buffer.from(deps.secrets.jwtSecret), fetch: { allow: deps.cfg.LINK_PREVIEW_ALLOW } });
  return {
    routes: linkRoutes(deps, rooms, previews, {
      previews: deps.limiters.create({ keyPrefix: 'link-preview', points: PREVIEWS_PER_MINUTE, durationSeconds: 60 }),
      images: deps.limiters.create({ keyPrefix: 'link-image', points: IMAGES_PER_MINUTE, durationSeconds: 60 }),
    }),
  };
}
