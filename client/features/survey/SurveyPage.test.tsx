// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCsrfToken } from '../../lib/api';
import { setSignedIn } from '../../stores/session-store';
import { demoGuest, demoPatient, fakeApi, renderAt, startEnglish } from '../../testing/session';
import { notifications } from '../../stores/notification-store';
import SurveyPage from './SurveyPage';

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  notifications.items = [];
  setSignedIn(demoGuest);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const csrf = () => ({ body: { csrfToken: 't' } });
const slider = (name: RegExp) => screen.getByRole('slider', { name });

describe('SurveyPage', () => {
  it('asks eight questions: the lasting pain level only after a yes, both pain scales reversed and storing the real value', async () => {
    const requests = fakeApi({
      'GET /screening/survey': () => ({ status: 204 }),
      'GET /auth/csrf': csrf,
      'POST /screening/survey': () => ({ status: 201, body: {} }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/screening/survey', <SurveyPage />);

    const pain = await screen.findByRole('slider', { name: /How strong is the pain that lasted/ });
    expect((pain as HTMLInputElement).disabled).toBe(true);
    expect(screen.getAllByRole('slider')).toHaveLength(7);
    expect(screen.getAllByRole('radio')).toHaveLength(2);
    // Question 6, the pain of the examination itself, is always asked.
    const examinationPain = screen.getByRole('slider', { name: /How painful was the examination/ });
    expect((examinationPain as HTMLInputElement).disabled).toBe(false);

    // Question 1 up two steps: sufficient -> very good.
    await user.click(slider(/access to the screening/));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getAllByText('Very good').length).toBeGreaterThan(0);

    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    expect((pain as HTMLInputElement).disabled).toBe(false);
    // Reversed: the pain scale runs from strong (left) to no pain (right). The right end is
    // "no pain" (1), one step left from there is "discomfort" (2).
    await user.click(pain);
    await user.keyboard('{End}{ArrowLeft}');
    expect(screen.getAllByText('Discomfort').length).toBeGreaterThan(0);

    await user.click(screen.getByRole('button', { name: 'Send' }));
    const sent = requests.find((request) => request.method === 'POST');
    expect(sent?.body).toEqual({
      screeningAccess: 5,
      qualityOfService: 3,
      informationAccess: 3,
      patientComfort: 3,
      staffBehaviour: 3,
      painMeasure: 1,
      longTermPain: true,
      longTermPainLevel: 2,
    });
    // The guest goes back to her result page.
    expect(location.history.at(-1)).toBe('/screening');
  });

  it('sends no pain level after a no and takes the patient to her screenings', async () => {
    setSignedIn(demoPatient);
    const requests = fakeApi({
      'GET /screening/survey': () => ({ status: 204 }),
      'GET /auth/csrf': csrf,
      'POST /screening/survey': () => ({ status: 201, body: {} }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/screening/7/survey', <Route path="/screening/:id/survey" component={SurveyPage} />);
    await user.click(await screen.findByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      longTermPain: false,
      longTermPainLevel: null,
      painMeasure: 1,
    });
    const post = vi.mocked(fetch).mock.calls.find(([, init]) => init?.method === 'POST');
    expect(String(post?.[0])).toContain('id=7');
    expect(location.history.at(-1)).toBe('/screenings');
  });

  it('asks for the gate answer before sending', async () => {
    const requests = fakeApi({ 'GET /screening/survey': () => ({ status: 204 }) });
    const user = userEvent.setup();
    renderAt('/screening/survey', <SurveyPage />);
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Choose yes or no.')).toBeTruthy();
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('shows a sent survey read-only with its date and a way back', async () => {
    fakeApi({ 'GET /screening/survey': () => ({ body: { submittedAt: '2026-10-07T09:00:00Z' } }) });
    const user = userEvent.setup();
    const { location } = renderAt('/screening/survey', <SurveyPage />);
    expect(await screen.findByText('Sent on October 7, 2026')).toBeTruthy();
    expect(screen.queryByRole('slider')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(8);
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    expect(location.history.at(-1)).toBe('/screening');
  });
});
