import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The message a link names (`?message=<id>`, from a search): brought into the open room with the
 * messages around it. Its id, for the view to scroll to and outline, or null.
 */
export function useMessageTarget(room: { jumpTo(id: number): Promise<boolean> } | null, open: boolean): number | null {
  const [params] = useSearchParams();
  const raw = params.get('message');
  const id = raw !== null && /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null;
  useEffect(() => {
    if (room && open && id !== null) void room.jumpTo(id);
  }, [room, open, id]);
  return id;
}
