/**
 * One room connection's current matchmaking search. Each Start or Next gets a new id, sent with
 * it; the server echoes it in the `searching`, `matched` and `chat:error` that answer that search.
 * So an answer to a search the user has since stopped or replaced (a Stop and a new Start within
 * one round trip) is told apart from the answer to the search under way, whatever crossed on the way.
 */
export type SearchTicket = {
  /** A fresh id for the next search, unique within the page. */
  newId(): string;
  /**
   * A new search began (Start or Next) under `id` (from newId()), once its event was sent: a
   * Start that could not be sent leaves the search under way as it was.
   */
  begin(id: string): void;
  /** The user stopped (or left the page): no search of theirs is under way. */
  end(): void;
  /** Whether an answer belongs to the search under way. Unnamed answers (an older server) go by whether one is under way. */
  owns(searchId: string | undefined): boolean;
  /** The id of the search under way, if any. */
  current(): string | null;
};

export function createSearchTicket(): SearchTicket {
  // Unique within the page is enough (the server only echoes an id to this page's socket); the
  // random part keeps two tickets of one page (text and video) apart.
  const prefix = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  let current: string | null = null;
  return {
    newId: () => `${prefix}.${Date.now().toString(36)}.${(++counter).toString(36)}`,
    begin(id) {
      current = id;
    },
    end() {
      current = null;
    },
    owns(searchId) {
      return current !== null && (searchId === undefined || searchId === current);
    },
    current() {
      return current;
    },
  };
}
