import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';
import { tracingConfigured } from './tracing.ts';
import type { Config } from './config.ts';
import { mappedStack } from './stackMap.ts';

export type { Logger };

/** Fields of database errors that carry what users typed (query parameters, the offending values). */
const PRIVATE_FIELDS = ['params', 'parameters', 'detail', 'where'];

/**
 * pino's error serializer, minus what users typed: a failed query's parameters (drizzle also puts
 * them into its message) and PostgreSQL's detail, which quotes the offending values. The query
 * text and the error codes stay: they are what an operator needs.
 */
export function safeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as Record<string, unknown>;
  const clean = (e: Record<string, unknown>) => {
    for (const f of PRIVATE_FIELDS) delete e[f];
    if (typeof e.query === 'string' && typeof e.message === 'string' && e.message.startsWith('Failed query:')) {
      // The parameters are in the message and so in the stack's first lines (and may span lines):
      // keep the query and the frames only.
      e.message = `Failed query: ${e.query}`;
      if (typeof e.stack === 'string') {
        const frames = e.stack.split('\n').filter((l) => /^\s+at /.test(l));
        e.stack = [`${String(e.type ?? 'Error')}: ${e.message}`, ...frames].join('\n');
      }
    }
    if (typeof e.stack === 'string') e.stack = mappedStack(e.stack);
    if (e.cause && typeof e.cause === 'object') clean(e.cause as Record<string, unknown>);
  };
  if (out && typeof out === 'object') clean(out);
  return out;
}

function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan()?.spanContext();
  return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/** `destination`: where lines go instead of stdout (tests read them). */
export function createLogger(cfg: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: pino.DestinationStream): Logger {
  const pretty = !destination && cfg.NODE_ENV === 'development' && process.stdout.isTTY;
  const options: pino.LoggerOptions = {
    level: cfg.LOG_LEVEL,
    serializers: { err: safeError },
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'], remove: true },
    // A line written inside a traced request or event names its trace, to find one from the other.
    ...(tracingConfigured() ? { mixin: traceFields } : {}),
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
