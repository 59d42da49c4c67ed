import { register } from 'node:module';
import { trace } from '@opentelemetry/api';

/**
 * OpenTelemetry traces of HTTP requests, socket.io events, database statements (PostgreSQL through
 * pg, the embedded database through its thread) and Redis, exported over OTLP/HTTP when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set; log lines inside a
 * span carry its `trace_id`. Unset, nothing of the SDK is loaded and the server pays nothing.
 *
 * It must run before the server's modules are imported (`scripts/start.mjs` loads it first): the
 * instrumentations wrap koa, pg, ioredis and socket.io as Node loads them. The standard
 * variables apply (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`,
 * `OTEL_TRACES_SAMPLER_ARG`, `OTEL_EXPORTER_OTLP_HEADERS`).
 */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT) && env.OTEL_SDK_DISABLED !== 'true';
}

export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!tracingConfigured(env)) return false;
  // ES modules are wrapped by a loader hook; CommonJS ones (most of these libraries) by require's.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { registerInstrumentations }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation'),
    ]);
  const [http, koa, pg, ioredis, socketIo] = await Promise.all([
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-koa'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@opentelemetry/instrumentation-socket.io'),
  ]);
  const provider = new NodeTracerProvider({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read by the SDK, take precedence.
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? 'parley' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new http.HttpInstrumentation({
        // Health probes and metric scrapes every few seconds would drown the traces that matter.
        ignoreIncomingRequestHook: (req) => /^\/(api\/health|metrics)\b/.test(req.url ?? ''),
      }),
      // A span per route; one per middleware would bury it.
      new koa.KoaInstrumentation({ ignoreLayersType: [koa.KoaLayerType.MIDDLEWARE] }),
      // Statements' parameters are what users typed: never exported.
      new pg.PgInstrumentation({ enhancedDatabaseReporting: false }),
      new ioredis.IORedisInstrumentation({ dbStatementSerializer: (cmd) => cmd }),
      new socketIo.SocketIoInstrumentation({ traceReserved: false }),
    ],
  });
  return true;
}

/** Sends the spans still buffered, before the process exits (a no-op when tracing is off). */
export async function flushTraces(): Promise<void> {
  // Through the global API: the provider was registered by the tracing bundle, not this one.
  const global = trace.getTracerProvider() as { getDelegate?(): unknown };
  const provider = global.getDelegate?.() as { shutdown?(): Promise<void> } | undefined;
  await provider?.shutdown?.();
}
