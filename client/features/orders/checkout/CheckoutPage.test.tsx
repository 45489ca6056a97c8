// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConsultationSlot, Product } from '@common/types/orders';
import type { ScreeningResult } from '@common/types/result';
import { resetCsrfToken } from '../../../lib/api';
import { notifications } from '../../../stores/notification-store';
import { setSignedIn } from '../../../stores/session-store';
import { demoPatient, fakeApi, renderAt, startEnglish, type FakeRoutes } from '../../../testing/session';
import CheckoutPage from './CheckoutPage';

const POLISH_DESCRIPTION = '0b6c1a52-43a4-4c1f-9d53-2f3d55c7a001';
const products: Product[] = [
  {
    id: 1,
    code: 'copy',
    kind: 'copy',
    name: { pl: 'Kopia', en: 'Copy' },
    description: { pl: 'Kopia', en: 'Copy' },
    price: { amountGrosze: 3000, currency: 'PLN' },
  },
  {
    id: 2,
    code: 'translation-en',
    kind: 'translation_en',
    name: { pl: 'Tłumaczenie na angielski', en: 'Translation into English' },
    description: { pl: 'Opis po angielsku', en: 'Your description in English' },
    price: { amountGrosze: 4900, currency: 'PLN' },
  },
  {
    id: 4,
    code: 'consultation',
    kind: 'consultation',
    name: { pl: 'Konsultacja', en: 'Consultation with a radiologist' },
    description: { pl: 'Rozmowa', en: 'A video call about your result' },
    price: { amountGrosze: 15_000, currency: 'PLN' },
  },
];
const slots: ConsultationSlot[] = [
  { id: 7, startsAt: '2030-03-04T09:00:00Z', durationMinutes: 20, radiologistName: 'Dr Ewa Lis' },
  { id: 8, startsAt: '2030-03-05T10:00:00Z', durationMinutes: 20, radiologistName: 'Dr Jan Wrona' },
];
const result = {
  screening: { id: 41, examinedAt: '2026-10-06T08:30:00Z', firstName: 'Anna', lastName: 'Nowak' },
  documents: [{ id: POLISH_DESCRIPTION, name: 'opis-badania.pdf', type: 'description', language: 'pl', sizeBytes: 1000 }],
} as unknown as ScreeningResult;

function routes(extra: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /auth/csrf': () => ({ body: { csrfToken: 'token' } }),
    'GET /products': () => ({ body: products }),
    'GET /consultations': () => ({ body: slots }),
    'GET /screening/result': () => ({ body: result }),
    'POST /payment': () => ({ body: { redirectUri: '/payment-sandbox/abc', orderId: 50, paymentId: 9 } }),
    ...extra,
  };
}

