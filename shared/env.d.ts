/** Build-time variables the client reads (Vite exposes WXT_-prefixed ones through WXT). */
interface ImportMetaEnv {
  readonly WXT_SERVER_URL?: string;
  /** The app's version (package.json), set by the builds (wxt.config.ts, admin.vite.config.ts): the error log groups by it. */
  readonly WXT_APP_VERSION?: string;
}
