/**
 * One client process of the chat benchmark: drives its share of simulated users over real
 * WebSocket connections speaking the socket.io protocol (one each; the lean client of
 * leanSocket.ts by default, socket.io-client with --client=socket.io) and measures with the
 * monotonic clock of this process. Commands come from bench/chat.ts over IPC.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import * as parser from 'socket.io-parser';
import { chatEvents, type ChatFilters, type RoomSetup } from '@parley/contract/matchmaking';
import { presenceEvents } from '@parley/contract/presence';
import { roomEvents, type PostAnswer, type RoomMessage } from '@parley/contract/rooms';
import { sharedNow } from './stats.ts';
import { decodeShared, LeanSocket, type BenchSocket } from './leanSocket.ts';
import { REALTIME_PROTOCOL } from '@parley/contract/protocol';

/** socket.io-client with the decoding of identical presence broadcasts shared, as the lean client does. */
class SharedDecoder extends parser.Decoder {
  override add(chunk: unknown) {
    if (typeof chunk === 'string' && chunk.length >= 512 && chunk.startsWith('2[')) {
      this.emitReserved('decoded', { type: parser.PacketType.EVENT, nsp: '/', data: decodeShared(chunk.slice(1)) });
      return;
    }
    super.add(chunk);
  }
}
const benchParser = { ...parser, Decoder: SharedDecoder };

export type WorkerUser = { userId: string; username: string; token: string; filters: ChatFilters };
/**
 * fallback: this side asked for topics and met someone sharing none (it waited for the topic fallback).
 * rematch: in the skip phase, this side searched again after a skip (else it was still waiting from the join).
 */
export type MatchRecord = { roomId: string; startAbs: number; ttm: number; fallback: boolean; rematch?: boolean };

type Sim = {
  i: number;
  u: WorkerUser;
  socket?: BenchSocket;
  roomId?: string | undefined;
  initiator: boolean;
  tStart?: number | undefined;
  startAbs: number;
  seq: number;
  pending: Map<string, number>;
  sendTimer?: NodeJS.Timeout | undefined;
  searching: boolean;
  /** Skipped or left by a skipping partner: the next match counts as a re-match. */
  rematching: boolean;
};

type Command =
  | {
      type: 'init';
      url: string;
      client: 'lean' | 'socket.io';
      users: WorkerUser[];
      automaticReconnect: boolean;
    }
  | { type: 'join'; at: number[] }
  | { type: 'connectAll'; rate: number }
  | { type: 'burst'; at: number }
  | { type: 'chat'; seconds: number; graceMs: number }
  | { type: 'skip'; share: number; waitMs: number }
  | { type: 'capacityStep'; rate: number; seconds: number }
  | { type: 'report' }
  | { type: 'close' };

let url = '';
let client: 'lean' | 'socket.io' = 'lean';
let automaticReconnect = false;
let sims: Sim[] = [];
let phase: 'idle' | 'join' | 'burst' | 'skip' | 'capacity' = 'idle';

// Collected samples, reset by 'report'.
let connectMs: number[] = [];
let ttm: number[] = [];
let matches: MatchRecord[] = [];
let rtt: number[] = [];
/** When each round trip in `rtt` began, on the shared clock (sharedNow). */
let rttAt: number[] = [];
const zeroCounters = () => ({
  sent: 0,
  replied: 0,
  ackErrors: 0,
  errors: 0,
  matched: 0,
  connectErrors: 0,
  lateMatches: 0,
  onlineLists: 0,
  presenceDeltas: 0,
  /** Presence payload bytes received as JSON (first pages; deltas apart): what presence costs a client. */
  firstPageBytes: 0,
  deltaBytes: 0,
});
let counters = zeroCounters();
let errorCodes: Record<string, number> = {};
const idle: Sim[] = [];

const send = (msg: unknown) => process.send!(msg);
// How late this process's event loop ran: a client's own delays end up in every figure it measures.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
/** A message's text starts with its sender's id for it: the server keeps it under an id of its own, and the reply quotes it. */
const text = (id: string, n: number) => `${id} ${'x'.repeat(20 + (n % 100))}`;
const REPLY = 'r ';

