import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import pl from '../i18n/pl.json';
import type { MessageKey } from './intl';
import { resultExplanation, resultWordingKey, type ResultTone } from './screening-result';

/**
 * docs/result-explanations.md is the reviewers' copy of the `result.explanation.*` block of the
 * catalogs: each result with what the page says about it, Polish and English side by side. It is
 * generated from the catalogs, and this test fails while the two differ. After changing a text,
 * regenerate it with `UPDATE_DOCS=1 npx vitest run client/lib/result-explanations-doc.test.ts`.
 */
const DOC = new URL('../../docs/result-explanations.md', import.meta.url);
const PREFIX = 'result.explanation.';

/** The scale as a patient reads it (spec section 3). */
const SCALE = [1, 2, 3, 4, 5, -1] as const;

const FURTHER_TESTS_KEYS: MessageKey[] = [
  'result.explanation.referral.patient',
  'result.explanation.referral.guest',
  'result.explanation.booking',
  'result.explanation.questions',
];

const TONES: Record<ResultTone, string> = {
  routine: 'routine (thin frame, tick icon)',
  followUp: 'follow-up (side bar, "i" icon)',
  attention: 'attention (thick double frame, "!" icon): must not look like a benign result',
};

/** A message as the catalog holds it, safe in a table cell: its tags shown, not taken for HTML. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '\\<');

function table(keys: MessageKey[]): string[] {
  return [
    '| key | Polski | English |',
    '| --- | --- | --- |',
    ...keys.map((key) => `| \`${key}\` | ${cell(pl[key])} | ${cell(en[key as keyof typeof en])} |`),
  ];
}

function renderDoc(): string {
  const lines = [
    '# Result explanations',
    '',
    '<!-- Generated from client/i18n/pl.json and en.json by client/lib/result-explanations-doc.test.ts; do not edit. -->',
    '',
    'The result page explains the BI-RADS result in plain words next to it (the examination card,',
    '`client/features/result/ResultSummary.tsx`). All its texts are one block of the catalogs, the keys',
    'starting with `result.explanation.`; this page lists that block for review. To change a text, edit both',
    'catalogs and run `UPDATE_DOCS=1 npx vitest run client/lib/result-explanations-doc.test.ts`; the test',
    'fails while this page and the catalogs differ. `<link>` marks the words that become a link; `{phone}` is',
    "the provider's phone number.",
  ];
  for (const value of SCALE) {
    const explanation = resultExplanation(value)!;
    const wording = resultWordingKey(value)!;
    lines.push(
      '',
      `## ${value}: ${en[wording as keyof typeof en]}`,
      '',
      `Look: ${TONES[explanation.tone]}. ${explanation.furtherTests ? 'Followed by the referral and booking texts below.' : 'No referral texts.'}`,
      '',
      ...table([wording, explanation.title, explanation.meaning, explanation.next]),
    );
  }
  const withFurtherTests = SCALE.filter((value) => resultExplanation(value)!.furtherTests).join(', ');
  lines.push(
    '',
    `## Referral and booking (results ${withFurtherTests})`,
    '',
    'The referral text has two forms: a patient-portal user gets a link to her referrals, a result-portal',
    'guest (who has no referrals page) is told where the referral is on the page.',
    '',
    ...table(FURTHER_TESTS_KEYS),
    '',
  );
  return lines.join('\n');
}

describe('docs/result-explanations.md', () => {
  const rendered = renderDoc();
  if (process.env.UPDATE_DOCS) writeFileSync(DOC, rendered);

  it('is the catalogs’ result.explanation block as generated', () => {
    expect(existsSync(DOC), 'generate it with UPDATE_DOCS=1').toBe(true);
    expect(readFileSync(DOC, 'utf8')).toBe(rendered);
  });

  it('lists every key of the block, so no text escapes review', () => {
    const block = Object.keys(pl).filter((key) => key.startsWith(PREFIX));
    expect(block.length).toBeGreaterThan(0);
    expect(block.filter((key) => !rendered.includes(`\`${key}\``))).toEqual([]);
  });
});
