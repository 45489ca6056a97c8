import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, requestLogger } from './logger';

type Line = { level: number; msg: string; path: string; status: number };

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** A tiny app behind the portal's request logger, its log captured at `level`. */
async function serveLogged(level: 'info' | 'debug') {
  const lines: Line[] = [];
  const logger = createLogger({ logLevel: level }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  const app = express();
  app.use(requestLogger(logger, { slowRequestMs: 50 }));
  app.get('/fine', (_req, res) => void res.json({}));
  app.get('/missing', (_req, res) => void res.status(404).json({ code: 'NOT_FOUND' }));
  app.get('/broken', (_req, res) => void res.status(500).json({ code: 'INTERNAL' }));
  app.get('/slow', (_req, res) => void setTimeout(() => res.json({}), 80));
  const server = app.listen(0);
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    await (await fetch(base + path)).arrayBuffer();
    await new Promise((resolve) => setImmediate(resolve)); // the line is written on 'finish'
  };
  return { lines, get };
}

describe('the request log at the default level', () => {
  it('writes nothing for requests that went well, however many', async () => {
    const { lines, get } = await serveLogged('info');
    for (let i = 0; i < 20; i += 1) await get('/fine');
    await get('/missing');
    expect(lines).toEqual([]);
  });

  it('writes a failed request as an error and a slow one as a warning, with its route', async () => {
    const { lines, get } = await serveLogged('info');
    await get('/broken');
    await get('/slow');
    expect(lines.map(({ level, path, status }) => ({ level, path, status }))).toEqual([
      { level: 50, path: '/broken', status: 500 },
      { level: 40, path: '/slow', status: 200 },
    ]);
  });
});

it('writes every request at debug, for tracing a problem', async () => {
  const { lines, get } = await serveLogged('debug');
  await get('/fine');
  await get('/missing');
  expect(lines.map(({ level, status }) => ({ level, status }))).toEqual([
    { level: 20, status: 200 },
    { level: 20, status: 404 },
  ]);
});