function connect(sim: Sim): Promise<void> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const query = { userId: sim.u.userId, username: sim.u.username };
    const auth = { token: sim.u.token, protocol: REALTIME_PROTOCOL };
    const s: BenchSocket =
      client === 'lean'
        ? new LeanSocket(url, { query, auth })
        : (io(url, {
            path: '/socket.io',
            transports: ['websocket'],
            forceNew: true,
            reconnection: false,
            parser: benchParser,
            auth,
            query,
          }) as unknown as BenchSocket);
    sim.socket = s;
    s.once('connect', () => {
      connectMs.push(performance.now() - t0);
      resolve();
    });
    s.once('connect_error', () => {
      counters.connectErrors++;
      resolve();
    });
    s.once(presenceEvents.onlineUsers, (page: unknown) => {
      counters.onlineLists++;
      counters.firstPageBytes += JSON.stringify(page).length;
    });
    s.on(presenceEvents.onlineUsersDelta, (delta: unknown) => {
      counters.presenceDeltas++;
      counters.deltaBytes += JSON.stringify(delta).length;
    });
    s.on(chatEvents.matched, (setup: RoomSetup) => onMatched(sim, setup));
    s.on(chatEvents.partnerLeft, () => {
      sim.roomId = undefined;
      clearInterval(sim.sendTimer);
      if (phase === 'skip' && automaticReconnect) {
        sim.tStart = performance.now();
        sim.rematching = true;
      }
    });
    s.on(chatEvents.error, (e: { code?: string }) => {
      counters.errors++;
      errorCodes[e.code ?? '?'] = (errorCodes[e.code ?? '?'] ?? 0) + 1;
    });
    s.on(roomEvents.message, (m: RoomMessage) => {
      // The room sends a message to every page following it, its sender's too.
      if (m.senderId === sim.u.userId) return;
      if (m.text.startsWith(REPLY)) {
        const id = m.text.slice(REPLY.length, m.text.indexOf(' ', REPLY.length));
        const t = sim.pending.get(id);
        if (t !== undefined) {
          sim.pending.delete(id);
          rtt.push(performance.now() - t);
          rttAt.push(performance.timeOrigin + t);
          counters.replied++;
        }
      } else {
        // The partner replies at once.
        s.timeout(15_000).emit(roomEvents.post, { roomId: m.roomId, clientId: `${m.id}r`, text: `${REPLY}${m.text}` }, onAck);
      }
    });
  });
}

function onAck(err: unknown, ack?: PostAnswer) {
  if (err || !ack) counters.ackErrors++;
  else if (!ack.ok) {
    counters.ackErrors++;
    errorCodes[ack.code] = (errorCodes[ack.code] ?? 0) + 1;
  }
}

function onMatched(sim: Sim, setup: RoomSetup) {
  const now = performance.now();
  counters.matched++;
  sim.searching = false;
  sim.roomId = setup.roomId;
  sim.initiator = setup.initiator;
  // The page follows its chat's conversation, as the app's does once matched.
  if (phase !== 'capacity') sim.socket!.emit(roomEvents.join, { roomId: setup.roomId });
  if (sim.tStart !== undefined) {
    const waited = now - sim.tStart;
    // In the skip phase every match is recorded (a re-match, or a join's leftover), so re-matches can be split by room.
    if (phase === 'skip')
      matches.push({ roomId: setup.roomId, startAbs: sim.startAbs, ttm: waited, fallback: setup.noCommonTopic, rematch: sim.rematching });
    if (sim.rematching) {
      sim.rematching = false;
    } else if (phase === 'skip') {
      // A user who had found nobody during the join phase, matched with someone requeued by a skip.
      counters.lateMatches++;
    } else {
      ttm.push(waited);
      matches.push({ roomId: setup.roomId, startAbs: sim.startAbs, ttm: waited, fallback: setup.noCommonTopic });
    }
    sim.tStart = undefined;
  }
  if (phase === 'capacity') {
    sim.socket!.emit(chatEvents.stop);
    sim.roomId = undefined;
    idle.push(sim);
  }
}

function start(sim: Sim) {
  sim.tStart = performance.now();
  sim.startAbs = sharedNow();
  sim.searching = true;
  sim.socket!.emit(chatEvents.start, { roomType: 'textChat', filters: sim.u.filters, automaticReconnect });
}

