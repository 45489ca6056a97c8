import { z } from 'zod';

/** PayU's point of sale as configured (README "Switching to PayU"). */
export type PayuConfig = { baseUrl: string; posId: string; clientId: string; clientSecret: string; secondKey: string };

const payuEnvSchema = z.object({
  // PayU's sandbox by default; production is https://secure.payu.com.
  PAYU_BASE_URL: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//.test(url), 'must be an http(s) URL')
    .default('https://secure.snd.payu.com'),
  PAYU_POS_ID: z.string().regex(/^\d+$/, 'must be the numeric POS id'),
  PAYU_CLIENT_ID: z.string().min(1),
  PAYU_CLIENT_SECRET: z.string().min(1),
  PAYU_SECOND_KEY: z.string().min(1),
});

/** The PAYU_* settings, or an Error naming each one that is missing or wrong. */
export function readPayuConfig(env: NodeJS.ProcessEnv): PayuConfig {
  const parsed = payuEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`PAYMENT_PROVIDER=payu needs its PAYU_* settings (${problems})`);
  }
  const e = parsed.data;
  return {
    baseUrl: e.PAYU_BASE_URL.replace(/\/+$/, ''),
    posId: e.PAYU_POS_ID,
    clientId: e.PAYU_CLIENT_ID,
    clientSecret: e.PAYU_CLIENT_SECRET,
    secondKey: e.PAYU_SECOND_KEY,
  };
}
