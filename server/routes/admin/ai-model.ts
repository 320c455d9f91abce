import type { FastifyInstance } from 'fastify';

export function registerAdminModelRoutes(_app: FastifyInstance): void {}
