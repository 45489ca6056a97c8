// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ScreeningResult } from '@common/types/result';
import type { BiradsResult } from '@common/types/screenings';
import { setSignedIn } from '../../stores/session-store';
import { demoScreening } from '../../testing/result';
import { demoGuest, demoPatient, renderAt, startEnglish } from '../../testing/session';
import { ResultSummary } from './ResultSummary';

const screening = (result: BiradsResult | null): ScreeningResult['screening'] => ({ ...demoScreening, result });

const show = (result: BiradsResult | null) => renderAt('/screening', <ResultSummary screening={screening(result)} />);
const explanation = (name: string) => screen.getByRole('region', { name });

beforeAll(startEnglish);
beforeEach(() => setSignedIn(demoGuest));
afterEach(cleanup);

describe('the result explained in plain words', () => {
  it('says what a benign result means and what to do, with nothing about referrals', () => {
    show(2);
    const note = explanation('A benign change was found');
    expect(note.dataset.tone).toBe('routine');
    expect(within(note).getByText(/Changes like this are common and harmless/)).toBeTruthy();
    expect(within(note).getByText(/Have your next mammogram in 2 years/)).toBeTruthy();
    expect(within(note).queryByText(/Your referral is/)).toBeNull();
    // The result in the table is described by the explanation's heading.
    const cell = screen.getByTestId('result-wording');
    const heading = within(note).getByRole('heading', { level: 3 });
    expect(cell.getAttribute('aria-describedby')).toBe(heading.id);
  });

  it('sets a suspicious result apart and tells the guest where her referral is and how to book', () => {
    show(4);
    const note = explanation('Further tests are needed');
    expect(note.dataset.tone).toBe('attention');
    expect(note.className).toContain('result-explanation--attention');
    expect(within(note).getByText(/This is not a diagnosis/)).toBeTruthy();
    expect(
      within(note).getByText('Your referral is on this page, in the Documents section below. You can download and print it.'),
    ).toBeTruthy();
    expect(within(note).getByText(/To book, call a breast diagnostic centre/)).toBeTruthy();
    expect(within(note).getByRole('link', { name: '+48 22 000 00 00' }).getAttribute('href')).toBe('tel:+48220000000');
    expect(within(note).getByRole('link', { name: 'contact form' }).getAttribute('href')).toBe('/contact');
    // The guest has no referrals page.
    expect(within(note).queryByRole('link', { name: 'Referrals' })).toBeNull();
  });

  it('links a patient to her referrals', () => {
    setSignedIn(demoPatient);
    show(5);
    const note = explanation('Further tests are needed as soon as possible');
    expect(note.dataset.tone).toBe('attention');
    expect(within(note).getByRole('link', { name: 'Referrals' }).getAttribute('href')).toBe('/referral');
  });

  it.each([
    [-1, 'More images or tests are needed'],
    [3, 'A check-up is needed'],
  ] as const)('gives %s a follow-up note with the referral', (value, name) => {
    show(value);
    const note = explanation(name);
    expect(note.dataset.tone).toBe('followUp');
    expect(within(note).getByText(/Your referral is on this page/)).toBeTruthy();
  });

  it('explains nothing while there is no result', () => {
    show(null);
    expect(screen.getAllByRole('region').map((region) => region.getAttribute('class'))).toEqual(['card result-card']);
    expect(screen.getByTestId('result-wording').hasAttribute('aria-describedby')).toBe(false);
  });
});
