import express, { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Clock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { refuseUnstorableText } from '../lib/unstorable-text';
import { providerContextOf, requireScope, type ProviderContext } from './authenticate';
import { requestFingerprint, runIdempotent } from './idempotency';
import type { ProviderScope } from './scopes';
import { noteStaffAction } from './staff-audit';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type ObjectSchema = z.ZodObject;

type RequestSchemas = { params?: ObjectSchema; query?: ObjectSchema; body?: z.ZodType };
type Parsed<S extends z.ZodType | undefined> = S extends z.ZodType ? z.output<S> : undefined;

/** A file body (a PDF) instead of JSON, read whole up to `maxBytes`; the handler gets the bytes. */
type BinaryBody = { mediaType: string; maxBytes: number; description: string };

/** What a handler is given: its inputs, already validated by the endpoint's own schemas. */
type EndpointInput<S extends RequestSchemas, B extends BinaryBody | undefined> = {
  params: Parsed<S['params']>;
  query: Parsed<S['query']>;
  body: B extends BinaryBody ? Buffer : Parsed<S['body']>;
  context: ProviderContext;
};

/** A handler's answer. `object` names what it touched for the staff audit: the portal's id, never personal data. */
type EndpointAnswer = { status: number; body?: unknown; object?: { type: string; id: string | number } };

type EndpointDefinition<S extends RequestSchemas, B extends BinaryBody | undefined> = {
  method: Method;
  /** Express form (`/patients/:externalId`); the OpenAPI document writes `{externalId}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  scope: ProviderScope;
  request?: S;
  binaryBody?: B;
  /** A creating call: a retry with the same `Idempotency-Key` gets the first answer (idempotency.ts). */
  idempotent?: boolean;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  handle(input: EndpointInput<S, B>): Promise<EndpointAnswer>;
};

/** An endpoint with its types erased: what the router and the OpenAPI document read. */
export type ProviderEndpoint = {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  scope: ProviderScope;
  request: RequestSchemas;
  binaryBody?: BinaryBody;
  idempotent: boolean;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  run(req: Request, context: ProviderContext): Promise<EndpointAnswer>;
};

/**
 * The provider API's endpoint template: one definition gives the route, its validation, its
 * scope, its audit line and its OpenAPI operation, so the document cannot drift from what is
 * served. Handlers call the areas' services with the provider's context.
 */
export function defineEndpoint<S extends RequestSchemas = RequestSchemas, B extends BinaryBody | undefined = undefined>(
  definition: EndpointDefinition<S, B>,
): ProviderEndpoint {
  const { request = {} as S } = definition;
  return {
    ...definition,
    request,
    binaryBody: definition.binaryBody,
    idempotent: definition.idempotent ?? false,
    async run(req, context) {
      const input = {
        params: request.params ? request.params.parse(req.params) : undefined,
        query: request.query ? request.query.parse(req.query) : undefined,
        body: definition.binaryBody ? binaryBodyOf(req) : request.body ? request.body.parse(req.body ?? {}) : undefined,
        context,
      } as EndpointInput<S, B>;
      return definition.handle(input);
    },
  };
}

function binaryBodyOf(req: Request): Buffer {
  if (!Buffer.isBuffer(req.body) || req.body.length === 0) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE');
  return req.body;
}

export type EndpointDeps = { db: Db; clock: Clock; config: Pick<Config, 'providerApi'> };

/** Mounts endpoints on a router: body reader, scope, idempotency, the handler, the audit note. */
export function endpointsRouter(deps: EndpointDeps, endpoints: readonly ProviderEndpoint[]): Router {
  const router = Router();
  for (const endpoint of endpoints) {
    const readBody = endpoint.binaryBody
      ? express.raw({ type: endpoint.binaryBody.mediaType, limit: endpoint.binaryBody.maxBytes })
      : express.json({ limit: '1mb' });
    router[endpoint.method](
      endpoint.path,
      (_req, res, next) => {
        noteStaffAction(res, { action: endpoint.operationId });
        next();
      },
      readBody,
      refuseUnstorableText,
      async (req, res) => {
        const context = providerContextOf(req, res);
        requireScope(context, endpoint.scope);
        const idempotencyKey = req.get('idempotency-key');
        const call = async () => {
          const answer = await endpoint.run(req, context);
          if (answer.object) noteStaffAction(res, { objectType: answer.object.type, objectId: answer.object.id });
          return answer;
        };
        if (!endpoint.idempotent || idempotencyKey === undefined || context.caller.apiKeyId === null) {
          send(res, await call());
          return;
        }
        const answer = await runIdempotent(
          deps.db,
          {
            apiKeyId: context.caller.apiKeyId,
            key: idempotencyKey,
            fingerprint: requestFingerprint(req.method, req.originalUrl, req.body),
            keepHours: deps.config.providerApi.idempotencyHours,
            now: new Date(deps.clock()),
          },
          call,
        );
        if (answer.replayed) res.set('Idempotent-Replayed', 'true');
        send(res, answer);
      },
    );
  }
  return router;
}

function send(res: Response, answer: { status: number; body?: unknown }): void {
  if (answer.body === undefined) res.status(answer.status).end();
  else res.status(answer.status).json(answer.body);
}
