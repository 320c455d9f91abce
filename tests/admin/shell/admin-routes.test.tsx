import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AdminRoutes } from '../../../admin/admin-routes.tsx';
import { sectionOf } from '../../../admin/shell/admin-layout.tsx';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';
import { prepareDataTables } from './datatable-env.ts';

prepareDataTables();

const admin = { userId: 'a1', userName: 'Admin', email: 'admin@example.com', role: 'admin' as const, vipOrder: null };

const server = serveTheseTests(
  fakeApi({
    '/api/admin/AuditLog/GetList': answer({ list: [], total: 0 }),
  }),
);

async function renderAt(path: string) {
  const memory = memoryLocation({ path, record: true });
  await renderInApp(
    <Router hook={memory.hook}>
      <AdminRoutes />
    </Router>,
    { apiBase: server.url, user: admin },
  );
  return memory;
}

describe('the console routes', () => {
  it('knows which section an address belongs to', () => {
    expect(sectionOf('/admin')).toBe('dashboard');
    expect(sectionOf('/admin/')).toBe('dashboard');
    expect(sectionOf('/admin/users/u1')).toBe('users');
    expect(sectionOf('/admin/money/orders')).toBe('money');
    expect(sectionOf('/admin/campaigns')).toBe('campaigns');
    expect(sectionOf('/admin/usersx')).toBeNull();
    expect(sectionOf('/admin/nope')).toBeNull();
  });

  it('loads a page on demand', async () => {
    await renderAt('/admin/audit');
    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeInTheDocument();
  });

  it('says an unknown address is no page, with a way back', async () => {
    await renderAt('/admin/nope');
    expect(await screen.findByRole('heading', { name: 'No such page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/admin');
  });

  it('opens the first tab of money and content when none is named', async () => {
    const memory = await renderAt('/admin/money');
    await waitFor(() => expect(memory.history.at(-1)).toBe('/admin/money/plans'));
  });
});
