import { watchPromptPluginUpdates } from '../../components/app-shell/prompt-plugin-sync.ts';
import { startApp } from '../../components/app-shell/start.ts';
import { renderApp } from '../../components/layout/render-app.tsx';

const started = await startApp();
// The web app announces prompt and plugin changes (updatePromptPlugin); the panel refetches them.
watchPromptPluginUpdates(started.queryClient);
renderApp(document.getElementById('root')!, started);
