import { sql } from 'drizzle-orm';
import type { SupportRequest } from '@parley/contract/auth';
import type { Db } from '../db/client.ts';
import { supportRequests, users } from '../db/schema.ts';

export type SupportDesk = {
  /** Stores a request for the support team; returns its id. */
  file(request: SupportRequest, userId: string | null): Promise<string>;
};

export function supportDesk(db: Db): SupportDesk {
  return {
    async file({ email, topic, message }, userId) {
      // A token can outlive its account: link the user only while it still exists.
      const owner = userId ? sql`(select ${users.id} from ${users} where ${users.id} = ${userId})` : null;
      const [row] = await db
        .insert(supportRequests)
        .values({ email: email.toLowerCase(), topic, message, userId: owner })
        .returning({ id: supportRequests.id });
      if (!row) throw new Error('support request insert returned no row');
      return row.id;
    },
  };
}
