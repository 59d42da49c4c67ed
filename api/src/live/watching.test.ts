import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { TokenUser } from '@parley/contract/auth';
import { LIVE_WATCHES_PER_USER, liveEvents, type LiveStream, type LiveWatchAnswer } from '@parley/contract/live';
import { person, socketTestServer } from '../testing/socketClients.ts';
import { insertAccount, tokenUserOf } from '../db/accounts.ts';
import { PORTS_EXHAUSTED_MESSAGE } from './sfu.ts';

type Server = ReturnType<typeof socketTestServer>;

/** Waits for what the server does on its own time (a disconnect, an event on another socket). */
async function until(check: () => boolean) {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const ask = <A>(s: Socket, event: string, payload: unknown) => s.timeout(10_000).emitWithAck(event, payload) as Promise<A>;

async function http(t: Server, user: TokenUser, method: string, path: string, body?: unknown) {
  const token = await t.server().deps.tokens.sign(user);
  const res = await fetch(`${t.server().url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A stream just started (its page open); viewers are offered its media before the broadcaster's arrives. */
let n = 0;
async function started(t: Server) {
  // A real account: going live makes (or reads) the broadcaster's channel.
  const username = `w${Date.now().toString(36).slice(-5)}${n++}`;
  const owner = tokenUserOf(await insertAccount(t.server().deps.db, { username, age: 30, gender: 'female', isVerified: true }));
  const made = await http(t, owner, 'POST', '/live', { title: 'Late show', category: 'Music' });
  expect(made.status).toBe(201);
  return { owner, roomId: (made.body as unknown as LiveStream).roomId, socket: await t.open(owner) };
}

describe('viewers and their watches', () => {
  const t = socketTestServer();

  it('counts a person in two tabs as one viewer, for the broadcaster and on the stream’s page', async () => {
    const { owner, roomId, socket: caster } = await started(t);
    const counts: number[] = [];
    caster.on(liveEvents.viewers, (v: { viewers: number }) => counts.push(v.viewers));
    const fan = person();
    const [tab1, tab2] = [await t.open(fan), await t.open(fan)];
    expect(await ask<LiveWatchAnswer>(tab1, liveEvents.watch, { roomId })).toMatchObject({ ok: true, viewers: 1 });
    expect(await ask<LiveWatchAnswer>(tab2, liveEvents.watch, { roomId })).toMatchObject({ ok: true, viewers: 1 });
    expect((await http(t, owner, 'GET', `/live/${roomId}`)).body.viewers).toBe(1);
    const other = await t.open(person());
    expect(await ask<LiveWatchAnswer>(other, liveEvents.watch, { roomId })).toMatchObject({ ok: true, viewers: 2 });
    // One of the fan's tabs closes: they still watch in the other.
    tab1.disconnect();
    await until(() => counts.length === 4);
    expect(counts).toEqual([1, 1, 2, 2]);
    expect((await http(t, owner, 'GET', `/live/${roomId}`)).body.viewers).toBe(2);
  });

  it('refuses one account’s watch beyond its share, across its sockets, with a message to show', async () => {
    const { roomId } = await started(t);
    const mallory = person();
    const sockets = await Promise.all(Array.from({ length: LIVE_WATCHES_PER_USER + 1 }, () => t.open(mallory)));
    const answers = await Promise.all(sockets.map((s) => ask<LiveWatchAnswer>(s, liveEvents.watch, { roomId })));
    expect(answers.filter((a) => a.ok)).toHaveLength(LIVE_WATCHES_PER_USER);
    expect(answers.filter((a) => !a.ok)).toEqual([
      {
        ok: false,
        code: 'too_many_watches',
        message: `You are already watching live video in ${LIVE_WATCHES_PER_USER} tabs or streams. Close one of them to watch this stream.`,
      },
    ]);
    expect(t.server().liveStats()).toMatchObject({ watches: LIVE_WATCHES_PER_USER, openPeers: LIVE_WATCHES_PER_USER });
    // Someone else still gets in; a closed socket gives its place back.
    expect((await ask<LiveWatchAnswer>(await t.open(person()), liveEvents.watch, { roomId })).ok).toBe(true);
    sockets[0]!.disconnect();
    await until(() => t.server().liveStats().watches === LIVE_WATCHES_PER_USER);
    expect((await ask<LiveWatchAnswer>(await t.open(mallory), liveEvents.watch, { roomId })).ok).toBe(true);
  });
});

describe('an SFU out of ports', () => {
  // Ports outside the system's ephemeral range; one taken elsewhere is skipped, so viewers come until one is refused.
  const first = 24_000 + Math.floor(Math.random() * 2000) * 2;
  const t = socketTestServer({ RTC_PORT_RANGE: `${first}-${first + 3}` });

  it('tells the watcher clearly, and counts the refusal', async () => {
    const { roomId } = await started(t);
    let refused: LiveWatchAnswer | undefined;
    for (let i = 0; i < 6 && !refused; i++) {
      const answer = await ask<LiveWatchAnswer>(await t.open(person()), liveEvents.watch, { roomId });
      if (!answer.ok) refused = answer;
    }
    expect(refused).toEqual({ ok: false, code: 'live_full', message: PORTS_EXHAUSTED_MESSAGE });
    expect(t.server().liveStats()).toMatchObject({ portsExhausted: 1 });
    expect(t.server().liveStats().openPeers).toBeGreaterThan(0);
  });
});
