import type { AppContext } from '../context.ts';
import { recoverInterruptedMessages } from './chat-running.ts';
import { seedCatalogue } from './catalogue-seed.ts';
import { bootstrapAdmin } from './accounts.ts';
import { seedPlugins } from './plugins.ts';
import { seedPackages, startPlanPointsSweep } from './plans.ts';

/** Runs once when an instance starts, before it takes requests. */
export async function runStartupTasks(ctx: AppContext): Promise<void> {
  await bootstrapAdmin(ctx);
  await seedCatalogue(ctx);
  await seedPlugins(ctx);
  await seedPackages(ctx);
  await recoverInterruptedMessages(ctx);
}

/** What runs periodically while the instance runs (timers unref'd, so they never hold the process). Returns the stop, called on close. */
export function startPeriodicTasks(ctx: AppContext): () => void {
  const stopPlanPoints = startPlanPointsSweep(ctx);
  return () => stopPlanPoints();
}
