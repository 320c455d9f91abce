import type { AppContext } from '../../context.ts';

/**
 * Deployment health, per instance: consecutive failures cool a deployment down (it is tried last)
 * for 30 s, doubling up to 5 min; a success clears it. Each instance finds a broken deployment on its
 * own first failure (docs/deployment.md).
 */

type Health = { failures: number; coolingUntil: number };

const COOLDOWN_BASE_MS = 30_000;
const COOLDOWN_MAX_MS = 5 * 60_000;

const healthByApp = new WeakMap<AppContext, Map<string, Health>>();

function healthOf(ctx: AppContext): Map<string, Health> {
  let health = healthByApp.get(ctx);
  if (!health) healthByApp.set(ctx, (health = new Map()));
  return health;
}

export function isCooling(ctx: AppContext, deploymentId: string, now = Date.now()): boolean {
  const h = healthOf(ctx).get(deploymentId);
  return !!h && h.coolingUntil > now;
}

/** Consecutive failures cool a deployment down for 30 s, doubling up to 5 min. */
export function markFailure(ctx: AppContext, deploymentId: string): void {
  const health = healthOf(ctx);
  const failures = (health.get(deploymentId)?.failures ?? 0) + 1;
  const cooldown = Math.min(COOLDOWN_BASE_MS * 2 ** (failures - 1), COOLDOWN_MAX_MS);
  health.set(deploymentId, { failures, coolingUntil: Date.now() + cooldown });
}

export function markSuccess(ctx: AppContext, deploymentId: string): void {
  const health = healthOf(ctx);
  if (health.size) health.delete(deploymentId);
}

export function coolingUntilOf(ctx: AppContext, deploymentId: string): string | null {
  const h = healthOf(ctx).get(deploymentId);
  return h && h.coolingUntil > Date.now() ? new Date(h.coolingUntil).toISOString() : null;
}

