// The embedded PostgreSQL (PGlite) in a worker thread: its queries run in WebAssembly for 0.2–2 ms
// each, which on the main thread would hold every socket meanwhile. Plain JavaScript so that any
// runner (tsx, Vitest, the bundled server) can start it as it is. The other side is pgliteThread.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';

const { dataDir, startParams } = workerData;
const identity = (value) => value;
/** Open transactions by id: the callback's tx object and how to end it. */
const transactions = new Map();
let nextTx = 1;

/** What a failed query carries (PostgreSQL's code, constraint, detail…) across the thread. */
function errorOf(err) {
  const e = err instanceof Error ? err : new Error(String(err));
  const fields = {};
  for (const [k, v] of Object.entries(e)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v;
  return { message: e.message, name: e.name, fields };
}

const reply = (id, body) => parentPort.postMessage({ id, ...body });

let db;
try {
  db = new PGlite(dataDir === 'memory://' ? undefined : dataDir, { startParams });
  await db.waitReady;
  parentPort.postMessage({ ready: true });
} catch (err) {
  parentPort.postMessage({ ready: false, error: errorOf(err) });
  process.exit(1);
}

/** Column types the caller parses itself (on its side): their text comes back as it is. */
const rawParsers = (oids) => (oids && oids.length > 0 ? Object.fromEntries(oids.map((oid) => [oid, identity])) : undefined);

async function handle(m) {
  switch (m.op) {
    case 'query': {
      const on = m.tx === undefined ? db : transactions.get(m.tx)?.tx;
      if (!on) throw new Error('That transaction has ended.');
      const opts = m.rowMode || m.raw ? { rowMode: m.rowMode, parsers: rawParsers(m.raw) } : undefined;
      const r = await (m.params === undefined ? on.query(m.sql) : on.query(m.sql, m.params, opts));
      return { result: { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows } };
    }
    case 'exec': {
      const on = m.tx === undefined ? db : transactions.get(m.tx)?.tx;
      if (!on) throw new Error('That transaction has ended.');
      const rs = await on.exec(m.sql);
      return { result: rs.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows })) };
    }
    case 'begin': {
      const txId = nextTx++;
      // The transaction stays open until the caller's `end`: its queries arrive as messages meanwhile.
      return await new Promise((began, failed) => {
        db.transaction(
          (tx) =>
            new Promise((commit, rollback) => {
              transactions.set(txId, { tx, commit, rollback });
              began({ tx: txId });
            }),
        )
          .then(() => transactions.get(txId)?.ended?.({}))
          .catch((err) => {
            const t = transactions.get(txId);
            if (t) t.ended?.(t.rolledBack ? {} : { error: errorOf(err) });
            else failed(err);
          })
          .finally(() => transactions.delete(txId));
      });
    }
    case 'end': {
      const t = transactions.get(m.tx);
      if (!t) throw new Error('That transaction has ended.');
      return await new Promise((resolve) => {
        t.ended = (outcome) => resolve(outcome);
        if (m.commit) t.commit();
        else {
          t.rolledBack = true;
          t.rollback(new Error('rolled back'));
        }
      });
    }
    case 'memory':
      // PGlite's WebAssembly memory is not public API: 0 when a release names it otherwise.
      return { result: { wasmBytes: db.mod?.wasmMemory?.buffer?.byteLength ?? 0, heapBytes: getHeapStatistics().used_heap_size } };
    case 'close':
      await db.close();
      return {};
    default:
      throw new Error(`Unknown operation ${m.op}`);
  }
}

parentPort.on('message', (m) => {
  handle(m).then(
    (body) => {
      reply(m.id, body);
      if (m.op === 'close') process.exit(0);
    },
    (err) => reply(m.id, { error: errorOf(err) }),
  );
});
