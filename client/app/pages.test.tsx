// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { afterEach, expect, it, vi } from 'vitest';

vi.mock('../features/result/ResultPage', () => ({ default: () => <p>the result page</p> }));
afterEach(cleanup);

function renderPage(Page: ComponentType) {
  render(
    <Suspense fallback={<p>loading</p>}>
      <Page />
    </Suspense>,
  );
}

it('shows a preloaded page at once, without the loading fallback React would hold it behind', async () => {
  const { PAGES, preloadPage } = await import('./pages');
  await preloadPage('screening');
  renderPage(PAGES.screening);
  expect(screen.getByText('the result page')).toBeTruthy();
  expect(screen.queryByText('loading')).toBeNull();
});

it('still loads a page that was not preloaded, behind the loading fallback', async () => {
  vi.resetModules();
  const { PAGES } = await import('./pages');
  renderPage(PAGES.screening_of_patient);
  expect(screen.getByText('loading')).toBeTruthy();
  expect(await screen.findByText('the result page')).toBeTruthy();
});
