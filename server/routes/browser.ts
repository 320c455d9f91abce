import type { FastifyInstance } from 'fastify';

export function registerBrowserRoutes(_app: FastifyInstance): void {}
