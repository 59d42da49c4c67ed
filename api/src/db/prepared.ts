import { createHash } from 'node:crypto';
import type { Db } from './client.ts';

type Row = Record<string, unknown>;

/** A short, stable name for a statement's text. */
const nameOf = (text: string) => `parley_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;

/** The statements prepared (or being prepared) in each PGlite session (several stores may share one). */
const preparedIn = new WeakMap<object, Map<string, Promise<unknown>>>();

/** A value as an SQL literal. standard_conforming_strings is on (PostgreSQL's default, never changed here): doubling quotes is all it needs. */
const literal = (v: string | null) => (v === null ? 'null' : `'${v.replaceAll("'", "''")}'`);

/**
 * Runs statements of fixed text, planned once per session rather than at every call: hot
 * statements whose planning costs more than running them. On PostgreSQL a named statement (each
 * pooled connection prepares it once); on PGlite, whose API names no statements, PREPARE once
 * and EXECUTE with the values as literals. Parameters are text ($1, $2, … cast in the statement).
 */
export function preparedStatements(db: Db) {
  const client = (db as unknown as { $client: unknown }).$client as
    | { waitReady: Promise<void>; query(text: string): Promise<{ rows: Row[] }> }
    | { query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }> };
  return async function run(text: string, values: Array<string | null>): Promise<Row[]> {
    const name = nameOf(text);
    if (!('waitReady' in client)) return (await client.query({ name, text, values })).rows;
    let prepared = preparedIn.get(client);
    if (!prepared) preparedIn.set(client, (prepared = new Map()));
    // One PREPARE per name, however many first calls arrive together; a failed one is tried again.
    let preparing = prepared.get(name);
    if (!preparing) {
      preparing = client.query(`prepare ${name}(${values.map(() => 'text').join(', ')}) as ${text}`);
      prepared.set(name, preparing);
      preparing.catch(() => prepared.delete(name));
    }
    await preparing;
    return (await client.query(`execute ${name}(${values.map(literal).join(', ')})`)).rows;
  };
}
