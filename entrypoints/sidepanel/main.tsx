import { watchPromptPluginUpdates } from '../../components/app-shell/prompt-plugin-sync.ts';
import { startApp } from '../../components/app-shell/start.ts';
import { renderApp } from '../../components/layout/render-app.tsx';
import { extensionTabs } from '../../shared/platform/extension.ts';

// The side panel sits beside a tab: it reads, follows and captures it.
const started = await startApp({ tabs: extensionTabs });
// The web app announces prompt and plugin changes (updatePromptPlugin); the panel refetches them.
watchPromptPluginUpdates(started.queryClient);
await renderApp(document.getElementById('root')!, started);
