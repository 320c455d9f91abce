import type { FastifyInstance } from 'fastify';

export function registerSystemRoutes(_app: FastifyInstance): void {}
