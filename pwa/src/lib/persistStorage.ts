/**
 * redux-persist's storage on localStorage, falling back to nothing when the browser refuses
 * storage (private modes, tests in Node): preferences are then simply not kept.
 */
function local(): Storage | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    return null;
  }
}

export const persistStorage = {
  async getItem(key: string): Promise<string | null> {
    return local()?.getItem(key) ?? null;
  },
  async setItem(key: string, value: string): Promise<void> {
    try {
      local()?.setItem(key, value);
    } catch {
      // Quota exceeded or storage disabled: the preference lives only for this session.
    }
  },
  async removeItem(key: string): Promise<void> {
    local()?.removeItem(key);
  },
};
