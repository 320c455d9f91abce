import type { FastifyInstance } from 'fastify';
import { AuditListQuerySchema, AuditPageSchema } from '../../../shared/contracts/audit.ts';
import { addRoute } from '../../http/route.ts';
import { listAudit } from '../../services/admin/audit.ts';

/** The audit log is read-only: rows are added by addRoute after each admin write, never edited. */
export function registerAdminAuditRoutes(app: FastifyInstance): void {
  addRoute(app, {
    method: 'GET',
    url: '/api/admin/AuditLog/GetList',
    auth: 'admin',
    summary:
      'Admin writes, newest first: who (actorId, actorEmail part), what (action such as User/GrantPoints; targetType and targetId), when (from/to), with the target before and after (secrets redacted)',
    query: AuditListQuerySchema,
    data: AuditPageSchema,
    handler: ({ ctx, query }) => listAudit(ctx, query),
  });
}
