import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

export function createLogger(cfg: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>): Logger {
  const pretty = cfg.NODE_ENV === 'development' && process.stdout.isTTY;
  return pino({
    level: cfg.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'], remove: true },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
  });
}
