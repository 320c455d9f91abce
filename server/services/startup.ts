import type { AppContext } from '../context.ts';

/** Runs once when an instance starts, before it takes requests. */
export async function runStartupTasks(_ctx: AppContext): Promise<void> {
  // Filled in by each feature: admin bootstrap (accounts), catalogue seeding, recovery of
  // interrupted streams (chat).
}
