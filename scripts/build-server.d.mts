/** The server bundle's path (api/dist/main.mjs). */
export const serverBundle: string;
/** Builds the server bundle when it is missing or older than any of its sources; answers its path. */
export function ensureServerBuild(): Promise<string>;
