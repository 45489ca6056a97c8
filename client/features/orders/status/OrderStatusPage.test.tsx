// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetCsrfToken } from '../../../lib/api';
import { notifications } from '../../../stores/notification-store';
import { setSignedIn } from '../../../stores/session-store';
import { demoPatient, fakeApi, renderAt, startEnglish } from '../../../testing/session';
import { orderView } from '../order-fixtures';
import OrderStatusPage from './OrderStatusPage';

const csrf = { 'GET /auth/csrf': () => ({ body: { csrfToken: 'token' } }) };

function renderStatus(id = '42') {
  return renderAt(`/order/${id}/status`, <Route path="/order/:id/status" component={OrderStatusPage} />);
}

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

describe('OrderStatusPage', () => {
  it('shows a paid order as a success with its description, number and price', async () => {
    fakeApi({ 'GET /order/42/status': () => ({ body: orderView('COMPLETED') }) });
    renderStatus();
    expect(await screen.findByText('Your order has been paid. Thank you!')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Your order has been paid');
    expect(screen.getByText('MP-000042')).toBeTruthy();
    expect(screen.getByText('Your screening description in English')).toBeTruthy();
    expect(screen.getByText(/PLN\s49\.00/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pay again' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refresh status' })).toBeNull();
  });

  it('shows a cancelled order as an error', async () => {
    fakeApi({ 'GET /order/42/status': () => ({ body: orderView('CANCELED') }) });
    renderStatus();
    expect(await screen.findByText('This order has been cancelled.')).toBeTruthy();
    expect(screen.getByText('Cancelled')).toBeTruthy();
  });

  it('shows a spinner while processing and refreshes until the order is paid', async () => {
    let status: 'PENDING' | 'COMPLETED' = 'PENDING';
    fakeApi({ 'GET /order/42/status': () => ({ body: orderView(status) }) });
    renderStatus();
    expect(await screen.findByText('Your order is being processed.')).toBeTruthy();
    expect(screen.getByText('Pending')).toBeTruthy();
    expect(screen.getByText(/The order waits for its payment until/)).toBeTruthy();
    status = 'COMPLETED';
    await userEvent.click(screen.getByRole('button', { name: 'Refresh status' }));
    expect(await screen.findByText('Your order has been paid. Thank you!')).toBeTruthy();
  });

  it('says when the order is not found', async () => {
    fakeApi({});
    renderStatus('7');
    expect(await screen.findByText('The order was not found.')).toBeTruthy();
  });

  it('pays an unpaid order again: opens its payment and goes to the checkout', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const requests = fakeApi({
      ...csrf,
      'GET /order/42/status': () => ({ body: orderView('NEW') }),
      'POST /payment': () => ({ body: { redirectUri: '/payment-sandbox/abc', orderId: 42, paymentId: 9 } }),
    });
    renderStatus();
    await userEvent.click(await screen.findByRole('button', { name: 'Pay again' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/payment-sandbox/abc'));
    expect(requests.find((request) => request.path === '/payment')?.body).toEqual({ orderId: 42 });
  });

  it('tells her when the payment cannot start', async () => {
    fakeApi({
      ...csrf,
      'GET /order/42/status': () => ({ body: orderView('NEW') }),
      'POST /payment': () => ({ status: 503, body: { code: 'NO_CONNECTION' } }),
    });
    renderStatus();
    await userEvent.click(await screen.findByRole('button', { name: 'Pay again' }));
    await waitFor(() => expect(notifications.items.map((item) => item.key)).toContain('errors.NO_CONNECTION'));
  });

  it('cancels an unpaid order and shows it cancelled', async () => {
    let cancelled = false;
    fakeApi({
      ...csrf,
      'GET /order/42/status': () => ({ body: orderView(cancelled ? 'CANCELED' : 'NEW') }),
      'POST /order/42/cancel': () => {
        cancelled = true;
        return { body: orderView('CANCELED') };
      },
    });
    renderStatus();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('This order has been cancelled.')).toBeTruthy();
    expect(notifications.items.map((item) => item.key)).toContain('orders.cancelled');
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
  });
});
