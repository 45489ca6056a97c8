import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import { isProviderScope, PROVIDER_SCOPES, type ProviderScope } from '../scopes';
import { generateApiKey } from './api-key-secret';
import { insertApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from './api-keys-repo';

export type ApiKeyDeps = { db: Db; clock: Clock; config: Pick<Config, 'providerApi'> };

export type NewApiKey = { name: string; scopes: string[]; expiresAt?: Date; rateLimitPerMinute?: number; createdBy: string };

export class ApiKeyInputError extends Error {}

/** Staff manage keys on the server (the command line); the API itself cannot mint keys. */
export function createApiKeyService({ db, clock, config }: ApiKeyDeps) {
  return {
    /** The whole key is in the answer once; only its hash is kept. */
    async create(input: NewApiKey): Promise<{ key: string; apiKey: ApiKeyRow }> {
      const name = input.name.trim();
      if (name.length < 1 || name.length > 100) throw new ApiKeyInputError('A key needs a name of 1 to 100 characters.');
      const unknown = input.scopes.filter((scope) => !isProviderScope(scope));
      if (input.scopes.length === 0 || unknown.length > 0) {
        throw new ApiKeyInputError(`Scopes must be one or more of: ${PROVIDER_SCOPES.join(', ')}.`);
      }
      if (input.expiresAt && input.expiresAt.getTime() <= clock()) throw new ApiKeyInputError('The expiry must be in the future.');
      const { key, prefix, secretHash } = generateApiKey();
      const apiKey = await insertApiKey(db, {
        name,
        prefix,
        secretHash,
        scopes: [...new Set(input.scopes as ProviderScope[])],
        rateLimitPerMinute: input.rateLimitPerMinute ?? config.providerApi.rateLimitPerMinute,
        createdBy: input.createdBy,
        expiresAt: input.expiresAt ?? null,
      });
      return { key, apiKey };
    },
    list: () => listApiKeys(db),
    revoke: (idOrPrefix: number | string) => revokeApiKey(db, idOrPrefix, new Date(clock())),
  };
}
