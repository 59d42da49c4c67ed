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
