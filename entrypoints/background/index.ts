import { defineBackground } from 'wxt/utils/define-background';
import { wireSidePanel } from './side-panel.ts';

export default defineBackground({
  type: 'module',
  main() {
    wireSidePanel();
  },
});
