import type { Config } from '../config';
import type { Db } from '../db';
import type { JobQueue } from '../lib/job-queue';
import type { Logger } from '../lib/logger';
import { createPayuProvider } from './payu/adapter';
import type { PaymentProvider } from './provider';
import { createSandboxProvider } from './sandbox/adapter';
import { startSandboxNotifier, type SandboxNotifier } from './sandbox/notifier';

export { SANDBOX_PATH } from './sandbox/adapter';
export { sandboxCheckoutRouter } from './sandbox/routes';

export type PaymentProviders = {
  /** The configured provider (PAYMENT_PROVIDER) the orders pay through. */
  provider: PaymentProvider;
  /** The sandbox's notifier when the sandbox is the provider: its hosted page sends through it. */
  sandboxNotifier: SandboxNotifier | null;
};

/**
 * The payment adapter of PAYMENT_PROVIDER (DECISIONS.md 12): the built-in sandbox (default), or
 * PayU's REST API v2.1. The sandbox's notifications go out as jobs on the portal's queue.
 */
export function startPaymentProvider(deps: { config: Config; db: Db; queue: JobQueue; logger: Logger }): PaymentProviders {
  const { config, db, queue, logger } = deps;
  if (config.payments.provider === 'payu') {
    if (!config.payments.payu) throw new Error('PAYMENT_PROVIDER=payu without its PAYU_* settings');
    return { provider: createPayuProvider(config.payments.payu), sandboxNotifier: null };
  }
  const secondKey = config.payments.sandboxSecondKey;
  const sandboxNotifier = startSandboxNotifier({ db, queue, logger, secondKey });
  return { provider: createSandboxProvider({ db, publicUrl: config.publicUrl, secondKey, notifier: sandboxNotifier }), sandboxNotifier };
}
