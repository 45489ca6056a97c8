import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import type { ScreeningListResponse } from '../../common/types/screenings';
import { CONTRAST_THEMES, NO_VIOLATIONS_IN_ANY_THEME } from './support/axe';
import { en, pl } from './support/catalogs';
import { ANNA, RESULT_CODE } from './support/demo-accounts';
import { acceptConsents, fillResultLogin, submitPortalLogin } from './support/login-forms';
import { testOnOwnServer } from './support/own-server';
import { skipCookieDialog, startWithPreferences, type Preferences } from './support/preferences';

/**
 * The result in plain words next to its value (a benign one and the demo's BI-RADS 4 and 5), and
 * the survey: a send with an unanswered question is announced and focused, a sent survey shows
 * her answers. Sending the survey changes demo data: this file runs on a portal of its own.
 */
const test = testOnOwnServer();
// Each journey signs in afresh, and one checks all five themes with axe: room for a busy machine.
test.beforeEach(() => test.setTimeout(180_000));

/** Anna's demo screening with BI-RADS 4 (db/seeds/demo-people.ts), opened in the result portal. */
const SUSPICIOUS_CODE = 'Gy2hK8rw';
const ANNA_BIRTH_DIGITS = '19620723';

async function signInToResult(page: Page, baseURL: string | undefined, preferences: Partial<Preferences> = {}) {
  await startWithPreferences(page, { lang: 'en', ...preferences });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/login');
}

async function submitResultLogin(page: Page) {
  await acceptConsents(page, en);
  await page.getByRole('button', { name: en['login.submit'] }).click();
  await expect(page).toHaveURL(/\/screening$/);
}

const explanation = (page: Page, title: string) => page.getByRole('region', { name: title });

/**
 * axe's WCAG A/AA findings inside the page's main landmark, in each contrast theme. Scoped to
 * `main`: react-aria's live announcer (outside it) keeps a passing notification's announcement for
 * a few seconds, which is not this page's content; the whole page is checked by result.spec.ts.
 */
async function axeInMainInEveryTheme(page: Page): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const theme of CONTRAST_THEMES) {
    await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), theme);
    const { violations } = await new AxeBuilder({ page })
      .include('main')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    found[theme] = violations.map(
      (violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'default'));
  return found;
}

/** The frame's computed look: what must differ between a benign and a suspicious result. */
function frame(region: Locator) {
  return region.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.borderTopStyle, startWidth: parseFloat(style.borderInlineStartWidth) };
  });
}

test('a benign result says what it means and what to do, next to the result', async ({ page, baseURL }) => {
  await signInToResult(page, baseURL);
  await fillResultLogin(page, en, RESULT_CODE);
  await submitResultLogin(page);
  const card = page.getByRole('region', { name: en['result.summary.title'] });
  await expect(card.getByTestId('result-wording')).toHaveText(en['result.scale.benign']);
  const note = card.getByRole('region', { name: en['result.explanation.benign.title'] });
  await expect(note).toBeVisible();
  await expect(note).toHaveAttribute('data-tone', 'routine');
  await expect(note.getByText(en['result.explanation.benign.meaning'])).toBeVisible();
  await expect(note.getByText(en['result.explanation.benign.next'])).toBeVisible();
  await expect(note.getByText(en['result.explanation.referral.guest'])).toHaveCount(0);
  // In the accessibility tree, the result cell is described by the explanation.
  await expect(card.getByTestId('result-wording')).toHaveAccessibleDescription(en['result.explanation.benign.title']);
  // The page's accessibility tree holds the explanation, right after the table with the result.
  await expect(page.locator('main')).toMatchAriaSnapshot(`
    - region "${en['result.summary.title']}":
      - table:
        - rowgroup:
          - row:
            - cell "${en['result.scale.benign']}"
      - region "${en['result.explanation.benign.title']}":
        - heading "${en['result.explanation.benign.title']}" [level=3]
  `);
  const tree = await page.locator('main').ariaSnapshot();
  expect(tree).toContain(en['result.explanation.benign.meaning']);
  expect(tree).toContain(en['result.explanation.benign.next']);
  expect(await frame(note)).toMatchObject({ style: 'solid' });
});

test('a suspicious result looks different in every theme, and tells the guest where the referral is and how to book', async ({
  page,
  baseURL,
}) => {
  await signInToResult(page, baseURL);
  await page.getByLabel(en['login.accessCode.label'], { exact: true }).fill(SUSPICIOUS_CODE);
  await page.getByLabel(en['login.birthAt.label'], { exact: true }).pressSequentially(ANNA_BIRTH_DIGITS);
  await submitResultLogin(page);

  await expect(page.getByTestId('result-wording')).toHaveText(en['result.scale.suspicious']);
  const note = explanation(page, en['result.explanation.suspicious.title']);
  await expect(note).toBeVisible();
  await expect(note).toHaveAttribute('data-tone', 'attention');
  await expect(note.getByRole('heading', { level: 3, name: en['result.explanation.suspicious.title'] })).toBeVisible();
  await expect(note.getByText(en['result.explanation.suspicious.meaning'])).toBeVisible();
  await expect(note.getByText(en['result.explanation.referral.guest'])).toBeVisible();
  await expect(note.getByText(en['result.explanation.booking'])).toBeVisible();
  await expect(note.getByRole('link', { name: '+48 22 000 00 00' })).toHaveAttribute('href', 'tel:+48220000000');
  const tree = await page.locator('main').ariaSnapshot();
  for (const key of [
    'result.explanation.suspicious.title',
    'result.explanation.suspicious.meaning',
    'result.explanation.suspicious.next',
    'result.explanation.referral.guest',
    'result.explanation.booking',
  ] as const) {
    expect(tree, key).toContain(en[key]);
  }
  // The referral the text points to is there, in the documents below.
  await expect(page.getByRole('region', { name: en['result.documents.referral'], exact: true })).toBeVisible();

  // Not colour alone: a double frame with a wide side bar (a benign one has a plain thin frame).
  for (const theme of CONTRAST_THEMES) {
    await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), theme);
    const look = await frame(note);
    expect(look.style, theme).toBe('double');
    expect(look.startWidth, theme).toBeGreaterThanOrEqual(10);
  }
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'default'));
  expect(await axeInMainInEveryTheme(page)).toEqual(NO_VIOLATIONS_IN_ANY_THEME);

  // The contact form is one link away.
  await note.getByRole('link', { name: 'contact form' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});

