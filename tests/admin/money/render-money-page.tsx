import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { MoneyPage } from '../../../admin/money/money-page.tsx';
import { renderInApp, type RenderAppOptions } from '../../helpers/render-app.tsx';

/** The console's money page at `path` (/admin/money/<tab>), routed as the console routes it; its location, which records where it went. */
export async function renderMoneyPage(path: string, options: RenderAppOptions) {
  const location = memoryLocation({ path, record: true });
  await renderInApp(
    <Router hook={location.hook}>
      <Route path="/admin/money/:tab">
        <MoneyPage />
      </Route>
    </Router>,
    options,
  );
  return location;
}
