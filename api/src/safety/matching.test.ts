import { describe, expect, it } from 'vitest';
import { chatEvents, type RoomSetup } from '@parley/contract/matchmaking';
import { FULL_REPORT_WEIGHT } from '@parley/contract/safety';
import { reports, userBlocks, users } from '../db/schema.ts';
import { BLOCKS_POLL_MS } from './blocks.ts';
import { REVIEW_POLL_MS } from './review.ts';
import { next, person, search, silent, socketTestServer } from '../testing/socketClients.ts';

const clients = socketTestServer();
const { open } = clients;

describe('blocks', () => {
  it('never matches users who blocked each other', async () => {
    const a = person();
    const b = person();
    const c = person();
    await clients
      .server()
      .deps.db.insert(users)
      .values([a, b, c].map((u) => ({ id: u.userId, username: u.username, age: u.age, gender: u.gender })));
    // Written straight to the database, as another API process would: counted within a poll.
    await clients.server().deps.db.insert(userBlocks).values({ blockerId: b.userId, blockedId: a.userId });
    await new Promise((r) => setTimeout(r, 2 * BLOCKS_POLL_MS));
    const [ka, kb, kc] = await Promise.all([open(a), open(b), open(c)]);
    const room = { roomType: 'textChat' as const };
    ka.emit(chatEvents.start, search(room));
    await next(ka, chatEvents.searching);
    const bNotMatched = silent(kb, chatEvents.matched, 500);
    kb.emit(chatEvents.start, search(room));
    expect(await bNotMatched).toBe(true);
    const mc = next<RoomSetup>(kc, chatEvents.matched);
    kc.emit(chatEvents.start, search(room));
    expect([a.userId, b.userId]).toContain((await mc).receiver.userId);
  });
});

describe('review', () => {
  it('matches a user whose reports weigh three established reporters only with others in review, whichever process took the reports', async () => {
    const [a, b, c, ...reporters] = Array.from({ length: 6 }, () => person());
    const db = clients.server().deps.db;
    await db
      .insert(users)
      .values([a!, b!, c!, ...reporters].map((u) => ({ id: u.userId, username: u.username, age: u.age, gender: u.gender })));
    // Written straight to the database, as another API process would: counted within a look.
    await db.insert(reports).values(
      [a!, b!].flatMap((reported) =>
        reporters.map((r) => ({
          reporterId: r.userId,
          reportedId: reported.userId,
          context: 'textChat' as const,
          reason: 'spam',
          weight: FULL_REPORT_WEIGHT,
        })),
      ),
    );
    await new Promise((r) => setTimeout(r, REVIEW_POLL_MS + 500));
    const [ka, kb, kc] = await Promise.all([open(a!), open(b!), open(c!)]);
    const room = { roomType: 'textChat' as const };
    ka.emit(chatEvents.start, search(room));
    await next(ka, chatEvents.searching);
    const cNotMatched = silent(kc, chatEvents.matched, 500);
    kc.emit(chatEvents.start, search(room));
    expect(await cNotMatched).toBe(true);
    const mb = next<RoomSetup>(kb, chatEvents.matched);
    kb.emit(chatEvents.start, search(room));
    expect((await mb).receiver.userId).toBe(a!.userId);
  }, 15_000);
});
