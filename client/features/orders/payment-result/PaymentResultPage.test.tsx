// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentStatus } from '@common/types/orders';
import { resetCsrfToken } from '../../../lib/api';
import { setSignedIn } from '../../../stores/session-store';
import { demoPatient, fakeApi, renderAt, startEnglish, type FakeRoutes } from '../../../testing/session';
import { orderView } from '../order-fixtures';
import PaymentResultPage from './PaymentResultPage';

const RETURN = '/payment?paymentId=9&screeningId=41';

function routes(status: PaymentStatus | string, extra: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /auth/csrf': () => ({ body: { csrfToken: 'token' } }),
    'POST /screening/order-copy/payment-confirm/41': () => ({ body: { status, orderId: 42, screeningId: 41 } }),
    'GET /order/42/status': () => ({ body: orderView(status === 'COMPLETED' || status === 'CANCELED' ? status : 'NEW') }),
    ...extra,
  };
}

const linkTo = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  setSignedIn(demoPatient);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('PaymentResultPage', () => {
  it('shows a spinner until the verified status is known, then announces it', async () => {
    const pending: Array<(value: { body: unknown }) => void> = [];
    fakeApi(
      routes('COMPLETED', {
        'POST /screening/order-copy/payment-confirm/41': () => new Promise((resolve) => void pending.push(resolve)),
      }),
    );
    renderAt(RETURN, <PaymentResultPage />);
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('Checking the payment…');
    expect(region.querySelector('.spinner')).not.toBeNull();
    await waitFor(() => expect(pending).toHaveLength(1));
    pending[0]?.({ body: { status: 'COMPLETED', orderId: 42, screeningId: 41 } });
    await waitFor(() => expect(region.textContent).toBe('Thank you, your payment has been completed.'));
    expect(region.querySelector('.spinner')).toBeNull();
  });

  it('confirms the payment of the return by its ids', async () => {
    fakeApi(routes('COMPLETED'));
    const fetchMock = vi.mocked(fetch);
    renderAt(RETURN, <PaymentResultPage />);
    expect(await screen.findByText('Thank you, your payment has been completed.')).toBeTruthy();
    const urls = fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls).toContain('/api/screening/order-copy/payment-confirm/41?paymentId=9');
    expect(screen.queryByRole('button', { name: 'Pay again' })).toBeNull();
  });

  it('shows a pending payment with a reload that asks again', async () => {
    let status: PaymentStatus = 'PENDING';
    const requests = fakeApi(
      routes('PENDING', {
        'POST /screening/order-copy/payment-confirm/41': () => ({ body: { status, orderId: 42, screeningId: 41 } }),
      }),
    );
    renderAt(RETURN, <PaymentResultPage />);
    expect(await screen.findByText('Your payment is being processed. Reload to check again.')).toBeTruthy();
    status = 'COMPLETED';
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByText('Thank you, your payment has been completed.')).toBeTruthy();
    expect(requests.filter((request) => request.path.includes('payment-confirm'))).toHaveLength(2);
  });

  it('warns about a payment not started, links back to the order form and offers to pay again or cancel', async () => {
    fakeApi(routes('NEW'));
    renderAt(RETURN, <PaymentResultPage />);
    expect(await screen.findByText('The payment has not been started yet.')).toBeTruthy();
    expect(linkTo('Back to the order form')).toBe('/order-screening-copy/41');
    expect(await screen.findByRole('button', { name: 'Pay again' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel order' })).toBeTruthy();
  });

  it('pays again from the after-payment page', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    fakeApi(routes('NEW', { 'POST /payment': () => ({ body: { redirectUri: '/payment-sandbox/x', orderId: 42, paymentId: 10 } }) }));
    renderAt(RETURN, <PaymentResultPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Pay again' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/payment-sandbox/x'));
  });

  it('cancels the unpaid order from the after-payment page', async () => {
    let status: PaymentStatus = 'NEW';
    fakeApi(
      routes('NEW', {
        'POST /screening/order-copy/payment-confirm/41': () => ({ body: { status, orderId: 42, screeningId: 41 } }),
        'GET /order/42/status': () => ({ body: orderView(status) }),
        'POST /order/42/cancel': () => {
          status = 'CANCELED';
          return { body: orderView('CANCELED') };
        },
      }),
    );
    renderAt(RETURN, <PaymentResultPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('The payment has been cancelled.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull());
  });

  it('shows a cancelled payment as an error with the link back', async () => {
    fakeApi(routes('CANCELED'));
    renderAt(RETURN, <PaymentResultPage />);
    expect(await screen.findByText('The payment has been cancelled.')).toBeTruthy();
    expect(linkTo('Back to the order form')).toBe('/order-screening-copy/41');
  });

  it('shows any other status as a failed payment', async () => {
    fakeApi(routes('REJECTED'));
    renderAt(RETURN, <PaymentResultPage />);
    expect(await screen.findByText('The payment did not succeed.')).toBeTruthy();
    expect(linkTo('Back to the order form')).toBe('/order-screening-copy/41');
  });

  it('takes the error parameter as a cancelled payment, whatever the status says yet', async () => {
    fakeApi(routes('PENDING'));
    renderAt(`${RETURN}&error=501`, <PaymentResultPage />);
    expect(await screen.findByText('The payment has been cancelled.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();
  });

  it('links to the screenings list when the return names no screening', async () => {
    fakeApi({});
    renderAt('/payment?error=501', <PaymentResultPage />);
    expect(await screen.findByText('The payment has been cancelled.')).toBeTruthy();
    expect(linkTo('Back to your screenings')).toBe('/screenings');
  });
});
