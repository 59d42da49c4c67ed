/**
 * One page's current matchmaking search. Each Start or Next gets a new id, sent with it; the
 * server echoes it in the `searching`, `matched` and `chat:error` that answer that search. So an
 * answer to a search the user has since stopped or replaced (a Stop and a new Start within one
 * round trip) is told apart from the answer to the search under way, whatever crossed on the way.
 */
export type SearchTicket = {
  /**
   * A new search began (Start or Next) under `id` (from newSearchId()), once its event was sent:
   * a Start that could not be sent leaves the search under way as it was.
   */
  begin(id: string): void;
  /** The user stopped (or left the page): no search of theirs is under way. */
  end(): void;
  /** Whether an answer belongs to the search under way. Unnamed answers (an older server) go by whether one is under way. */
  owns(searchId: string | undefined): boolean;
  /** The id of the search under way, if any. */
  current(): string | null;
};

let counter = 0;

/** Unique within the page is enough: the server only echoes it back to this page's socket. */
export const newSearchId = () => `${Date.now().toString(36)}.${(++counter).toString(36)}`;

export function createSearchTicket(): SearchTicket {
  let current: string | null = null;
  return {
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
