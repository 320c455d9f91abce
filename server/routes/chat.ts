import type { FastifyInstance } from 'fastify';

export function registerChatRoutes(_app: FastifyInstance): void {}
