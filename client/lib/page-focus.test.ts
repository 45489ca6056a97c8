// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module per test: it remembers the last location shown. */
async function freshModule() {
  vi.resetModules();
  return import('./page-focus');
}

/** A <main> like the Shell's, optionally holding a page heading like PageTitle's. */
function mainWith(headingText?: string): { main: HTMLElement; heading: HTMLElement | null } {
  document.body.innerHTML = '';
  const main = document.createElement('main');
  main.tabIndex = -1;
  document.body.append(main);
  if (headingText === undefined) return { main, heading: null };
  return { main, heading: addHeading(main, headingText) };
}

function addHeading(main: HTMLElement, text: string): HTMLElement {
  const heading = document.createElement('h1');
  heading.tabIndex = -1;
  heading.textContent = text;
  main.append(heading);
  return heading;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('focus after a navigation', () => {
  it('leaves focus alone on the first page a visit shows', async () => {
    const { focusAfterNavigation } = await freshModule();
    const { main } = mainWith('Moje badania');
    focusAfterNavigation('/screenings', main);
    expect(document.activeElement).toBe(document.body);
  });

  it("moves focus to the new page's heading", async () => {
    const { focusAfterNavigation } = await freshModule();
    focusAfterNavigation('/portal/login', mainWith('Portal Pacjentki').main);
    const { main, heading } = mainWith('Moje badania');
    focusAfterNavigation('/screenings', main);
    expect(document.activeElement).toBe(heading);
  });

  it('holds focus on main until a page still loading shows its heading, which then takes it', async () => {
    const { focusAfterNavigation, claimFocusForHeading } = await freshModule();
    focusAfterNavigation('/screenings', mainWith('Moje badania').main);
    const { main } = mainWith();
    focusAfterNavigation('/screening/8', main);
    expect(document.activeElement).toBe(main);
    const heading = addHeading(main, 'Wynik badania');
    claimFocusForHeading(heading);
    expect(document.activeElement).toBe(heading);
  });

  it('does not take focus back from a control she moved to while the page loaded', async () => {
    const { focusAfterNavigation, claimFocusForHeading } = await freshModule();
    focusAfterNavigation('/screenings', mainWith('Moje badania').main);
    const { main } = mainWith();
    focusAfterNavigation('/screening/8', main);
    const button = document.createElement('button');
    main.append(button);
    button.focus();
    const heading = addHeading(main, 'Wynik badania');
    claimFocusForHeading(heading);
    expect(document.activeElement).toBe(button);
  });

  it('takes nothing when a heading appears without a navigation (a page re-rendering)', async () => {
    const { focusAfterNavigation, claimFocusForHeading } = await freshModule();
    const { main } = mainWith();
    focusAfterNavigation('/screenings', main);
    claimFocusForHeading(addHeading(main, 'Moje badania'));
    expect(document.activeElement).toBe(document.body);
  });
});
