import { startApp } from '../../components/app-shell/start.ts';
import { renderApp } from '../../components/layout/render-app.tsx';

const started = await startApp();
renderApp(document.getElementById('root')!, started);
