import { startAuthSync } from '../../components/login/auth-sync.ts';
import { startApp } from '../../components/app-shell/start.ts';
import { renderApp } from '../../components/layout/render-app.tsx';
import { createPageBridge } from '../../shared/messaging/page-bridge.ts';

const started = await startApp();
// On the web, the login follows the extension's (and the other way round) through the bridge.
if (!started.platform.isExtension) startAuthSync(started.store, createPageBridge());
renderApp(document.getElementById('root')!, started);
