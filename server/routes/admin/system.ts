import type { FastifyInstance } from 'fastify';

export function registerAdminSystemRoutes(_app: FastifyInstance): void {}
