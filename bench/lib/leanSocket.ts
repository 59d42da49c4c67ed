/**
 * A lean socket.io client for the load generator: the Engine.IO v4 / Socket.IO v5 protocol over
 * one `ws` WebSocket, with just what the chat benchmark uses (connect with auth and query, events,
 * acknowledgements both ways, heartbeats). The server sees exactly what socket.io-client would
 * send; the client side costs far less CPU, so on a machine the server shares, the figures measure
 * the server rather than the clients. `--client=socket.io` runs the official client instead.
 *
 * Presence broadcasts reach every simulated user of a process with the same text; a real client
 * decodes only its own copy on its own device, so a large event identical to the previous one is
 * decoded once per process and shared (events without an ack id only: they carry no per-socket state).
 */
import WebSocket from 'ws';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- event payloads are whatever the server sent
type Handler = (...args: any[]) => void;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the response is whatever the server acknowledged with
type AckCallback = (err: Error | null, ...response: any[]) => void;

let shared = { raw: '', args: [] as unknown[] };
/** Events at least this long are worth comparing with the last one (a room's message reaches every member alike). */
const SHARED_MIN_CHARS = 128;
/** The JSON of an event packet's body, decoded once while the same text keeps arriving. */
export function decodeShared(body: string): unknown[] {
  if (body !== shared.raw) shared = { raw: body, args: JSON.parse(body) as unknown[] };
  return shared.args;
}

export type LeanSocketOptions = { query: Record<string, string>; auth: Record<string, unknown> };

/** The part of a client socket the benchmark uses; socket.io-client's Socket provides it too. */
export interface BenchSocket {
  readonly connected: boolean;
  on(event: string, fn: Handler): unknown;
  once(event: string, fn: Handler): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  timeout(ms: number): { emit(event: string, payload: unknown, cb: AckCallback): unknown };
  disconnect(): unknown;
}

export class LeanSocket implements BenchSocket {
  connected = false;
  private readonly ws: WebSocket;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly acks = new Map<number, { cb: AckCallback; timer: NodeJS.Timeout | undefined }>();
  private nextAckId = 0;
  private ended = false;

  constructor(
    url: string,
    private readonly opts: LeanSocketOptions,
  ) {
    const u = new URL('/socket.io/', url);
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    for (const [k, v] of Object.entries(opts.query)) u.searchParams.set(k, v);
    u.searchParams.set('EIO', '4');
    u.searchParams.set('transport', 'websocket');
    this.ws = new WebSocket(u, { perMessageDeflate: false });
    this.ws.on('message', (data: Buffer) => this.onFrame(data.toString()));
    this.ws.on('error', (err) => this.end('connect_error', err));
    this.ws.on('close', () => this.end(this.connected ? 'disconnect' : 'connect_error', new Error('closed')));
  }

  on(event: string, fn: Handler): this {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
    return this;
  }

  once(event: string, fn: Handler): this {
    const wrapped: Handler = (...args) => {
      this.handlers.set(
        event,
        (this.handlers.get(event) ?? []).filter((h) => h !== wrapped),
      );
      fn(...args);
    };
    return this.on(event, wrapped);
  }

  /** Emits an event; a function as last argument asks for an acknowledgement (no timeout). */
  emit(event: string, ...args: unknown[]): this {
    const last = args[args.length - 1];
    if (typeof last === 'function') return this.send(event, args.slice(0, -1), last as AckCallback, undefined);
    return this.send(event, args, undefined, undefined);
  }

  /** Like socket.io-client: the acknowledgement callback gets an Error when none came within `ms`. */
  timeout(ms: number) {
    return {
      emit: (event: string, payload: unknown, cb: AckCallback) => this.send(event, [payload], cb, ms),
    };
  }

  disconnect() {
    if (this.connected) this.ws.send('41');
    this.connected = false;
    this.ended = true;
    this.ws.close();
  }

  private send(event: string, args: unknown[], cb: AckCallback | undefined, ms: number | undefined): this {
    if (!this.connected) return this;
    let id = '';
    if (cb) {
      const n = this.nextAckId++;
      id = String(n);
      const timer =
        ms === undefined
          ? undefined
          : setTimeout(() => {
              this.acks.delete(n);
              cb(new Error('operation has timed out'));
            }, ms);
      // Without a timeout the callback gets the response only, as with socket.io-client.
      this.acks.set(n, { cb: ms === undefined ? (_err, ...r) => (cb as Handler)(...r) : cb, timer });
    }
    this.ws.send(`42${id}${JSON.stringify([event, ...args])}`);
    return this;
  }

  private fire(event: string, args: unknown[]) {
    for (const h of this.handlers.get(event) ?? []) h(...args);
  }

  private end(event: 'disconnect' | 'connect_error', err: Error) {
    if (this.ended) return;
    this.ended = true;
    this.connected = false;
    for (const { timer } of this.acks.values()) clearTimeout(timer);
    this.acks.clear();
    this.fire(event, [err]);
  }

  private onFrame(frame: string) {
    switch (frame[0]) {
      case '0': // Engine.IO open: connect to the main namespace with the auth payload
        this.ws.send(`40${JSON.stringify(this.opts.auth)}`);
        return;
      case '2': // ping
        this.ws.send('3');
        return;
      case '4':
        this.onPacket(frame.slice(1));
        return;
      case '1': // close
        this.ws.close();
        return;
    }
  }

  private onPacket(p: string) {
    const type = p[0];
    if (type === '0') {
      this.connected = true;
      this.fire('connect', []);
    } else if (type === '4') {
      const data = JSON.parse(p.slice(1)) as { message?: string };
      this.end('connect_error', new Error(data.message ?? 'connect error'));
      this.ws.close();
    } else if (type === '1') {
      this.connected = false;
      this.end('disconnect', new Error('io server disconnect'));
      this.ws.close();
    } else if (type === '2' || type === '3') {
      let i = 1;
      while (i < p.length && p.charCodeAt(i) >= 48 && p.charCodeAt(i) <= 57) i++;
      const id = i > 1 ? Number(p.slice(1, i)) : undefined;
      const body = p.slice(i);
      if (type === '3') {
        const ack = id === undefined ? undefined : this.acks.get(id);
        if (!ack) return;
        this.acks.delete(id!);
        clearTimeout(ack.timer);
        ack.cb(null, ...(JSON.parse(body) as unknown[]));
        return;
      }
      let args: unknown[];
      if (id === undefined && body.length >= SHARED_MIN_CHARS) args = decodeShared(body);
      else args = JSON.parse(body) as unknown[];
      const [event, ...rest] = args as [string, ...unknown[]];
      if (id !== undefined) rest.push((...response: unknown[]) => this.ws.send(`43${id}${JSON.stringify(response)}`));
      this.fire(event, rest);
    }
  }
}
