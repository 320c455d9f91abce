import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pagedSchema, PageQuerySchema } from '../../../shared/contracts/common.ts';
import {
  RedeemBatchCreatedSchema,
  RedeemBatchCreateSchema,
  RedeemBatchDisableSchema,
  RedeemBatchQuerySchema,
  RedeemBatchSchema,
  RedeemCodeEntrySchema,
  RedeemCodeListQuerySchema,
} from '../../../shared/contracts/redeem-codes.ts';
import { addRoute, RAW, savedId } from '../../http/route.ts';
import { batchCsv, generateBatch, listBatches, listCodes, setBatchDisabled } from '../../services/points/redeem-codes.ts';

/** Operators' redeem codes (docs/economy.md#redeem-codes): batches, their codes, an export, disabling. */
export function registerAdminRedeemCodeRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'POST',
    url: '/api/admin/RedeemCode/GenerateBatch',
    auth: 'admin',
    audit: { target: 'redeemBatch', id: savedId('batchId') },
    summary: 'Generate a batch of random codes, each worth points and/or plan days at a level, usable usesPerCode times (each user once)',
    body: RedeemBatchCreateSchema,
    data: RedeemBatchCreatedSchema,
    handler: ({ ctx, user, body }) => generateBatch(ctx.db, user.id, body),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/RedeemCode/GetBatchList',
    auth: 'admin',
    summary: 'The batches, newest first, with how many codes each has and how many redeems they had',
    query: PageQuerySchema,
    data: pagedSchema(RedeemBatchSchema),
    handler: ({ ctx, query }) => listBatches(ctx.db, query.page, query.count),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/RedeemCode/GetCodeList',
    auth: 'admin',
    summary: "A page of a batch's codes (grouped XXXX-XXXX-XXXX-XXXX) with their uses",
    query: RedeemCodeListQuerySchema,
    data: pagedSchema(RedeemCodeEntrySchema),
    handler: ({ ctx, query }) => listCodes(ctx.db, query.batchId, query.page, query.count),
  });

  addRoute(app, {
    method: 'GET',
    url: '/api/admin/RedeemCode/ExportBatch',
    auth: 'admin',
    summary: "Every code of a batch as a CSV download (header row `code,uses`); an unknown batch answers 10404 in the envelope",
    query: RedeemBatchQuerySchema,
    raw: {
      description: 'The codes as text/csv, a download (Content-Disposition: attachment) named after the batch.',
      content: { 'text/csv': z.string().describe('`code,uses`, then one row per code, CRLF line ends.') },
    },
    handler: async ({ ctx, query, reply }) => {
      const { fileName, csv } = await batchCsv(ctx.db, query.batchId);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('x-content-type-options', 'nosniff')
        // The codes are worth points: no cache keeps them.
        .header('cache-control', 'no-store');
      reply.send(csv);
      return RAW;
    },
  });

  addRoute(app, {
    method: 'POST',
    url: '/api/admin/RedeemCode/DisableBatch',
    auth: 'admin',
    audit: { target: 'redeemBatch', id: ({ body }) => body.batchId },
    summary: 'Disable a batch (its codes are refused like unknown ones) or enable it again; answers the batch',
    body: RedeemBatchDisableSchema,
    data: RedeemBatchSchema,
    handler: ({ ctx, body }) => setBatchDisabled(ctx.db, body.batchId, body.disabled),
  });
}
