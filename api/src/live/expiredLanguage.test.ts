import { afterEach, describe, expect, it } from 'vitest';
import { chatEvents, type SocketError } from '@parley/contract/matchmaking';
import { liveEvents } from '@parley/contract/live';
import { sharedAdapter, socketProcesses } from '../testing/sharedAdapter.ts';
import { next } from '../testing/socketClients.ts';
import { liveOutbox, VIDEO_CONNECT_TIMED_OUT } from './socket.ts';

const { process, close } = socketProcesses();
afterEach(close);

describe("a viewer's video that did not connect in time", () => {
  it('is told so in the language of its page, also when another process holds the stream', async () => {
    const shared = sharedAdapter();
    const holder = await process(shared);
    const viewers = await process(shared);
    const ar = await viewers.open('ar');
    const en = await holder.open();
    const heard = [next<SocketError>(ar, chatEvents.error), next<SocketError>(en, chatEvents.error)] as const;
    liveOutbox(() => holder.io).expired!(ar.id!, 'room-1');
    liveOutbox(() => holder.io).expired!(en.id!, 'room-1');
    const [inAr, inEn] = await Promise.all(heard);
    expect(inAr).toEqual({
      event: liveEvents.watch,
      code: 'offer_expired',
      message: 'لم يتصل الفيديو في الوقت المحدد. أعد تحميل البث للمحاولة مرة أخرى.',
    });
    expect(inEn).toEqual({ event: liveEvents.watch, code: 'offer_expired', message: VIDEO_CONNECT_TIMED_OUT });
  });
});
