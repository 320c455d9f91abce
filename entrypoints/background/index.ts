import { defineBackground } from 'wxt/utils/define-background';
import { installStorage } from '../../shared/storage/active.ts';
import { createExtensionStorage } from '../../shared/storage/extension.ts';
import { wireBadge } from './badge.ts';
import { wireMessages } from './messages.ts';
import { wirePageTranslate } from './page-translate.ts';
import { wireSelection } from './selection.ts';
import { wireServer } from './server.ts';
import { wireSidePanel } from './side-panel.ts';

export default defineBackground({
  type: 'module',
  main() {
    // The same storage as the extension's pages: what the handlers write, the pages follow.
    installStorage(createExtensionStorage());
    wireSidePanel();
    wireServer();
    wireMessages();
    wireBadge();
    wireSelection();
    wirePageTranslate();
  },
});
