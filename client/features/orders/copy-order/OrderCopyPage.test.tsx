// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { City, Province } from '@common/types/geography';
import type { Product } from '@common/types/orders';
import { resetCsrfToken } from '../../../lib/api';
import { startIntl } from '../../../lib/intl';
import { notifications } from '../../../stores/notification-store';
import { setLanguage } from '../../../stores/prefs-store';
import { setSignedIn } from '../../../stores/session-store';
import { demoPatient, fakeApi, renderAt, type FakeRoutes } from '../../../testing/session';
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
const lodz: City = { id: 812, name: 'Łódź', district: 'Łódź', municipality: 'Łódź', kind: 'city' };
const lodzko: City = { id: 4410, name: 'Łódzko', district: 'zgierski', municipality: 'Parzęczew', kind: 'village' };

function routes(extra: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /auth/csrf': () => ({ body: { csrfToken: 'token' } }),
    'GET /screening/order-copy/41': () => ({ body: info }),
    'GET /screening/provinces': () => ({ body: provinces }),
    'GET /screening/cities': () => ({ body: [lodz, lodzko] }),
    ...extra,
  };
}

const renderPage = () =>
  renderAt('/order-screening-copy/41', <Route path="/order-screening-copy/:screeningId" component={OrderCopyPage} />);

/**
 * What the shell's notification area shows (features may not import the shell): the page's
 * success and failure messages go there, not into the form.
 */
const notified = () => notifications.items.map((item) => [item.kind, item.key]);

/** The form once loaded; its submit button says "Zamawiam" while the copy chosen is free. */
async function renderForm() {
  renderPage();
  return screen.findByRole('button', { name: 'Zamawiam' });
}

/** The city searches asked of the server, as `[provinceTid, cityName]` (fakeApi drops the query). */
function citySearches(): [string | null, string | null][] {
  return vi
    .mocked(fetch)
    .mock.calls.map(([url]) => new URL(String(url), 'http://portal.test'))
    .filter((url) => url.pathname === '/api/screening/cities')
    .map((url) => [url.searchParams.get('provinceTid'), url.searchParams.get('cityName')]);
}

async function chooseProvince(name: string) {
  const province = screen.getByRole('combobox', { name: 'Województwo' });
  await userEvent.clear(province);
  // Typing opens the list (it stays closed on focus alone); a province is one click in it.
  await userEvent.type(province, name.slice(0, 3));
  await userEvent.click(await screen.findByRole('option', { name }));
}

const cityField = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Miejscowość' });

/** Switches the catalog and waits until it is loaded (startIntl follows later switches). */
async function switchTo(language: 'pl' | 'en') {
  setLanguage(language);
  await startIntl();
  await waitFor(() => expect(document.documentElement.lang).toBe(language));
}

