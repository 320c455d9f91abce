import type { AdminQuickFunction } from '../../shared/contracts/quick-function.ts';
import type { AdminSetting } from '../../shared/contracts/system.ts';
import type { AppContext } from '../context.ts';
import { adminListQuickFunctions } from './quick-functions.ts';
import { listAllSettings } from './settings.ts';

/**
 * Readers of audited targets that have no "get one" service of their own, for the `load` of an
 * admin route's audit spec (server/http/route.ts): the state before and after a write.
 */

export async function builtInQuickFunction(ctx: AppContext, id: string): Promise<AdminQuickFunction | null> {
  return (await adminListQuickFunctions(ctx)).find((q) => q.quickFunctionId === id) ?? null;
}

/** The setting as operators see it; null for a key that is neither known nor stored. */
export async function settingForAudit(ctx: AppContext, key: string): Promise<AdminSetting | null> {
  return (await listAllSettings(ctx)).find((s) => s.settingKey === key) ?? null;
}
