import type * as Werift from 'werift';
import { lazyRequire } from '../platform/lazyRequire.ts';

let loaded: typeof Werift | undefined;

/** werift, the SFU's WebRTC stack (about 13 MB of memory), loaded when the first stream starts. */
export const werift = (): typeof Werift => (loaded ??= lazyRequire('werift') as typeof Werift);
