import { afterAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../tests/support/app';

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function start(isProduction: boolean): Promise<TestApp> {
  const app = await startTestApp({ config: { isProduction, version: '1.2.3' } });
  apps.push(app);
  return app;
}

it('tells the version outside production, without starting a session', async () => {
  const response = await (await start(false)).client().get('/api/version');
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ version: '1.2.3' });
  expect(response.headers.get('set-cookie')).toBeNull();
});

it('does not exist in production, so nothing reveals what is deployed', async () => {
  const response = await (await start(true)).client().get('/api/version');
  expect(response.status).toBe(404);
  expect(response.body).toEqual({ code: 'NOT_FOUND' });
});
