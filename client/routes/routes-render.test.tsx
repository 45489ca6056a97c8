// @vitest-environment happy-dom
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ROUTES, routeForPath } from './paths';

/** The page wouter's <Switch> renders for a location, as App renders the route table. */
function renderedRoute(path: string): string {
  const { hook } = memoryLocation({ path, static: true });
  const view = render(
    <Router hook={hook}>
      <Switch>
        {ROUTES.map((route) => (
          <Route key={route.name} path={route.path}>
            {(params) => <output data-route={route.name}>{JSON.stringify(params)}</output>}
          </Route>
        ))}
        <Route>
          <output data-route="none" />
        </Route>
      </Switch>
    </Router>,
  );
  const name = view.container.querySelector('output')?.getAttribute('data-route') ?? 'none';
  view.unmount();
  return name;
}

describe('the guard and the rendered page', () => {
  const edgePaths = [
    '/',
    '/faq/',
    '/FAQ',
    '/Portal/Audit',
    '/screening//survey',
    '/screening/12/survey/',
    '/screening/survey',
    '/change-password/a%2Fb',
    '/change-password/%E0%A4%A',
    '/contact/success',
    '/order/success',
    '/order/5/status',
    '//',
    '/no/such/page',
  ];

  it('agree on every edge path: the guard decides on the page that is shown', () => {
    for (const path of edgePaths) {
      expect(routeForPath(path)?.route.name ?? 'none', path).toBe(renderedRoute(path));
    }
  });
});
