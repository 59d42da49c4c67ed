import type { RoomMemberView } from '@parley/contract/rooms';

/** A member's place in a room of any kind: a group's owner, a stream's broadcaster; moderators; everyone else. */
export type Role = RoomMemberView['role'];

const RANK: Record<Role, number> = { owner: 2, moderator: 1, member: 0 };

/** Moderation acts only downwards: a moderator on members, the owner on everyone else; nobody on an equal. */
export const outranks = (actor: Role, target: Role) => RANK[actor] > RANK[target];
