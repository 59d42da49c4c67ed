import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { apiRoot } from '../platform/paths.ts';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { queryDone } from '../platform/metrics.ts';
import { tracingConfigured } from '../platform/tracing.ts';

type Row = Record<string, unknown> | unknown[];
type Field = { name: string; dataTypeID: number };
export type Results = { rows: Row[]; fields: Field[]; affectedRows?: number };
type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, (value: string, typeId: number) => unknown> };
type Failure = { message: string; name: string; fields: Record<string, unknown> };
type Answer = { id: number; error?: Failure; result?: unknown; tx?: number };

/** A plain file beside this one, the same for tsx, Vitest and the bundled server (which ships api/src). */
const workerFile = path.join(apiRoot, 'src/db/pgliteWorker.mjs');

/** A failed query as the driver's callers read it: PostgreSQL's code, constraint and detail kept. */
function errorFrom(f: Failure): Error {
  const e = new Error(f.message);
  e.name = f.name;
  return Object.assign(e, f.fields);
}

const traced = tracingConfigured();
const tracer = trace.getTracer('parley.db');

/** Queries on one side of a transaction, or outside any: what Drizzle's PGlite driver calls. */
type Call = (m: Record<string, unknown>, whole?: boolean) => Promise<unknown>;

class Session {
  constructor(
    private readonly call: Call,
    private readonly txId?: number,
  ) {}

  /**
   * Runs one statement in the worker. Column parsers run here, on what the worker sent as text
   * (functions cannot cross threads); Drizzle's only keep dates and intervals as text anyway.
   */
  query(sql: string, params?: unknown[], opts?: QueryOptions): Promise<Results> {
    if (!traced) return this.run(sql, params, opts);
    // pg's instrumentation traces PostgreSQL; the embedded database's statements get the same span.
    return tracer.startActiveSpan(
      `pglite ${sql.trimStart().split(/\s/, 1)[0]!.toUpperCase()}`,
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.query.text': sql } },
      (span) =>
        this.run(sql, params, opts).then(
          (r) => (span.end(), r),
          (err: Error) => {
            span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
            span.end();
            throw err;
          },
        ),
    );
  }

  private async run(sql: string, params?: unknown[], opts?: QueryOptions): Promise<Results> {
    const parsers = opts?.parsers;
    const raw = parsers ? rawTypesOf(parsers) : undefined;
    const sent = performance.now();
    const r = (await this.call({ op: 'query', sql, params, rowMode: opts?.rowMode, raw, tx: this.txId })) as Results;
    queryDone('pglite', sent);
    if (parsers && raw!.length > 0 && r.rows.length > 0) parseColumns(r, parsers, opts?.rowMode === 'array');
    return r;
  }

  async exec(sql: string): Promise<Results[]> {
    return (await this.call({ op: 'exec', sql, tx: this.txId })) as Results[];
  }

  /** A transaction inside one is a savepoint in Drizzle (it never calls this twice deep). */
  async transaction<T>(fn: (tx: Session) => Promise<T>): Promise<T> {
    if (this.txId !== undefined) throw new Error('Nested transactions are savepoints of the open one.');
    const { tx } = (await this.call({ op: 'begin' }, true)) as { tx: number };
    let result: T;
    try {
      result = await fn(new Session(this.call, tx));
    } catch (err) {
      await this.call({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw err;
    }
    await this.call({ op: 'end', tx, commit: true });
    return result;
  }
}

/** The type ids a parsers object names, read once per object (Drizzle passes the same one with every query). */
const rawTypes = new WeakMap<object, number[]>();
function rawTypesOf(parsers: object): number[] {
  let ids = rawTypes.get(parsers);
  if (!ids) rawTypes.set(parsers, (ids = Object.keys(parsers).map(Number)));
  return ids;
}

function parseColumns(r: Results, parsers: NonNullable<QueryOptions['parsers']>, arrays: boolean) {
  r.fields.forEach((f, i) => {
    const parse = parsers[f.dataTypeID];
    if (!parse) return;
    for (const row of r.rows) {
      const key = arrays ? i : f.name;
      const cells = row as Record<string | number, unknown>;
      if (typeof cells[key] === 'string') cells[key] = parse(cells[key], f.dataTypeID);
    }
  });
}

/**
 * PGlite in a worker thread, seen from the main thread as the client Drizzle's PGlite driver
 * expects (query, exec, transaction, close). The event loop only posts messages; the database's
 * work, its WebAssembly heap included, is the worker's.
 */
export class PgliteThread {
  private readonly worker: Worker;
  private readonly outside: Session;
  private readonly exited: Promise<void>;
  private readonly pending = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();
  private nextId = 1;
  private stopped: Error | undefined;
  private closing = false;
  /** Resolves once the database is open (the name PGlite's own client uses; prepared.ts tells PGlite by it). */
  readonly waitReady: Promise<void>;

  /** `onLost`: the worker ended without being closed (the database is gone for this process). */
  constructor(dataDir: string, startParams: string[], onLost?: (err: Error) => void) {
    this.outside = new Session((m, whole) => this.request(m, whole));
    // A plain module needs none of the parent's loader flags (tsx, or --input-type from a -e script, which a file refuses).
    // Its JavaScript only carries statements and rows across: a young generation of 4 MB (V8's
    // default grows to 48) keeps about 20 MB less resident, for more (and short) scavenges.
    this.worker = new Worker(workerFile, {
      workerData: { dataDir, startParams },
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.worker.once('message', (m: { ready: boolean; error?: Failure }) => {
        if (m.ready) resolve();
        else reject(errorFrom(m.error!));
        // Like PGlite on the main thread, an idle database keeps no process alive.
        this.worker.unref();
        this.worker.on('message', (a: Answer) => this.answered(a));
      });
      this.worker.once('error', reject);
    });
    this.worker.on('error', (err) => this.stop(err));
    this.exited = new Promise((resolve) =>
      this.worker.on('exit', (code) => {
        const err = new Error(`The embedded database stopped (exit code ${code}).`);
        if (!this.closing) onLost?.(err);
        this.stop(err);
        resolve();
      }),
    );
  }

  query(sql: string, params?: unknown[], opts?: QueryOptions) {
    return this.outside.query(sql, params, opts);
  }

  exec(sql: string) {
    return this.outside.exec(sql);
  }

  transaction<T>(fn: (tx: Session) => Promise<T>) {
    return this.outside.transaction(fn);
  }

  private answered(a: Answer) {
    const p = this.pending.get(a.id);
    if (!p) return;
    this.pending.delete(a.id);
    if (this.pending.size === 0 && !this.closing) this.worker.unref();
    if (a.error) p.reject(errorFrom(a.error));
    else p.resolve(a);
  }

  private stop(err: Error) {
    this.stopped ??= err;
    for (const p of this.pending.values()) p.reject(this.stopped);
    this.pending.clear();
  }

  /** One request to the worker; `whole` answers the whole message (a transaction's id) rather than its result. */
  private request(m: Record<string, unknown>, whole = false): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: (a) => resolve(whole ? a : a.result), reject });
      this.worker.postMessage({ ...m, id });
    });
  }

  /** The thread's memory: PGlite's WebAssembly heap and its V8 heap, in bytes. */
  memory(): Promise<{ wasmBytes: number; heapBytes: number }> {
    return this.request({ op: 'memory' }) as Promise<{ wasmBytes: number; heapBytes: number }>;
  }

  async close() {
    // Held until it has exited: an idle worker is unreferenced, and the process must not end first.
    this.closing = true;
    this.worker.ref();
    if (!this.stopped) await this.request({ op: 'close' }).catch(() => undefined);
    await this.exited;
  }
}