test('the patient reads her BI-RADS 5 in Polish, with a link to her referrals', async ({ page, baseURL }) => {
  await startWithPreferences(page, { lang: 'pl' });
  await skipCookieDialog(page.context(), baseURL);
  await page.goto('/portal/login');
  await submitPortalLogin(page, pl, ANNA);
  await expect(page).toHaveURL(/\/screenings$/);
  const list = (await (await page.request.get('/api/screenings?result=5')).json()) as ScreeningListResponse;
  expect(list.items).toHaveLength(1);

  await page.goto(`/screening/${list.items[0]!.screening.id}`);
  const note = explanation(page, pl['result.explanation.malignant.title']);
  await expect(note).toBeVisible();
  await expect(note).toHaveAttribute('data-tone', 'attention');
  await expect(note.getByText(pl['result.explanation.malignant.next'])).toBeVisible();
  await expect(page.getByTestId('result-wording')).toHaveAccessibleDescription(pl['result.explanation.malignant.title']);
  const tree = await page.locator('main').ariaSnapshot();
  expect(tree).toContain(pl['result.explanation.malignant.meaning']);
  // Not colour alone, in Polish too: the double frame of a suspicious result.
  expect(await frame(note)).toMatchObject({ style: 'double' });
  await note.getByRole('link', { name: 'Skierowania' }).click();
  await expect(page).toHaveURL(/\/referral$/);
});

test('a send with question 7 unanswered is announced and takes her there; the sent survey shows her answers', async ({ page, baseURL }) => {
  // A phone at the largest font: question 7 is off screen when she reaches the send button.
  await page.setViewportSize({ width: 360, height: 640 });
  await signInToResult(page, baseURL, { fontScale: 1.6 });
  await fillResultLogin(page, en, RESULT_CODE);
  await submitResultLogin(page);
  await page.goto('/screening/survey');

  const alert = page.getByRole('alert').filter({ hasText: en['survey.errors.notSent'] });
  const gate = page.getByRole('radiogroup', { name: new RegExp(en['survey.question.longTermPain']) });
  const send = page.getByRole('button', { name: en['survey.send'] });
  await send.scrollIntoViewIfNeeded();
  await expect(gate).not.toBeInViewport();
  await send.click();

  await expect(alert).toBeVisible();
  await expect(alert).toContainText(en['survey.errors.question'].replace('{number}', '7').replace('{message}', en['survey.gateRequired']));
  await expect(page.getByRole('radio', { name: en['survey.yes'] })).toBeFocused();
  await expect(gate).toBeInViewport();
  await expect(gate).toHaveAttribute('aria-invalid', 'true');

  // Answered and sent.
  const access = page.getByRole('slider', { name: new RegExp(en['survey.question.screeningAccess'].replace(/[()?]/g, '\\$&')) });
  await access.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.getByRole('radio', { name: en['survey.yes'] }).press('Space');
  await expect(alert).toHaveCount(0);
  const lastingPain = page.getByRole('slider', { name: new RegExp(en['survey.question.longTermPainLevel']) });
  await lastingPain.focus();
  // Reversed scale: Home is its left end, the strongest pain.
  await page.keyboard.press('Home');
  await send.click();
  await expect(page).toHaveURL(/\/screening$/);

  await page.goto('/screening/survey');
  await expect(page.getByText(new RegExp(`^${en['survey.sentOn'].replace('{date}', '')}`))).toBeVisible();
  const answers = page.getByRole('list').filter({ hasText: en['survey.question.staffBehaviour'] });
  const answer = (words: string) => en['survey.view.answer'].replace('{answer}', words);
  await expect(answers.getByRole('listitem')).toHaveCount(8);
  await expect(answers.getByRole('listitem').nth(0)).toContainText(answer(en['survey.quality.veryGood']));
  await expect(answers.getByRole('listitem').nth(1)).toContainText(answer(en['survey.quality.sufficient']));
  await expect(answers.getByRole('listitem').nth(6)).toContainText(answer(en['survey.yes']));
  await expect(answers.getByRole('listitem').nth(7)).toContainText(answer(en['survey.pain.strong']));
  await expect(page.getByRole('slider')).toHaveCount(0);
  await expect(page.getByText(en['survey.anonymous'])).toHaveCount(0);
});
