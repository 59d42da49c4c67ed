import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { roomEvents as wire, type RoomMessage } from '@parley/contract/rooms';
import { EVENT_REWARDS } from '@parley/contract/missions';
import type { AppNotification, NotificationPage } from '@parley/contract/notifications';
import { missionEvents as missionEventRows, wallets } from '../db/schema.ts';
import { socketTestServer } from '../testing/socketClients.ts';
import { storedRoomRig } from '../testing/storedRoomRig.ts';
import type { LiveEvents, RoomEvents } from '../deps.ts';
import { storedRoomEvents, typedEvents } from '../rooms/events.ts';
import { createMissions } from './area.ts';
import { missionService } from './service.ts';
import { missionStore } from './store.ts';

const t = socketTestServer();
const rig = storedRoomRig(t.server, (u) => t.open(u));

const rewards = async (userId: string, kind: string) =>
  t
    .server()
    .deps.db.select()
    .from(missionEventRows)
    .where(and(eq(missionEventRows.userId, userId), eq(missionEventRows.kind, kind)));

describe('XP from group rooms', () => {
  it('rewards the author of a message once when it gets a reply and reactions; never for answering oneself', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own, bo, cy] = people;
    const [so, sb, sc] = sockets;
    const first = await rig.post(so, room.roomId, 'who likes bebop?');
    if (!first.ok) throw new Error(first.message);
    const id = first.message.id;
    // The author answering or reacting to their own message earns nothing.
    expect((await rig.post(so, room.roomId, 'me!', { replyTo: id })).ok).toBe(true);
    expect(await so.timeout(5000).emitWithAck(wire.react, { roomId: room.roomId, id, emoji: '🎷', on: true })).toEqual({ ok: true });
    expect((await rig.post(sb, room.roomId, 'I do', { replyTo: id })).ok).toBe(true);
    expect(await sc.timeout(5000).emitWithAck(wire.react, { roomId: room.roomId, id, emoji: '🎉', on: true })).toEqual({ ok: true });
    expect(await sb.timeout(5000).emitWithAck(wire.react, { roomId: room.roomId, id, emoji: '🎉', on: true })).toEqual({ ok: true });
    await expect.poll(async () => (await rewards(own.userId, 'groupMessageAnswered')).length).toBe(1);
    // Every answer has been handled (the last reaction's row would be there by now): still one.
    await new Promise((r) => setTimeout(r, 200));
    const [row] = await rewards(own.userId, 'groupMessageAnswered');
    expect(row).toMatchObject({ key: `groupMessageAnswered:${room.roomId}:${id}`, xp: EVENT_REWARDS.groupMessageAnswered.xp });
    expect(await rewards(bo.userId, 'groupMessageAnswered')).toEqual([]);
    expect(await rewards(cy.userId, 'groupMessageAnswered')).toEqual([]);
  });

  it('a level reached this way is a notification (in the app) of kind levelUp linking to /missions', async () => {
    const { people, room, sockets } = await rig.gathering();
    const [own] = people;
    const [, sb, sc] = sockets;
    // Level 2 starts at 50 XP: ten answered messages.
    await rig.seed(
      room.roomId,
      own.userId,
      Array.from({ length: 10 }, (_, i) => `message ${i}`),
    );
    const page = (await (await rig.call(own, `/api/rooms/${room.roomId}/messages?limit=10`)).json()) as { messages: RoomMessage[] };
    const ids = page.messages.map((m) => m.id);
    expect(ids).toHaveLength(10);
    // Five reactions from each of two members: within each one's burst allowance.
    await Promise.all(
      ids.map((id, i) => (i % 2 ? sb : sc).timeout(5000).emitWithAck(wire.react, { roomId: room.roomId, id, emoji: '👍', on: true })),
    );
    await expect.poll(async () => (await rewards(own.userId, 'groupMessageAnswered')).length).toBe(10);
    const levelUps = async () => {
      const list = (await (await rig.call(own, '/api/notifications')).json()) as NotificationPage;
      return list.notificationList.filter((n: AppNotification) => n.kind === 'levelUp');
    };
    await expect.poll(async () => (await levelUps()).length).toBe(1);
    expect((await levelUps())[0]).toMatchObject({ link: '/missions', text: 'You reached level 2 and earned gold.' });
  });
});

describe('XP from live streams', () => {
  it('gives XP per whole minute, once per stretch however often it is reported, and nothing under a minute', async () => {
    const viewer = await rig.account();
    // A second missions area, following live streams of its own.
    const live = typedEvents<LiveEvents>();
    const missions = createMissions(t.server().deps, {
      notifier: t.server().notifier,
      quiet: async () => false,
      sources: { chats: typedEvents<RoomEvents>(), storedRooms: storedRoomEvents(), live },
    });
    try {
      const stretch = { roomId: crypto.randomUUID(), userId: viewer.userId, role: 'viewer' as const, from: 0, to: 150_000 };
      live.emit('sessionEnded', stretch);
      live.emit('sessionEnded', stretch);
      live.emit('sessionEnded', { ...stretch, from: 200_000, to: 259_999 });
      await expect.poll(async () => (await rewards(viewer.userId, 'liveMinutes')).length).toBe(1);
      await new Promise((r) => setTimeout(r, 200));
      const rows = await rewards(viewer.userId, 'liveMinutes');
      expect(rows).toHaveLength(1);
      expect(rows[0]!.xp).toBe(2 * EVENT_REWARDS.liveMinutes.xp);
    } finally {
      await missions.close();
    }
  });
});

describe('streak reminders', () => {
  it('two processes sweeping at once send one reminder per user and day; none in quiet hours or with the switch off', async () => {
    const [a, quiet, off] = await Promise.all([rig.account(), rig.account(), rig.account()]);
    const db = t.server().deps.db;
    const at = new Date('2026-11-26T15:00:00Z');
    for (const u of [a, quiet, off])
      await db
        .insert(wallets)
        .values({ userId: u.userId, streakDays: 3, lastVisit: '2026-11-25', timeZone: 'UTC', streakReminders: u !== off });
    const sweep = () =>
      missionService({
        store: missionStore(db),
        liveSources: new Set(),
        progressed: () => undefined,
        quiet: async (userId) => userId === quiet.userId,
        now: () => at,
      }).dueReminders();
    const [one, two] = await Promise.all([sweep(), sweep()]);
    const mine = (ids: string[]) => ids.filter((id) => [a, quiet, off].some((u) => u.userId === id));
    expect([...mine(one), ...mine(two)]).toEqual([a.userId]);
    expect(mine(await sweep())).toEqual([]);
  });
});
