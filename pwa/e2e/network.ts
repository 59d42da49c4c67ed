import type { Page } from '@playwright/test';

/**
 * Cuts the page's first socket.io connection just as the server tells it of a match, while the
 * server's end of that connection stays open: as when a phone's network goes without a word. The
 * page's later connections pass through. Install it before the page connects; the returned
 * function tells whether the cut happened.
 */
export async function dropSocketOnMatched(page: Page): Promise<() => boolean> {
  let dropped = false;
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (dropped) return void ws.connectToServer();
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    ws.onClose(() => undefined); // the page's end closing does not close the server's
    server.onMessage((m) => {
      if (dropped) return;
      if (typeof m === 'string' && m.includes('"chat:matched"')) {
        dropped = true;
        void ws.close({ code: 4000, reason: 'network gone' });
        return;
      }
      ws.send(m);
    });
  });
  return () => dropped;
}

/**
 * The page's socket.io connections through a switch: `cut()` closes the open one and refuses new
 * ones (as when a phone loses its network), `restore()` lets them through again. Install it before
 * the page loads the app.
 */
export async function switchableSocket(page: Page) {
  let cut = false;
  const open = new Set<{ close(o?: { code?: number; reason?: string }): Promise<void> }>();
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (cut) return void ws.close({ code: 4000, reason: 'network gone' });
    const server = ws.connectToServer();
    const both = {
      close: async (o?: { code?: number; reason?: string }) => {
        open.delete(both);
        await ws.close(o);
        await server.close();
      },
    };
    open.add(both);
    ws.onClose(() => void both.close());
  });
  return {
    async cut() {
      cut = true;
      for (const c of [...open]) await c.close({ code: 4000, reason: 'network gone' });
    },
    restore() {
      cut = false;
    },
  };
}
