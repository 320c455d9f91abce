import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { NotFoundPage, PageLoading } from './shell/admin-pages.tsx';
import { ErrorBoundary } from '../components/ui/error-boundary.tsx';

/**
 * The console's pages, each a chunk of its own fetched when first opened (the charts and tables of
 * one page are not the price of another). Routes are absolute, with no nested base: the pages
 * navigate to absolute /admin/... addresses themselves.
 */
const DashboardPage = lazy(() => import('./dashboard/dashboard-page.tsx').then((m) => ({ default: m.DashboardPage })));
const UsersPage = lazy(() => import('./users/users-page.tsx').then((m) => ({ default: m.UsersPage })));
const UserPage = lazy(() => import('./users/user-page.tsx').then((m) => ({ default: m.UserPage })));
const AuditPage = lazy(() => import('./audit/audit-page.tsx').then((m) => ({ default: m.AuditPage })));
const CataloguePage = lazy(() => import('./catalogue/catalogue-page.tsx').then((m) => ({ default: m.CataloguePage })));
const ModelPage = lazy(() => import('./catalogue/model-page.tsx').then((m) => ({ default: m.ModelPage })));
const MoneyPage = lazy(() => import('./money/money-page.tsx').then((m) => ({ default: m.MoneyPage })));
const CampaignsPage = lazy(() => import('./campaigns/campaigns-page.tsx').then((m) => ({ default: m.CampaignsPage })));
const ContentPage = lazy(() => import('./content/content-page.tsx').then((m) => ({ default: m.ContentPage })));

export function AdminRoutes() {
  const [location] = useLocation();
  return (
    // Keyed by address: a page that failed does not keep the next one from showing.
    <ErrorBoundary key={location}>
      <Suspense fallback={<PageLoading />}>
        <Switch>
          <Route path="/admin">
            <DashboardPage />
          </Route>
          <Route path="/admin/users" component={UsersPage} />
          <Route path="/admin/users/:userId" component={UserPage} />
          <Route path="/admin/audit" component={AuditPage} />
          <Route path="/admin/models" component={CataloguePage} />
          <Route path="/admin/models/tab/:tab" component={CataloguePage} />
          <Route path="/admin/models/:aiModelId" component={ModelPage} />
          <Route path="/admin/money">
            <Redirect to="/admin/money/plans" replace />
          </Route>
          <Route path="/admin/money/:tab" component={MoneyPage} />
          <Route path="/admin/campaigns" component={CampaignsPage} />
          <Route path="/admin/content">
            <Redirect to="/admin/content/plugins" replace />
          </Route>
          <Route path="/admin/content/:tab" component={ContentPage} />
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </ErrorBoundary>
  );
}
