import type { AppContext } from '../../context.ts';
import { seedCatalogue } from '../catalogue/catalogue-seed.ts';
import { bootstrapAdmin } from '../accounts/accounts.ts';
import { recoverOrphanedAnswers, registerInstance, startOrphanSweep, unregisterInstance } from './instances.ts';
import { seedPlugins } from '../plugins/plugins.ts';
import { seedPackages, startPlanPointsSweep } from '../plans/plans.ts';
import { startSearchIndexUpkeep } from '../chat/search-index-upkeep.ts';
import { startTrackingSweep } from './tracking.ts';
import { startUsageRollup } from './usage-rollup.ts';

/** Runs once when an instance starts, before it takes requests. */
export async function runStartupTasks(ctx: AppContext): Promise<void> {
  await bootstrapAdmin(ctx);
  await seedCatalogue(ctx);
  await seedPlugins(ctx);
  await seedPackages(ctx);
  // Registered before recovering: answers of instances still alive are not this start's to end.
  await registerInstance(ctx);
  await recoverOrphanedAnswers(ctx);
}

/** What runs periodically while the instance runs (timers unref'd, so they never hold the process). Returns the stop, called on close. */
export function startPeriodicTasks(ctx: AppContext): () => Promise<void> {
  const stopPlanPoints = startPlanPointsSweep(ctx);
  const stopOrphanSweep = startOrphanSweep(ctx);
  const stopUsageRollup = startUsageRollup(ctx);
  const stopTrackingSweep = startTrackingSweep(ctx);
  const stopSearchIndexUpkeep = startSearchIndexUpkeep(ctx);
  return async () => {
    stopPlanPoints();
    stopOrphanSweep();
    stopUsageRollup();
    stopTrackingSweep();
    stopSearchIndexUpkeep();
    await unregisterInstance(ctx);
  };
}
