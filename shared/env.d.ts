/** Build-time variables the client reads (Vite exposes WXT_-prefixed ones through WXT). */
interface ImportMetaEnv {
  readonly WXT_SERVER_URL?: string;
}
