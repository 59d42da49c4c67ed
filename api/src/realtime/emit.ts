import { chatEvents, socketErrorSchema, type SocketError } from '@parley/contract/matchmaking';
import { inSocketLanguage } from './refusals.ts';
import type { AppIo } from './server.ts';

/** The servers whose sockets may live in other API processes (the Redis adapter), told by relayRefusals. */
const crossProcess = new WeakSet<AppIo>();

/**
 * A refusal for a socket another process holds goes to that process (serverSideEmit) in English,
 * which is the catalog's key (errorIn), and is worded there: only the process holding a socket
 * knows the language its page shows (`socket.data.locale`).
 */
export function relayRefusals(io: AppIo): void {
  crossProcess.add(io);
  io.on('parley:refusal', (sent) => {
    // From another process of ours; still checked, as everything that crosses a wire.
    const r = sent as Partial<{ id: unknown; error: unknown }> | null;
    const error = socketErrorSchema.safeParse(r?.error);
    if (typeof r?.id !== 'string' || !error.success) return;
    const socket = io.sockets.sockets.get(r.id);
    socket?.emit(chatEvents.error, inSocketLanguage(socket, error.data));
  });
}

/** Reaching one socket by id: directly when it is in this process, through the adapter otherwise. */
export function socketEmitter(io: AppIo) {
  const local = (id: string) => io.sockets.sockets.get(id);
  return {
    local,
    emit(id: string, event: string, payload: unknown) {
      (local(id) ?? io.to(id)).emit(event, payload);
    },
    /** Tells a socket why something was refused (`chat:error`), in its page's language wherever it is held. */
    refuse(id: string, error: SocketError) {
      const socket = local(id);
      if (socket) socket.emit(chatEvents.error, inSocketLanguage(socket, error));
      else if (crossProcess.has(io)) io.serverSideEmit('parley:refusal', { id, error });
    },
  };
}
