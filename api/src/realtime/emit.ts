import type { AppIo } from './server.ts';

/** Reaching one socket by id: directly when it is in this process, through the adapter otherwise. */
export function socketEmitter(io: AppIo) {
  const local = (id: string) => io.sockets.sockets.get(id);
  return {
    local,
    emit(id: string, event: string, payload: unknown) {
      (local(id) ?? io.to(id)).emit(event, payload);
    },
  };
}
