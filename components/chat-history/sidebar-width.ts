/** Sidebar widths, expanded and collapsed: a module of their own, so the layout reads them without loading the sidebar. */
export const SIDEBAR_WIDTH = 260;
export const SIDEBAR_COLLAPSED_WIDTH = 60;
