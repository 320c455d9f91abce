import i18next from 'i18next';
import { Codes } from '../contracts/envelope.ts';
import { UploadResponseSchema, type MediaFormFields, type UploadResponse } from '../contracts/media.ts';
import { imageLink } from '../utils/image-link.ts';
import { ApiError, apiPost, getApiBase } from './request.ts';

/**
 * The server reads the web page at `url` (its public address: the user's
 * cookies never travel) and keeps it as an html media item; the answer names it for AddMessage.
 */
export function uploadPageUrl(url: string, signal?: AbortSignal): Promise<UploadResponse> {
  return apiPost('/api/Chat/UploadMedia', { url }, { data: UploadResponseSchema, signal });
}

/** The fields of an AddChatMedia upload; pageTitle and pageUrl may be left out (files and images). */
export type ChatMediaFields = Pick<MediaFormFields, 'mediaType' | 'aiModelId'> & Partial<Pick<MediaFormFields, 'pageTitle' | 'pageUrl'>>;

/**
 * Uploads a file, an image or a page the extension read from a tab (multipart:
 * mediaType, pageTitle, pageUrl, aiModelId and the bytes as `imageFile` for an image, else
 * `pageFile`); the answer names the item for AddMessage's chatMediaIds. A refusal carries the
 * server's Msg; any other failure is 10500 with the uploadMediaFail message. Aborting rejects with 10087.
 */
export async function addChatMedia(fields: ChatMediaFields, file: Blob, fileName: string, signal?: AbortSignal): Promise<UploadResponse> {
  const form = new FormData();
  form.append('mediaType', fields.mediaType);
  form.append('pageTitle', fields.pageTitle ?? '');
  form.append('pageUrl', fields.pageUrl ?? '');
  if (fields.aiModelId) form.append('aiModelId', fields.aiModelId);
  // The bytes go last: a server reading the stream has every field by the time it meets them.
  form.append(fields.mediaType === 'image' ? 'imageFile' : 'pageFile', file, fileName);
  try {
    return await apiPost('/api/Chat/AddChatMedia', form, { data: UploadResponseSchema, signal });
  } catch (error) {
    // The server's own answer (a refusal with its Msg) and an abort stay as they are.
    if (error instanceof ApiError && error.code !== Codes.ServerError) throw error;
    throw new ApiError(Codes.ServerError, i18next.t('chat.content.uploadMediaFail'), error instanceof ApiError ? error.status : undefined);
  }
}

/**
 * Image links against the chat host: the server in use (the extension's chosen server, or
 * this page's origin for the web app, which the server serves itself).
 */
export function mediaLink(path: string | null | undefined): string {
  return imageLink(path, getApiBase() || globalThis.location?.origin || '');
}
