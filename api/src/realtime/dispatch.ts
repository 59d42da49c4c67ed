import { context, SpanKind, trace } from '@opentelemetry/api';
import type { AppIo, AppSocket } from './server.ts';
import { reportInvalid } from './refusals.ts';
import { tracingConfigured } from '../platform/tracing.ts';

/** Handles one event from any socket: its arguments as sent (the acknowledgement last, when asked for). */
export type SocketHandler = (socket: AppSocket, args: unknown[]) => void;
/** Runs once a socket has gone (socket.io's `disconnect`), with socket.io's reason. */
export type DisconnectHook = (socket: AppSocket, reason: string) => void;

export type SocketEvents = {
  /** Handles `event` from every socket. One event has one handler. */
  on(event: string, handler: SocketHandler): void;
  /** Runs for every socket that has gone, in the order added. */
  onDisconnect(hook: DisconnectHook): void;
};

type Registry = SocketEvents & { handlers: Map<string, SocketHandler>; hooks: DisconnectHook[] };
const registries = new WeakMap<AppIo, Registry>();

/**
 * With tracing on, each handled event is a span as socket.io's instrumentation makes one for a
 * listener of its own (`receive /`, the event as an attribute): what the handler starts is its child.
 */
function traced(event: string, run: () => void) {
  const span = trace.getTracer('socket.io').startSpan('receive /', {
    kind: SpanKind.CONSUMER,
    attributes: {
      'messaging.system': 'socket.io',
      'messaging.destination': '/',
      'messaging.operation': 'receive',
      'messaging.socket.io.event_name': event,
    },
  });
  try {
    context.with(trace.setSpan(context.active(), span), run);
  } finally {
    span.end();
  }
}

/**
 * The one table of socket event handlers of a server. socket.io's own way, a listener per event
 * on each socket, costs every connection a closure, a context and a slot of a hash table per
 * event: about sixty of each per connection. Here each socket has two listeners, the same two
 * functions for all of them, which look the handler up by name.
 */
export function socketEvents(io: AppIo): SocketEvents {
  const known = registries.get(io);
  if (known) return known;
  const handlers = new Map<string, SocketHandler>();
  const hooks: DisconnectHook[] = [];
  const tracing = tracingConfigured();
  // socket.io calls both with the socket as `this`.
  function received(this: AppSocket, event: unknown, ...args: unknown[]) {
    // socket.io hands a packet over on the next tick: the socket may have gone meanwhile.
    if (!this.connected) return;
    const handler = typeof event === 'string' ? handlers.get(event) : undefined;
    // An event nobody handles is a probe or a broken client: it counts as invalid.
    if (handler) {
      if (tracing) traced(event as string, () => handler(this, args));
      else handler(this, args);
    } else if (typeof event !== 'string' || this.listenerCount(event) === 0) reportInvalid(this);
  }
  function gone(this: AppSocket, reason: string) {
    for (const hook of hooks) hook(this, reason);
  }
  io.on('connection', (socket: AppSocket) => {
    socket.onAny(received);
    socket.on('disconnect', gone);
  });
  const registry: Registry = {
    handlers,
    hooks,
    on(event, handler) {
      if (handlers.has(event)) throw new Error(`socket event ${event} is handled twice`);
      handlers.set(event, handler);
    },
    onDisconnect(hook) {
      hooks.push(hook);
    },
  };
  registries.set(io, registry);
  return registry;
}
