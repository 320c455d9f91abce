import { Codes } from '../../../shared/contracts/envelope.ts';
import type { VipPackageModelList } from '../../../shared/contracts/model.ts';
import { FREE_VIP_PACKAGE_ID } from '../../../shared/contracts/plans.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../core/errors.ts';
import { packageById } from '../plans/plans.ts';
import { getCatalogue } from './catalogue.ts';

/**
 * What a plan unlocks (the pricing page's cards, the console's plans tab): the served catalogue's
 * models whose minVipLevel the package's level reaches, in catalogue order. The level decides, as it
 * does when a message is sent (server/services/chat/model-stream.ts), so the list never promises a
 * model the plan cannot use. 'free' is the free plan of the public list (level 0).
 *
 * A package that is not on sale (offline) answers NotFound like an unknown one, unless
 * `includeOffline` (operators, who see offline packages in the console); a deleted one always does.
 */
export async function modelsForPackage(ctx: AppContext, vipPackageId: string, includeOffline = false): Promise<VipPackageModelList> {
  const level = vipPackageId === FREE_VIP_PACKAGE_ID ? 0 : await packageLevel(ctx, vipPackageId, includeOffline);
  const entries = await getCatalogue(ctx);
  return { vipPackageId, level, list: entries.map((e) => e.model).filter((m) => m.minVipLevel <= level) };
}

async function packageLevel(ctx: AppContext, vipPackageId: string, includeOffline: boolean): Promise<number> {
  const row = await packageById(ctx.db, vipPackageId);
  if (!row || row.deletedAt || (!row.online && !includeOffline)) throw new AppError(Codes.NotFound, 'vipPackageNotFound', { id: vipPackageId });
  return row.level;
}
