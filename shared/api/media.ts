import { UploadResponseSchema, type UploadResponse } from '../contracts/media.ts';
import { apiPost } from './request.ts';

/**
 * Spec §7 UploadMedia: the server reads the web page at `url` (its public address: the user's
 * cookies never travel) and keeps it as an html media item; the answer names it for AddMessage.
 */
export function uploadPageUrl(url: string, signal?: AbortSignal): Promise<UploadResponse> {
  return apiPost('/api/Chat/UploadMedia', { url }, { data: UploadResponseSchema, signal });
}
