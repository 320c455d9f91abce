import type { AppContext } from '../context.ts';
import { recoverInterruptedMessages } from './chat-running.ts';
import { seedCatalogue } from './catalogue-seed.ts';
import { bootstrapAdmin } from './accounts.ts';
import { seedPlugins } from './plugins.ts';

/** Runs once when an instance starts, before it takes requests. */
export async function runStartupTasks(ctx: AppContext): Promise<void> {
  await bootstrapAdmin(ctx);
  await seedCatalogue(ctx);
  await seedPlugins(ctx);
  await recoverInterruptedMessages(ctx);
}