const renderCheckout = () =>
  renderAt('/buy-consultation/screening/41', <Route path="/buy-consultation/screening/:id" component={CheckoutPage} />);

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  setSignedIn(demoPatient);
  notifications.items = [];
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('CheckoutPage', () => {
  it('offers the translations and the consultation, not the copy, with their prices', async () => {
    fakeApi(routes());
    renderCheckout();
    expect(await screen.findByRole('radio', { name: /Translation into English/ })).toBeTruthy();
    expect(screen.getByRole('radio', { name: /Consultation with a radiologist/ })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /Copy/ })).toBeNull();
    expect(screen.getByText(/PLN\s150\.00/)).toBeTruthy();
  });

  it('orders a translation, then opens its payment and goes to the checkout', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const requests = fakeApi(
      routes({
        'POST /order': () => ({ status: 201, body: { orderId: 50, expiresAt: '2030-01-01T10:00:00Z', price: products[1]?.price } }),
      }),
    );
    renderCheckout();
    await userEvent.click(await screen.findByRole('radio', { name: /Translation into English/ }));
    expect(screen.getByRole('radio', { name: 'Description (Polish)' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Summary' })).toBeTruthy();
    expect(screen.getByText('Anna')).toBeTruthy();
    expect(screen.getByText('Nowak')).toBeTruthy();
    expect(screen.getByText('anna.nowak@example.com')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/payment-sandbox/abc'));
    const posts = requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.path)).toEqual(['/order', '/payment']);
    expect(posts[0]?.body).toEqual({ screeningId: 41, productId: 2, documentId: POLISH_DESCRIPTION, language: 'en' });
    expect(posts[1]?.body).toEqual({ orderId: 50 });
  });

  it('books a chosen consultation slot for the session user, says how long it is held, then pays', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const requests = fakeApi(
      routes({
        'POST /order-consultation': () => ({
          status: 201,
          body: { orderId: 50, expiresAt: '2030-01-01T10:15:00Z', price: products[2]?.price },
        }),
      }),
    );
    renderCheckout();
    await userEvent.click(await screen.findByRole('radio', { name: /Consultation with a radiologist/ }));
    const pay = screen.getByRole('button', { name: 'Pay' });
    expect(pay.hasAttribute('disabled') || pay.getAttribute('aria-disabled') === 'true' || pay.hasAttribute('data-disabled')).toBe(true);
    await userEvent.click(await screen.findByRole('radio', { name: /Dr Jan Wrona/ }));
    expect(screen.getByText('Anna Nowak')).toBeTruthy();
    expect(screen.getAllByText(/Dr Jan Wrona/).length).toBeGreaterThan(1); // the option and the summary
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/payment-sandbox/abc'));
    expect(screen.getByText(/The date is held for you until/)).toBeTruthy();
    const posts = requests.filter((request) => request.method === 'POST');
    expect(posts[0]?.body).toEqual({ screeningId: 41, productId: 4, consultationRegistrationId: 8, userId: 1, language: 'en' });
    expect(posts[1]?.body).toEqual({ orderId: 50, consultationRegistrationId: 8 });
  });

  it('says when the slot was taken meanwhile and shows the slots still free', async () => {
    let free = slots;
    fakeApi(
      routes({
        'GET /consultations': () => ({ body: free }),
        'POST /order-consultation': () => {
          free = slots.slice(0, 1);
          return { status: 409, body: { code: 'SLOT_TAKEN' } };
        },
      }),
    );
    renderCheckout();
    await userEvent.click(await screen.findByRole('radio', { name: /Consultation with a radiologist/ }));
    await userEvent.click(await screen.findByRole('radio', { name: /Dr Jan Wrona/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(screen.queryByRole('radio', { name: /Dr Jan Wrona/ })).toBeNull());
    const failure = notifications.items.find((item) => item.key === 'errors.SLOT_TAKEN');
    expect(failure?.persistent).toBe(true);
    expect(screen.getByRole('radio', { name: /Dr Ewa Lis/ })).toBeTruthy();
  });

  it('keeps a failed order on screen until closed', async () => {
    fakeApi(routes({ 'POST /order': () => ({ status: 500, body: { code: 'INTERNAL' } }) }));
    renderCheckout();
    await userEvent.click(await screen.findByRole('radio', { name: /Translation into English/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(notifications.items.map((item) => [item.key, item.persistent])).toEqual([['orders.errors.create', true]]));
  });

  it('pays the placed order again when the checkout could not be opened, without ordering twice', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    let providerUp = false;
    const requests = fakeApi(
      routes({
        'POST /order': () => ({ status: 201, body: { orderId: 50, expiresAt: '2030-01-01T10:00:00Z', price: products[1]?.price } }),
        'POST /payment': () =>
          providerUp
            ? { body: { redirectUri: '/payment-sandbox/abc', orderId: 50, paymentId: 9 } }
            : { status: 500, body: { code: 'INTERNAL' } },
      }),
    );
    renderCheckout();
    await userEvent.click(await screen.findByRole('radio', { name: /Translation into English/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(notifications.items.map((item) => item.key)).toContain('orders.errors.redirect'));
    providerUp = true;
    await userEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/payment-sandbox/abc'));
    expect(requests.filter((request) => request.path === '/order')).toHaveLength(1);
  });
});
