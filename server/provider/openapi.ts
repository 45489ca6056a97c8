import { z } from 'zod';
import type { ProviderEndpoint } from './endpoint';
import { PROVIDER_SCOPES } from './scopes';

export const PROVIDER_API_PREFIX = '/api/provider/v1';

type JsonObject = Record<string, unknown>;
/** Path items written by hand, for calls that are not JSON endpoints (DICOMweb). */
export type ExtraPaths = Record<string, JsonObject>;

const errorSchema = z
  .object({
    code: z.string().describe('Stable error code, e.g. VALIDATION, API_KEY_SCOPE, NOT_FOUND.'),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('With VALIDATION: one entry per field, the first rule it broke.'),
    retryAfterSeconds: z.number().int().optional(),
    requiredScope: z.string().optional(),
  })
  .loose();

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** Answers any call can get, added to every operation so a client knows them. */
const COMMON_ERRORS: Record<number, string> = {
  401: 'No key, an unknown, revoked (API_KEY_REVOKED) or expired (API_KEY_EXPIRED) key.',
  403: 'The key lacks the scope this call needs (API_KEY_SCOPE).',
  429: "Over the key's calls per minute (RATE_LIMITED); wait for `Retry-After` seconds.",
  500: 'Unexpected failure (INTERNAL); safe to retry.',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonObject;
  return rest;
}

function errorResponse(description: string): JsonObject {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

function parametersOf(endpoint: ProviderEndpoint): JsonObject[] {
  const parameters: JsonObject[] = [];
  for (const [location, schema] of [
    ['path', endpoint.request.params],
    ['query', endpoint.request.query],
  ] as const) {
    if (!schema) continue;
    const objectSchema = jsonSchema(schema, 'input') as { properties?: Record<string, JsonObject>; required?: string[] };
    for (const [name, property] of Object.entries(objectSchema.properties ?? {})) {
      const { description, ...propertySchema } = property;
      parameters.push({
        name,
        in: location,
        required: location === 'path' || (objectSchema.required ?? []).includes(name),
        ...(typeof description === 'string' && { description }),
        schema: propertySchema,
      });
    }
  }
  if (endpoint.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any unique string (a UUID); a retry with the same key and request gets the first answer, with `Idempotent-Replayed: true`.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  return parameters;
}

function operationOf(endpoint: ProviderEndpoint): JsonObject {
  const responses: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(endpoint.responses)) {
    responses[status] = response.schema
      ? { description: response.description, content: { 'application/json': { schema: jsonSchema(response.schema, 'output') } } }
      : { description: response.description };
  }
  const hasInput = endpoint.request.body || endpoint.request.query || endpoint.binaryBody;
  if (hasInput && !responses[400]) responses[400] = errorResponse('The input breaks a rule (VALIDATION, with `issues`).');
  if (endpoint.request.params && !responses[404]) responses[404] = errorResponse('No such object (NOT_FOUND).');
  if (endpoint.idempotent) {
    responses[409] ??= errorResponse('A call with this Idempotency-Key is still running (IDEMPOTENCY_KEY_IN_PROGRESS).');
    responses[422] ??= errorResponse('The Idempotency-Key was used with another request (IDEMPOTENCY_KEY_REUSED).');
  }
  if (endpoint.binaryBody) responses[415] ??= errorResponse(`The body is not ${endpoint.binaryBody.mediaType} (UNSUPPORTED_MEDIA_TYPE).`);
  for (const [status, description] of Object.entries(COMMON_ERRORS)) responses[status] ??= errorResponse(description);

  const requestBody = endpoint.binaryBody
    ? {
        required: true,
        description: endpoint.binaryBody.description,
        content: { [endpoint.binaryBody.mediaType]: { schema: { type: 'string', contentMediaType: endpoint.binaryBody.mediaType } } },
      }
    : endpoint.request.body
      ? { required: true, content: { 'application/json': { schema: jsonSchema(endpoint.request.body, 'input') } } }
      : undefined;

  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.description && { description: endpoint.description }),
    tags: [endpoint.tag],
    security: [{ apiKey: [endpoint.scope] }],
    parameters: parametersOf(endpoint),
    ...(requestBody && { requestBody }),
    responses,
  };
}

/** `/patients/:externalId` as OpenAPI writes it: `/patients/{externalId}`. */
function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}

/**
 * The provider API as an OpenAPI 3.1 document, generated from the endpoint definitions (the
 * same zod schemas that validate each call) plus the hand-described DICOMweb paths.
 */
export function providerOpenApiDocument(endpoints: readonly ProviderEndpoint[], extraPaths: ExtraPaths, version: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of endpoints) {
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method]: operationOf(endpoint) };
  }
  for (const [path, item] of Object.entries(extraPaths)) paths[path] = { ...paths[path], ...item };
  const tags = [...new Set(endpoints.map((endpoint) => endpoint.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Patient portal: provider API',
      version,
      description:
        "How the provider's systems (RIS, PACS) and staff tools feed the patient portal. Every call needs an API key " +
        '(`Authorization: Bearer mpk_...`) with the scope the call names; keys are created on the server with ' +
        '`npm run portal -- keys create`. Patients, screenings and documents are upserted by your own ids, so a retried ' +
        'call changes nothing; creating calls also honour `Idempotency-Key`. Every call is written to the staff audit.',
    },
    servers: [{ url: PROVIDER_API_PREFIX }],
    tags,
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'mpk_<8 characters>_<43 characters>',
          description: `Scopes: ${PROVIDER_SCOPES.join(', ')}.`,
        },
      },
      schemas: { Error: jsonSchema(errorSchema, 'output') },
    },
  };
}