// Polish, the portal's first language; one run in English at the end.
beforeAll(() => switchTo('pl'));
beforeEach(() => {
  resetCsrfToken();
  setSignedIn(demoPatient);
  notifications.items = [];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('OrderCopyPage', () => {
  it('searches places only from two letters, once for what she typed, and shows their powiat and gmina', async () => {
    fakeApi(routes());
    await renderForm();
    await userEvent.click(screen.getByRole('radio', { name: 'Wysyłka na adres' }));
    await chooseProvince('łódzkie');

    // Fake timers from here, still flowing with real time (react-aria and user-event need that).
    // The exact 500 ms pause is use-city-search.test.ts's, on fully fake time: here, one search
    // for the whole word, not one per key.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.type(cityField(), 'l');
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(citySearches()).toEqual([]);

    await user.type(cityField(), 'odz');
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(citySearches()).toEqual([['10', 'lodz']]);
    vi.useRealTimers();

    const village = await screen.findByRole('option', { name: /Łódzko/ });
    expect(village.textContent).toContain('pow. zgierski, gm. Parzęczew, wieś');
    expect(screen.getByRole('option', { name: /Łódź/ }).textContent).toContain('pow. Łódź, gm. Łódź, miasto');
  });

  it('clears the chosen place when she picks another province', async () => {
    fakeApi(routes());
    await renderForm();
    await userEvent.click(screen.getByRole('radio', { name: 'Wysyłka na adres' }));
    expect(cityField().disabled).toBe(true); // no province yet
    await chooseProvince('łódzkie');
    await userEvent.type(cityField(), 'lodz');
    await userEvent.click(await screen.findByRole('option', { name: /Łódź/ }));
    expect(cityField().value).toBe('Łódź');

    await chooseProvince('mazowieckie');
    expect(cityField().value).toBe('');
    // Nothing chosen any more: the form asks for a place again.
    await userEvent.click(screen.getByRole('button', { name: 'Zamawiam' }));
    expect(await screen.findByRole('combobox', { name: 'Miejscowość', description: /Wybierz miejscowość z listy/ })).toBeTruthy();
  });

  it('places a free copy by post with the ids of the chosen province and place, then opens the order', async () => {
    const requests = fakeApi(
      routes({
        'POST /screening/order-copy/41': () => ({ status: 201, body: { redirectUri: '/order/50/status', orderId: 50, paymentId: 0 } }),
      }),
    );
    const { location } = renderPage();
    const submit = await screen.findByRole('button', { name: 'Zamawiam' });
    await userEvent.click(screen.getByRole('radio', { name: 'Wysyłka na adres' }));
    await chooseProvince('łódzkie');
    await userEvent.type(cityField(), 'lodz');
    await userEvent.click(await screen.findByRole('option', { name: /Łódź/ }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Kod pocztowy' }), '90001');
    await userEvent.type(screen.getByRole('textbox', { name: 'Ulica' }), 'Piotrkowska');
    await userEvent.type(screen.getByRole('textbox', { name: 'Numer domu' }), '12');
    await userEvent.click(screen.getByRole('checkbox', { name: /Oświadczam/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Przyjmuję do wiadomości/ }));
    await userEvent.click(submit);

    await waitFor(() => expect(location.history.at(-1)).toBe('/order/50/status'));
    expect(notified()).toEqual([['success', 'orderCopy.placed']]);
    const posts = requests.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toMatchObject({
      docReceiver: 1,
      address: { province: 5, city: 812, postalCode: '90-001', street: 'Piotrkowska', houseNumber: '12' },
    });
    expect(posts[0]?.body).not.toHaveProperty('privilegedPerson');
  });

  it('asks for the address only for a copy by post, the authorised person only for her pick-up, and formats the postal code', async () => {
    fakeApi(routes());
    await renderForm();
    expect(screen.queryByRole('group', { name: 'Adres do wysyłki' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Osoba upoważniona do odbioru' })).toBeNull();

    await userEvent.click(screen.getByRole('radio', { name: 'Wysyłka na adres' }));
    expect(screen.getByRole('group', { name: 'Adres do wysyłki' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Osoba upoważniona do odbioru' })).toBeNull();
    const postalCode = screen.getByRole<HTMLInputElement>('textbox', { name: 'Kod pocztowy' });
    await userEvent.type(postalCode, '90001');
    expect(postalCode.value).toBe('90-001');
    await userEvent.type(postalCode, '23'); // a seventh character is cut
    expect(postalCode.value).toBe('90-001');

    await userEvent.click(screen.getByRole('radio', { name: 'Odbiór przez osobę upoważnioną' }));
    expect(screen.getByRole('textbox', { name: 'Numer dowodu osobistego lub paszportu' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Adres do wysyłki' })).toBeNull();

    await userEvent.click(screen.getByRole('radio', { name: 'Odbiór osobisty' }));
    expect(screen.queryByRole('group', { name: 'Osoba upoważniona do odbioru' })).toBeNull();
  });

  it('shows every message under its field at once and sends nothing while any rule is broken', async () => {
    const requests = fakeApi(routes());
    const submit = await renderForm();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Wynik badania (opis)' })); // nothing asked for now
    await userEvent.click(submit);
    expect(
      await screen.findByRole('group', { name: 'Czego ma dotyczyć kopia', description: 'Wybierz co najmniej jeden rodzaj dokumentacji' }),
    ).toBeTruthy();
    expect(screen.getByRole('radiogroup', { name: 'Sposób odbioru', description: 'Wybierz sposób odbioru' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: /Oświadczam/, description: 'Potwierdź pierwsze oświadczenie' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: /Przyjmuję do wiadomości/, description: 'Potwierdź drugie oświadczenie' })).toBeTruthy();

    // After the first submit, fields shown later say what they miss at once.
    await userEvent.click(screen.getByRole('radio', { name: 'Wysyłka na adres' }));
    expect(screen.queryByText('Wybierz sposób odbioru')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Województwo', description: /Województwo jest wymagane/ })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Miejscowość', description: /Wybierz miejscowość z listy/ })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Kod pocztowy', description: /Kod pocztowy jest wymagany/ })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Ulica', description: /Ulica jest wymagana/ })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Numer domu', description: /Numer domu jest wymagany/ })).toBeTruthy();
    await userEvent.click(submit);
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('says so when the server already has an open order of the copy', async () => {
    const requests = fakeApi(
      routes({
        'POST /screening/order-copy/41': () => ({
          status: 409,
          body: { code: 'ORDER_ALREADY_EXISTS', message: 'Such order already exist' },
        }),
      }),
    );
    const submit = await renderForm();
    await userEvent.click(screen.getByRole('radio', { name: 'Odbiór osobisty' }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Oświadczam/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Przyjmuję do wiadomości/ }));
    await userEvent.click(submit);
    // "Such order already exist", kept on screen until she closes it.
    await waitFor(() => expect(notified()).toEqual([['error', 'errors.ORDER_ALREADY_EXISTS']]));
    expect(notifications.items[0]?.persistent).toBe(true);
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('says an order already exists when the screening has one open, with a link to it', async () => {
    fakeApi(routes({ 'GET /screening/order-copy/41': () => ({ body: { ...info, canOrder: false, openOrderId: 77 } }) }));
    renderPage();
    expect(await screen.findByText('Takie zamówienie już istnieje')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zobacz bieżące zamówienie' }).getAttribute('href')).toBe('/order/77/status');
    expect(screen.queryByRole('button', { name: 'Zamawiam' })).toBeNull();
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
    await userEvent.click(screen.getByRole('radio', { name: 'Odbiór przez osobę upoważnioną' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Imię i nazwisko' }), 'Jan Nowak');
    await userEvent.type(screen.getByRole('textbox', { name: 'Numer dowodu osobistego lub paszportu' }), 'ABA300000');
    await userEvent.click(screen.getByRole('checkbox', { name: /Oświadczam/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /Przyjmuję do wiadomości/ }));
    await userEvent.click(submit);
    expect(
      await screen.findByRole('textbox', {
        name: 'Numer dowodu osobistego lub paszportu',
        description: /Podano nieprawidłowy numer dokumentu/,
      }),
    ).toBeTruthy();
  });
});

describe('OrderCopyPage in English', () => {
  beforeAll(() => switchTo('en'));
  afterAll(() => switchTo('pl'));

  it('shows the form and its messages in English', async () => {
    const requests = fakeApi(routes());
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Order a copy of medical records' })).toBeTruthy();
    await userEvent.click(await screen.findByRole('radio', { name: 'Send to an address' }));
    await userEvent.click(screen.getByRole('button', { name: 'Place the order' }));
    // Focus goes to the first field with a problem, the province; its list stays closed, so the
    // form and its messages stay in view and in the accessibility tree.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Province' })));
    expect(screen.queryByRole('listbox')).toBeNull();
    // Its button opens the whole list for a finger or a mouse.
    await userEvent.click(screen.getByRole('button', { name: /Province/ }));
    expect(within(await screen.findByRole('listbox')).getAllByRole('option').length).toBeGreaterThan(1);
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('textbox', { name: 'Postal code', description: /Postal code is required/ })).toBeTruthy();
    expect(screen.getByText('Please confirm the first statement')).toBeTruthy();
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});
