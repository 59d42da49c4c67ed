import { afterEach, describe, expect, it } from 'vitest';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import { sharedAdapter, socketProcesses } from '../testing/sharedAdapter.ts';
import { next } from '../testing/socketClients.ts';
import { socketOutbox } from './socket.ts';

const { process, close } = socketProcesses();
afterEach(close);

describe("the searches' refusals", () => {
  it("reach a socket another process holds in that socket's language", async () => {
    const shared = sharedAdapter();
    const matcher = await process(shared);
    const home = await process(shared);
    const de = await home.open('de');
    const heard = next<SocketError>(de, chatEvents.error);
    socketOutbox(matcher.io).error(de.id!, {
      event: chatEvents.next,
      code: 'internal',
      searchId: 's1',
      message: 'Could not look for a new partner. Press Start to try again.',
    });
    expect(await heard).toEqual({
      event: chatEvents.next,
      code: 'internal',
      searchId: 's1',
      message: 'Es konnte niemand Neues gesucht werden. Drück auf Starten, um es noch einmal zu versuchen.',
    });
  });
});
