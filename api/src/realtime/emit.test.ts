import { afterEach, describe, expect, it } from 'vitest';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import { sharedAdapter, socketProcesses } from '../testing/sharedAdapter.ts';
import { next, silent } from '../testing/socketClients.ts';
import { socketEmitter } from './emit.ts';

const { process, close } = socketProcesses();
afterEach(close);

const refusal = (message: string): SocketError => ({ event: chatEvents.start, message, code: 'internal' });
const SEARCH_FAILED = 'Could not look for a new partner. Press Start to try again.';

describe('a refusal for a socket held by another API process', () => {
  it("arrives in that socket's language, whichever process sent it", async () => {
    const shared = sharedAdapter();
    const one = await process(shared);
    const two = await process(shared);
    const es = await two.open('es');
    const ja = await two.open('ja');
    const en = await two.open();

    const heard = [
      next<SocketError>(es, chatEvents.error),
      next<SocketError>(ja, chatEvents.error),
      next<SocketError>(en, chatEvents.error),
    ] as const;
    const from = socketEmitter(one.io);
    expect(from.local(es.id!)).toBeUndefined();
    for (const s of [es, ja, en]) from.refuse(s.id!, refusal(SEARCH_FAILED));
    const [inEs, inJa, inEn] = await Promise.all(heard);
    expect(inEs).toEqual({
      event: chatEvents.start,
      code: 'internal',
      message: 'No se pudo buscar a otra persona. Pulsa Empezar para intentarlo de nuevo.',
    });
    expect(inJa.message).toBe('新しい相手を探せませんでした。「開始」を押してもう一度お試しください。');
    expect(inEn.message).toBe(SEARCH_FAILED);
  });

  it('words a refusal with a value in it, and ignores a relayed refusal that is not one', async () => {
    const shared = sharedAdapter();
    const one = await process(shared);
    const two = await process(shared);
    const fr = await two.open('fr');
    const heard = next<SocketError>(fr, chatEvents.error);
    // Not a refusal: dropped by the process holding the socket, which goes on relaying the next one.
    one.io.serverSideEmit('parley:refusal', { id: fr.id!, error: { message: 42 } } as never);
    one.io.serverSideEmit('parley:refusal', null as never);
    socketEmitter(one.io).refuse(fr.id!, refusal('Too many attempts to join. Wait 12 s and try again.'));
    expect((await heard).message).toBe('Trop de tentatives pour rejoindre. Attendez 12 s et réessayez.');
  });

  it('a process alone words its own sockets and sends nothing for a socket it does not hold', async () => {
    const alone = await process(undefined, false);
    const tr = await alone.open('tr');
    const heard = next<SocketError>(tr, chatEvents.error);
    const emitter = socketEmitter(alone.io);
    emitter.refuse('not-a-socket', refusal(SEARCH_FAILED));
    emitter.refuse(tr.id!, refusal(SEARCH_FAILED));
    expect((await heard).message).toBe('Yeni biri aranamadı. Tekrar denemek için Başlat’a bas.');
    expect(await silent(tr, chatEvents.error)).toBe(true);
  });
});
