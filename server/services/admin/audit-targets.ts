import type { AdminQuickFunction } from '../../../shared/contracts/quick-function.ts';
import type { AppContext } from '../../context.ts';
import { adminListQuickFunctions } from '../quick-functions/quick-functions.ts';

/**
 * Readers of audited targets that have no "get one" service of their own, for the `load` of an
 * admin route's audit spec (server/http/route.ts): the state before and after a write.
 */

export async function builtInQuickFunction(ctx: AppContext, id: string): Promise<AdminQuickFunction | null> {
  return (await adminListQuickFunctions(ctx)).find((q) => q.quickFunctionId === id) ?? null;
}
