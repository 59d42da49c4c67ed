import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stand-in received: the JSON body of each POST /translate. */
export type TranslateCall = { q: string; source: string; target: string; format: string; api_key?: string };

/**
 * A local server speaking LibreTranslate's POST /translate: it "translates" by tagging the text
 * with the target language, and can be told to fail, hang, or answer something else.
 */
export async function translateStandIn(opts: { apiKey?: string } = {}) {
  const calls: TranslateCall[] = [];
  let mode: 'ok' | 'error' | 'hang' | 'garbage' = 'ok';
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/translate') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as TranslateCall;
      calls.push(body);
      if (opts.apiKey && body.api_key !== opts.apiKey) {
        res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Invalid API key' }));
        return;
      }
      if (mode === 'hang') {
        hanging.add(res);
        return;
      }
      if (mode === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'model not loaded' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      if (mode === 'garbage') res.end('<html>maintenance</html>');
      else res.end(JSON.stringify({ translatedText: `[${body.target}] ${body.q}`, detectedLanguage: { confidence: 90, language: 'es' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    set: (m: typeof mode) => {
      mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
