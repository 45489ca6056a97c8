// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Province } from '@common/types/geography';
import type { Product } from '@common/types/orders';
import { resetCsrfToken } from '../../../lib/api';
import { setSignedIn } from '../../../stores/session-store';
import { demoPatient, fakeApi, renderAt, startEnglish, type FakeRoutes } from '../../../testing/session';
import type { CopyOrderInfo } from './CopyOrderForm';
import OrderCopyPage from './OrderCopyPage';

const copy = (id: number, amountGrosze: number): Product => ({
  id,
  code: `copy-${id}`,
  kind: 'copy',
  name: { pl: 'Kopia', en: 'Copy' },
  description: { pl: 'Kopia', en: 'Copy' },
  price: { amountGrosze, currency: 'PLN' },
});
const info: CopyOrderInfo = {
  screeningId: 41,
  examinedAt: '2026-10-06T08:30:00Z',
  healthCareInstitution: 'Centrum Diagnostyki Piersi',
  email: 'anna.nowak@example.com',
  products: { withImages: copy(1, 3000), withoutImages: copy(2, 0) },
  canOrder: true,
  openOrderId: null,
};
const provinces: Province[] = [
  { id: 5, tId: '10', name: 'łódzkie' },
  { id: 7, tId: '14', name: 'mazowieckie' },
];

function routes(extra: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /auth/csrf': () => ({ body: { csrfToken: 'token' } }),
    'GET /screening/order-copy/41': () => ({ body: info }),
    'GET /screening/provinces': () => ({ body: provinces }),
    ...extra,
  };
}

function renderForm() {
  renderAt('/order-screening-copy/41', <Route path="/order-screening-copy/:screeningId" component={OrderCopyPage} />);
  return screen.findByRole('button', { name: /Place the order/ });
}

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

describe('OrderCopyPage', () => {
  it('asks for the address only for a copy by post, and formats the postal code as typed', async () => {
    fakeApi(routes());
    await renderForm();
    expect(screen.queryByRole('textbox', { name: 'Postal code' })).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: 'Send to an address' }));
    const postalCode = screen.getByRole('textbox', { name: 'Postal code' });
    await userEvent.type(postalCode, '9000123');
    expect((postalCode as HTMLInputElement).value).toBe('90-001');
    expect(screen.queryByRole('textbox', { name: 'Polish ID card or passport number' })).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: 'Pick up by an authorised person' }));
    expect(screen.getByRole('textbox', { name: 'Polish ID card or passport number' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Postal code' })).toBeNull();
  });

  it('shows every message in place at once and sends nothing while any rule is broken', async () => {
    const requests = fakeApi(routes());
    const submit = await renderForm();
    await userEvent.click(screen.getByRole('radio', { name: 'Send to an address' }));
    await userEvent.click(submit);
    for (const message of [
      'Province is required',
      'Choose the city from the list',
      'Postal code is required',
      'Street is required',
      'House number is required',
      'Please confirm the first statement',
      'Please confirm the second statement',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('says an order already exists when the screening has one open, with a link to it', async () => {
    fakeApi(routes({ 'GET /screening/order-copy/41': () => ({ body: { ...info, canOrder: false, openOrderId: 77 } }) }));
    renderAt('/order-screening-copy/41', <Route path="/order-screening-copy/:screeningId" component={OrderCopyPage} />);
    expect((await screen.findByRole('alert')).textContent).toContain('Such order already exist');
    expect(screen.getByRole('link', { name: 'See the current order' }).getAttribute('href')).toBe('/order/77/status');
    expect(screen.queryByRole('button', { name: /Place the order/ })).toBeNull();
  });

  it('shows the server’s message for a field in place', async () => {
    fakeApi(
      routes({
        'POST /screening/order-copy/41': () => ({
          status: 400,
          body: {
            code: 'VALIDATION',
            issues: [{ path: 'privilegedPerson.id', message: 'orderCopy.validation.privilegedPerson.id.invalid' }],
          },
        }),
      }),
    );
    const submit = await renderForm();
    await userEvent.click(screen.getByRole('radio', { name: 'Pick up by an authorised person' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Full name' }), 'Jan Nowak');
    await userEvent.type(screen.getByRole('textbox', { name: 'Polish ID card or passport number' }), 'ABA300000');
    await userEvent.click(screen.getByRole('checkbox', { name: /I declare that I am the person/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /I acknowledge that the copy is issued/ }));
    await userEvent.click(submit);
    await waitFor(() => expect(screen.getByText('Incorrect serial number provided')).toBeTruthy());
  });
});