/** Runs `fn(i)` when the shared clock reaches `times[i]` (times sorted ascending). */
function schedule(times: number[], fn: (i: number) => void): Promise<void> {
  return new Promise((resolve) => {
    let k = 0;
    const tick = () => {
      const now = sharedNow();
      while (k < times.length && times[k]! <= now) fn(k++);
      if (k >= times.length) return resolve();
      setTimeout(tick, Math.max(0, Math.min(times[k]! - now, 50)));
    };
    tick();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function handle(cmd: Command) {
  switch (cmd.type) {
    case 'init':
      url = cmd.url;
      client = cmd.client;
      automaticReconnect = cmd.automaticReconnect;
      sims = cmd.users.map((u, i) => ({
        i,
        u,
        initiator: false,
        startAbs: 0,
        seq: 0,
        pending: new Map(),
        searching: false,
        rematching: false,
      }));
      return send({ type: 'ready' });
    case 'join': {
      phase = 'join';
      const joins: Promise<void>[] = [];
      await schedule(cmd.at, (i) => {
        const sim = sims[i]!;
        joins.push(
          connect(sim).then(() => {
            if (sim.socket?.connected) start(sim);
          }),
        );
      });
      await Promise.all(joins);
      return send({ type: 'done' });
    }
    case 'connectAll': {
      const gap = 1000 / cmd.rate;
      const t0 = sharedNow();
      const joins: Promise<void>[] = [];
      await schedule(
        sims.map((_, i) => t0 + i * gap),
        (i) => joins.push(connect(sims[i]!)),
      );
      await Promise.all(joins);
      return send({ type: 'done' });
    }
    case 'burst':
      phase = 'burst';
      await schedule([cmd.at], () => {
        for (const sim of sims) start(sim);
      });
      return send({ type: 'done' });
    case 'chat': {
      const inRoom = sims.filter((s) => s.roomId);
      for (const sim of inRoom) {
        // One message a second each, at a random phase so the load is even.
        const begin = setTimeout(() => {
          const tick = () => {
            if (!sim.roomId) return;
            const id = `${sim.i}-${++sim.seq}`;
            sim.pending.set(id, performance.now());
            counters.sent++;
            sim.socket!.timeout(15_000).emit(roomEvents.post, { roomId: sim.roomId, clientId: id, text: text(id, sim.seq) }, onAck);
          };
          tick();
          sim.sendTimer = setInterval(tick, 1000);
        }, Math.random() * 1000);
        sim.sendTimer = begin;
      }
      await sleep(cmd.seconds * 1000);
      for (const sim of inRoom) {
        clearTimeout(sim.sendTimer);
        clearInterval(sim.sendTimer);
      }
      await sleep(cmd.graceMs);
      return send({ type: 'done', inRoom: inRoom.length });
    }
    case 'skip': {
      phase = 'skip';
      let skipped = 0;
      for (const sim of sims) {
        if (sim.roomId && sim.initiator && Math.random() < cmd.share) {
          skipped++;
          sim.roomId = undefined;
          sim.tStart = performance.now();
          sim.rematching = true;
          sim.socket!.emit(chatEvents.next);
        }
      }
      await sleep(cmd.waitMs);
      const stillSearching = sims.filter((s) => s.rematching).length;
      return send({ type: 'done', skipped, stillSearching });
    }
    case 'capacityStep': {
      phase = 'capacity';
      if (idle.length === 0 && sims.every((s) => !s.searching)) idle.push(...sims);
      let issued = 0;
      let starved = 0;
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        const tick = () => {
          const elapsed = performance.now() - t0;
          const due = Math.floor((Math.min(elapsed, cmd.seconds * 1000) / 1000) * cmd.rate) - issued;
          for (let k = 0; k < due; k++) {
            issued++;
            const sim = idle.shift();
            if (sim) start(sim);
            else starved++;
          }
          if (elapsed >= cmd.seconds * 1000) return resolve();
          setTimeout(tick, 2);
        };
        tick();
      });
      await sleep(1500);
      // Whoever still waits is stopped so the next step starts from a clean queue.
      let unmatched = 0;
      for (const sim of sims) {
        if (sim.searching) {
          unmatched++;
          sim.searching = false;
          sim.tStart = undefined;
          sim.socket!.emit(chatEvents.stop);
          idle.push(sim);
        }
      }
      await sleep(300);
      return send({ type: 'done', issued, starved, unmatched });
    }
    case 'report':
      send({
        type: 'report',
        connectMs,
        ttm,
        matches,
        rtt,
        rttAt,
        counters,
        errorCodes,
        pendingReplies: sims.reduce((n, s) => n + s.pending.size, 0),
        waitingUserIds: sims.filter((s) => s.searching).map((s) => s.u.userId),
        loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
      });
      loopDelay.reset();
      connectMs = [];
      ttm = [];
      matches = [];
      rtt = [];
      rttAt = [];
      counters = zeroCounters();
      errorCodes = {};
      for (const s of sims) s.pending.clear();
      return;
    case 'close':
      for (const s of sims) s.socket?.disconnect();
      await sleep(100);
      process.exit(0);
  }
}

process.on('message', (cmd: Command) => {
  handle(cmd).catch((err: unknown) => {
    console.error('[bench worker]', err);
    process.exit(1);
  });
});
