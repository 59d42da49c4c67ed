import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roomPresence } from './roomPresence.ts';

/** The same bookkeeping written plainly: room → user → set of sockets. */
function model() {
  const rooms = new Map<string, Map<string, Set<string>>>();
  const leave = (r: string, u: string, s: string) => {
    const sockets = rooms.get(r)?.get(u);
    if (!sockets?.delete(s) || sockets.size > 0) return false;
    rooms.get(r)!.delete(u);
    if (rooms.get(r)!.size === 0) rooms.delete(r);
    return true;
  };
  return {
    enter(r: string, u: string, s: string) {
      if (!rooms.has(r)) rooms.set(r, new Map());
      const users = rooms.get(r)!;
      const arrived = !users.has(u);
      if (arrived) users.set(u, new Set());
      users.get(u)!.add(s);
      return arrived;
    },
    leave,
    leaveAll(u: string, s: string) {
      const left: string[] = [];
      for (const r of [...rooms.keys()]) if (rooms.get(r)?.get(u)?.has(s) && leave(r, u, s)) left.push(r);
      return left;
    },
    leaveUser(r: string, u: string) {
      const users = rooms.get(r);
      if (!users?.delete(u)) return false;
      if (users.size === 0) rooms.delete(r);
      return true;
    },
    forget: (r: string) => void rooms.delete(r),
    has: (r: string, s: string) => [...(rooms.get(r)?.values() ?? [])].some((sockets) => sockets.has(s)),
    usersIn: (r: string) => [...(rooms.get(r)?.keys() ?? [])],
    count: (r: string) => rooms.get(r)?.size ?? 0,
  };
}

const room = fc.constantFrom('r1', 'r2', 'r3');
// A socket belongs to one user, as in the server: socket s1 and s2 are u1's, s3 is u2's.
const socket = fc.constantFrom(['u1', 's1'], ['u1', 's2'], ['u2', 's3']) as fc.Arbitrary<[string, string]>;
const op = fc.oneof(
  fc.tuple(fc.constant('enter' as const), room, socket),
  fc.tuple(fc.constant('leave' as const), room, socket),
  fc.tuple(fc.constant('leaveAll' as const), room, socket),
  fc.tuple(fc.constant('leaveUser' as const), room, socket),
  fc.tuple(fc.constant('forget' as const), room, socket),
);

describe('room presence', () => {
  it('answers as plain maps of sets would, whatever people, sockets and rooms do', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const p = roomPresence();
        const m = model();
        for (const [name, r, [u, s]] of ops) {
          if (name === 'enter') expect(p.enter(r, u, s)).toBe(m.enter(r, u, s));
          if (name === 'leave') expect(p.leave(r, u, s)).toBe(m.leave(r, u, s));
          if (name === 'leaveAll') expect(p.leaveAll(u, s).sort()).toEqual(m.leaveAll(u, s).sort());
          if (name === 'leaveUser') expect(p.leaveUser(r, u)).toBe(m.leaveUser(r, u));
          if (name === 'forget') {
            p.forget(r);
            m.forget(r);
          }
          for (const rr of ['r1', 'r2', 'r3']) {
            expect(p.usersIn(rr).sort()).toEqual(m.usersIn(rr).sort());
            expect(p.count(rr)).toBe(m.count(rr));
            for (const ss of ['s1', 's2', 's3']) expect(p.has(rr, ss), `${rr} ${ss}`).toBe(m.has(rr, ss));
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
