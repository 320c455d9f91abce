import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { ResponsesFile, SendResponsesBody } from '../../../shared/contracts/chat.ts';
import type { Language } from '../../../shared/contracts/common.ts';
import { Codes } from '../../../shared/contracts/envelope.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { responsesFiles } from '../../db/schema/responses-files.ts';
import { sniffImageType } from '../../providers/images.ts';
import { uploadUpstreamFile } from '../../providers/responses-files.ts';
import type { AuthUser } from '../accounts/auth.ts';
import { catalogueEntryOf } from '../catalogue/catalogue.ts';
import { isCooling, markFailure } from '../catalogue/catalogue-health.ts';
import { cleanFileName, type UploadedFile } from '../media/upload.ts';
import type { PreparedMessage } from './prepare.ts';
import { prepareToSend } from './send.ts';

/**
 * The Responses API (docs/api.md#the-responses-api). A deployment whose protocol is 'responses' is
 * asked through OpenAI's Responses client (providers/llm.ts) by every message, AddMessage included.
 * SendResponses is AddMessage forcing that path, with files uploaded to the deployment beforehand
 * (ResponsesUpload) passed as input_file parts; the same stream, stored the same way.
 */

const sniffMimeType = (bytes: Buffer): string =>
  sniffImageType(bytes) ?? (bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? 'application/pdf' : 'application/octet-stream');

/**
 * Uploads the file to one of `aiModelId`'s Responses deployments (a healthy one first) and keeps our
 * id for it. The model must be served and speak the Responses API; the user's plan is checked when
 * the file is used (SendResponses), as for any message.
 */
export async function uploadResponsesFile(ctx: AppContext, userId: string, aiModelId: string, file: UploadedFile | null): Promise<ResponsesFile> {
  if (!file || !file.bytes.length) throw new AppError(Codes.BadRequest, 'responsesFileRequired');
  const entry = await catalogueEntryOf(ctx, aiModelId);
  if (!entry) throw new AppError(Codes.NotFound, 'modelNotFound');
  const now = Date.now();
  const candidates = entry.deployments.filter((d) => d.protocol === 'responses');
  const deployment = candidates.find((d) => !isCooling(ctx, d.id, now)) ?? candidates[0];
  if (!deployment) throw new AppError(Codes.BadRequest, 'modelNoResponses', { model: entry.model.name });
  const fileName = cleanFileName(file.fileName);
  const mimeType = sniffMimeType(file.bytes);
  let upstreamFileId: string;
  try {
    upstreamFileId = await uploadUpstreamFile(deployment, { fileName, mimeType, bytes: file.bytes });
  } catch (failure) {
    ctx.log.warn({ deploymentId: deployment.id, err: failure }, 'uploading a file to a Responses deployment failed');
    if ((failure as { kind?: string }).kind !== 'request') markFailure(ctx, deployment.id);
    throw failure;
  }
  const id = randomUUID();
  await ctx.db.insert(responsesFiles).values({ id, userId, aiModelId, deploymentId: deployment.id, upstreamFileId, fileName, mimeType, byteSize: file.bytes.length });
  return { responsesFileId: id, aiModelId, fileName, mimeType, byteSize: file.bytes.length };
}

/**
 * SendResponses up to the stream: the caller's uploaded files (anyone else's id is 10404), then the
 * message prepared as AddMessage's with the Responses path forced, to the deployment that holds them.
 */
export async function prepareResponsesSend(ctx: AppContext, user: AuthUser, token: string, body: SendResponsesBody, lang: Language): Promise<PreparedMessage> {
  const ids = body.responsesFileIds;
  const rows = ids.length
    ? await ctx.db
        .select()
        .from(responsesFiles)
        .where(and(eq(responsesFiles.userId, user.id), inArray(responsesFiles.id, ids)))
    : [];
  if (rows.length !== ids.length) throw new AppError(Codes.NotFound, 'notFound');
  const holders = [...new Set(rows.map((r) => r.deploymentId))];
  if (holders.length > 1) throw new AppError(Codes.BadRequest, 'badRequest', { detail: 'the files were uploaded for different models; send them with the model they were uploaded for' });
  // The files' order as the caller listed them.
  const byId = new Map(rows.map((r) => [r.id, r]));
  const upstreamFiles = ids.map((id) => ({ fileId: byId.get(id)!.upstreamFileId, mimeType: byId.get(id)!.mimeType }));
  return prepareToSend(ctx, user, token, body, lang, { responses: { deploymentIds: holders.length ? holders : null }, upstreamFiles });
}
