import { readFileSync } from 'node:fs';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../tests/support/app';
import { servedRoutes } from '../tests/support/served-routes';

/**
 * docs/api.md is the API's contract until an OpenAPI document generated from the schemas
 * replaces it: every route the app serves and every error code it can answer is there, and
 * nothing is there that the app does not do.
 */
const doc = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');

/** `{id}` and `:screeningId` name the same thing: a parameter. */
const normalise = (method: string, path: string) =>
  `${method.toUpperCase()} ${path.replace(/\/(\{\w+\}|:\w+)/g, '/{}').replace(/\/$/, '') || '/'}`;

function apiRoutesOf(express: Express): string[] {
  return [...new Set(servedRoutes(express, '/api').map(({ method, path }) => normalise(method, path)))].sort();
}

/** Every `METHOD /path` the document names in code spans, under /api (written with or without the prefix). */
function documentedRoutes(): string[] {
  const routes = [...doc.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s?[]*)/g)].map(([, method, path]) =>
    normalise(method!, path!.replace(/^\/api(?=\/)/, '')),
  );
  return [...new Set(routes)].sort();
}

/** The codes of the ErrorCode type (server/lib/errors.ts, with the upload codes of common/types/upload.ts). */
function errorCodesInCode(): string[] {
  const source = ['../server/lib/errors.ts', '../common/types/upload.ts']
    .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
    .join('\n');
  const codes = new Set<string>();
  for (const [, typeName, body] of source.matchAll(/export type (\w+) =([^;]+);/g)) {
    if (typeName !== 'ErrorCode' && typeName !== 'UploadErrorCode') continue;
    for (const [, code] of body!.matchAll(/'([A-Z_]+)'/g)) codes.add(code!);
  }
  return [...codes].sort();
}

/** Codes the document gives as answers: those of its Errors section, and any written after a status (`404 NOT_FOUND`). */
function documentedErrorCodes(): string[] {
  const errorsSection = doc.slice(doc.indexOf('## Errors'), doc.indexOf('\n## ', doc.indexOf('## Errors') + 1));
  const inSection = [...errorsSection.matchAll(/`([A-Z][A-Z_]+)`/g)].map(([, code]) => code!);
  const afterStatus = [...doc.matchAll(/\b[1-5]\d\d:? `([A-Z][A-Z_]+)`/g)].map(([, code]) => code!);
  return [...new Set([...inSection, ...afterStatus])].sort();
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('docs/api.md', () => {
  it('lists every API route the app serves, and no other', () => {
    const served = apiRoutesOf(app.express);
    const documented = documentedRoutes();
    expect(served.length).toBeGreaterThan(20);
    expect({ servedButNotDocumented: served.filter((route) => !documented.includes(route)) }).toEqual({ servedButNotDocumented: [] });
    expect({ documentedButNotServed: documented.filter((route) => !served.includes(route)) }).toEqual({ documentedButNotServed: [] });
  });

  it('names every error code the server can answer, and no other', () => {
    const inCode = errorCodesInCode();
    const documented = documentedErrorCodes();
    expect(inCode).toContain('NOT_FOUND');
    expect({ answeredButNotDocumented: inCode.filter((code) => !doc.includes(`\`${code}\``)) }).toEqual({ answeredButNotDocumented: [] });
    expect({ documentedButNotAnswered: documented.filter((code) => !inCode.includes(code)) }).toEqual({ documentedButNotAnswered: [] });
  });
});
