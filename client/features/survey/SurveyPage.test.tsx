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
const answersGiven = {
  screeningAccess: 3,
  qualityOfService: 3,
  informationAccess: 3,
  patientComfort: 3,
  staffBehaviour: 3,
  painMeasure: 1,
  longTermPain: false,
  longTermPainLevel: null,
};
const slider = (name: RegExp) => screen.getByRole('slider', { name });
/** The form's own live region (the page may hold others, e.g. the notifications). */
const surveyAlert = () => screen.getAllByRole('alert').find((element) => element.classList.contains('survey-alert'))!;

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

  it('asks for the gate answer before sending: announces it and moves focus to question 7', async () => {
    const requests = fakeApi({ 'GET /screening/survey': () => ({ status: 204 }) });
    const user = userEvent.setup();
    renderAt('/screening/survey', <SurveyPage />);
    // The live region is there, empty, before anything goes wrong.
    await screen.findByRole('button', { name: 'Send' });
    const region = surveyAlert();
    expect(region.textContent).toBe('');

    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(region.textContent).toContain('The survey has not been sent.');
    expect(within(region).getByText('Question 7: Choose yes or no.')).toBeTruthy();
    expect(await screen.findByText('Choose yes or no.')).toBeTruthy();
    expect(screen.getByRole('radiogroup', { name: /Did you feel pain lasting/ }).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Yes' }));
    expect(requests.some((request) => request.method === 'POST')).toBe(false);

    // Answered, the problem goes away.
    await user.click(screen.getByRole('radio', { name: 'No' }));
    expect(region.textContent).toBe('');
  });

  it('shows answers the server refused at their questions, in the same alert', async () => {
    fakeApi({
      'GET /screening/survey': () => ({ status: 204 }),
      'GET /auth/csrf': csrf,
      'POST /screening/survey': () => ({
        status: 400,
        body: { code: 'VALIDATION', issues: [{ path: 'qualityOfService', message: 'validation.survey.rating.invalid' }] },
      }),
    });
    const user = userEvent.setup();
    renderAt('/screening/survey', <SurveyPage />);
    await user.click(await screen.findByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const region = surveyAlert();
    expect(await within(region).findByText('Question 2: Choose a value from 1 to 5')).toBeTruthy();
    // No field of its own to focus: the alert takes the focus.
    expect(document.activeElement).toBe(region);
  });

  it('shows a sent survey read-only with her answers, its date and a way back', async () => {
    fakeApi({
      'GET /screening/survey': () => ({
        body: {
          submittedAt: '2026-10-07T09:00:00Z',
          answers: {
            screeningAccess: 5,
            qualityOfService: 4,
            informationAccess: 3,
            patientComfort: 2,
            staffBehaviour: 1,
            painMeasure: 2,
            longTermPain: false,
            longTermPainLevel: null,
          },
        },
      }),
    });
    const user = userEvent.setup();
    const { location } = renderAt('/screening/survey', <SurveyPage />);
    expect(await screen.findByText('Sent on October 7, 2026')).toBeTruthy();
    expect(screen.queryByRole('slider')).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'How do you rate the access to the screening (dates, place, waiting time)?Your answer: Very good',
      'How do you rate the quality of the service?Your answer: Good',
      'How do you rate the information you received about the examination?Your answer: Sufficient',
      'How do you rate your comfort during the examination?Your answer: Average',
      'How do you rate the behaviour of the staff?Your answer: Unsatisfactory',
      'How painful was the examination itself?Your answer: Discomfort',
      'Did you feel pain lasting after the examination?Your answer: No',
      'How strong is the pain that lasted after the examination?Your answer: Not asked – you had no lasting pain',
    ]);
    expect(screen.queryByText(/stored anonymously/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    expect(location.history.at(-1)).toBe('/screening');
  });

  it('says why a survey sent before answers were kept shows no answers', async () => {
    fakeApi({ 'GET /screening/survey': () => ({ body: { submittedAt: '2026-10-07T09:00:00Z', answers: null } }) });
    renderAt('/screening/survey', <SurveyPage />);
    expect(await screen.findByText('Sent on October 7, 2026')).toBeTruthy();
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(8);
    expect(screen.queryByText(/^Your answer:/)).toBeNull();
    expect(screen.getByText('The answers to this survey were stored anonymously, so they cannot be shown here.')).toBeTruthy();
  });

  it('shows her answers when a send finds the survey sent already', async () => {
    let sent = false;
    fakeApi({
      'GET /screening/survey': () =>
        sent
          ? { body: { submittedAt: '2026-10-07T09:00:00Z', answers: { ...answersGiven, longTermPain: true, longTermPainLevel: 4 } } }
          : { status: 204 },
      'GET /auth/csrf': csrf,
      'POST /screening/survey': () => {
        sent = true;
        return { status: 409, body: { code: 'SURVEY_ALREADY_SUBMITTED' } };
      },
    });
    const user = userEvent.setup();
    renderAt('/screening/survey', <SurveyPage />);
    await user.click(await screen.findByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Your answer: Medium')).toBeTruthy();
  });
});
