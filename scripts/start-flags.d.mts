/** The Node flags of `npm start` (package.json's scripts.start), e.g. ['--v8-pool-size=1']. */
export function startNodeFlags(root: string): string[];
