/** What a failure says, for a toast or an alert: an Error's message (ApiError carries the server's), else the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
