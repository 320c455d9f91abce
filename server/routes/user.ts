import type { FastifyInstance } from 'fastify';

export function registerUserRoutes(_app: FastifyInstance): void {}
