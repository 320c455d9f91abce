import type { FastifyInstance } from 'fastify';

export function registerAccountRoutes(_app: FastifyInstance): void {}
