import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { TestApp, TestResponse } from './app';
import { createApiKeyService } from '../../server/provider/keys/api-key-service';
import { PROVIDER_API_PREFIX } from '../../server/provider/openapi';
import type { ProviderScope } from '../../server/provider/scopes';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** A key of the test app, created as the command line creates one; the whole key is returned once. */
export async function createTestApiKey(
  app: TestApp,
  scopes: readonly ProviderScope[],
  options: { name?: string; expiresAt?: Date; rateLimitPerMinute?: number } = {},
): Promise<{ key: string; id: number; prefix: string }> {
  const service = createApiKeyService({ db: app.db, clock: app.clock.now, config: app.config });
  const { key, apiKey } = await service.create({ name: options.name ?? 'test key', scopes: [...scopes], createdBy: 'test', ...options });
  return { key, id: apiKey.id, prefix: apiKey.prefix };
}

type OpenApiOperation = { responses: Record<string, { content?: Record<string, { schema?: object }> }> };
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>>; components: { schemas: Record<string, object> } };

export type ProviderRequest = {
  /** JSON body. */
  body?: unknown;
  /** Bytes sent as they are, with `contentType`. */
  rawBody?: Uint8Array | string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Leave out `Authorization`. */
  withoutKey?: boolean;
};

/**
 * A provider system in miniature: calls `/api/provider/v1` with its key, and checks every answer
 * against the app's own OpenAPI document (its status must be described, and a JSON body must
 * match the described schema, checked by Ajv), so a test that passes proves the document right.
 */
export class ProviderClient {
  private document: OpenApiDocument | undefined;
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly validators = new Map<object, ValidateFunction>();

  constructor(
    private readonly baseUrl: string,
    readonly key: string | undefined,
  ) {}

  get(path: string, request: ProviderRequest = {}) {
    return this.call('GET', path, request);
  }
  post(path: string, body?: unknown, request: ProviderRequest = {}) {
    return this.call('POST', path, { ...request, body });
  }
  put(path: string, body?: unknown, request: ProviderRequest = {}) {
    return this.call('PUT', path, { ...request, body });
  }
  patch(path: string, body?: unknown, request: ProviderRequest = {}) {
    return this.call('PATCH', path, { ...request, body });
  }
  delete(path: string, request: ProviderRequest = {}) {
    return this.call('DELETE', path, request);
  }

  /** `path` is relative to `/api/provider/v1`, with its query string. */
  async call(method: string, path: string, request: ProviderRequest = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    if (this.key && !request.withoutKey) headers.authorization ??= `Bearer ${this.key}`;
    let body: BodyInit | undefined;
    if (request.rawBody !== undefined) {
      body = typeof request.rawBody === 'string' ? request.rawBody : Buffer.from(request.rawBody);
      headers['content-type'] ??= request.contentType ?? 'application/octet-stream';
    } else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${PROVIDER_API_PREFIX}${path}`, { method, headers, body });
    const text = await response.text();
    const parsed = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : undefined;
    const answer = { status: response.status, headers: response.headers, body: parsed, text };
    await this.checkAgainstDocument(method, path, answer);
    return answer;
  }

  /** The served OpenAPI document, fetched once. */
  async openApiDocument(): Promise<OpenApiDocument> {
    if (!this.document) {
      const response = await fetch(`${this.baseUrl}${PROVIDER_API_PREFIX}/openapi.json`);
      this.document = (await response.json()) as OpenApiDocument;
      this.ajv.addSchema({ $id: 'openapi-components', $defs: this.document.components.schemas });
    }
    return this.document;
  }

  private async checkAgainstDocument(method: string, path: string, answer: TestResponse): Promise<void> {
    const document = await this.openApiDocument();
    const pathOnly = path.split('?')[0]!;
    const template = Object.keys(document.paths).find((candidate) => templateMatches(candidate, pathOnly));
    // Unknown paths answer 404 with the error body; nothing to check them against.
    if (!template) {
      if (answer.status !== 404)
        throw new Error(`${method} ${pathOnly} answered ${answer.status} but the OpenAPI document has no such path`);
      return;
    }
    const operation = document.paths[template]![method.toLowerCase()];
    if (!operation) {
      if (answer.status !== 404 && answer.status !== 405) throw new Error(`${method} ${template} is not in the OpenAPI document`);
      return;
    }
    const described = operation.responses[String(answer.status)] ?? operation.responses.default;
    if (!described) throw new Error(`${method} ${template} answered ${answer.status}, which the OpenAPI document does not describe`);
    // application/json, or the DICOM JSON of DICOMweb (application/dicom+json).
    const mediaType = answer.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    if (answer.status < 300 && described.content && !Object.keys(described.content).some((type) => type.split(';')[0] === mediaType)) {
      throw new Error(`${method} ${template} ${answer.status} answered ${mediaType}, which the OpenAPI document does not describe`);
    }
    const schema = (described.content?.[mediaType] ?? described.content?.['application/json'])?.schema;
    if (!schema || answer.body === undefined) return;
    const validate = this.validatorFor(schema);
    if (!validate(answer.body)) {
      throw new Error(
        `${method} ${template} ${answer.status}: the body does not match the OpenAPI document: ${this.ajv.errorsText(validate.errors)}\n${answer.text.slice(0, 500)}`,
      );
    }
  }

  private validatorFor(schema: object): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi-components#/$defs/'));
      validate = this.ajv.compile(rewritten);
      this.validators.set(schema, validate);
    }
    return validate;
  }
}

function templateMatches(template: string, path: string): boolean {
  const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return pattern.test(path);
}

/** A client of the app's provider API with a fresh key of these scopes. */
export async function providerClient(app: TestApp, scopes: readonly ProviderScope[]): Promise<ProviderClient> {
  const { key } = await createTestApiKey(app, scopes);
  return new ProviderClient(app.baseUrl, key);
}
