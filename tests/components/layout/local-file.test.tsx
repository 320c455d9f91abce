import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRouter } from '../../../components/app-shell/router.tsx';
import { AppRoutes } from '../../../components/layout/app-routes.tsx';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0)]),
    '/api/Browser/AddBrowser': answer(),
  }),
);
afterEach(() => vi.unstubAllEnvs());

async function visit(path: string) {
  window.history.replaceState(null, '', path);
  await renderInApp(
    <AppRouter platform={{ isExtension: false }}>
      <AppRoutes />
    </AppRouter>,
    { apiBase: server.url, user: null },
  );
}

const SAVED_PAGE = `<!doctype html><html><head><title>Otters | Nature site</title></head><body>
<nav>Home · About · Shop</nav>
<article><h1>Otters</h1><p>Sea otters hold hands while they sleep so that they do not drift apart. ${'They also keep a favourite rock. '.repeat(20)}</p>
<p>Their fur is the densest of any animal.</p></article>
<footer>© Nature site</footer></body></html>`;

describe('/local_file', () => {
  it('is a page of development builds: a saved web page read as the tab reader reads it', async () => {
    expect(import.meta.env.DEV).toBe(true);
    await visit('/local_file');
    expect(await screen.findByText('Local file (development)')).toBeInTheDocument();
    screen.getByTestId('local-file-input');
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File([SAVED_PAGE], 'otters.html', { type: 'text/html' }));
    const reading = await screen.findByTestId('local-file-reading');
    expect(reading).toHaveTextContent('Sea otters hold hands while they sleep');
    expect(reading).toHaveTextContent('Their fur is the densest');
    // Readability leaves the page's navigation and footer out.
    expect(reading).not.toHaveTextContent('Home · About · Shop');
    expect(reading).not.toHaveTextContent('© Nature site');
  });

  it('is not in a production build: the address is the not-found page', async () => {
    vi.stubEnv('DEV', false);
    await visit('/local_file');
    expect(await screen.findByTestId('page-not-found')).toBeInTheDocument();
    expect(screen.queryByText('Local file (development)')).toBeNull();
  });
});
