import type { FastifyInstance } from 'fastify';

export function registerModelRoutes(_app: FastifyInstance): void {}
