/**
 * The plan this tab is paying for, remembered while the browser is on Stripe's checkout: the
 * success page waits for that level. Kept in sessionStorage (this tab only); absent when the
 * checkout was opened from another page (the side panel), and then the subscription tells the level.
 */
export interface PendingPurchase {
  vipPackageId: string;
  level: number;
  name: string;
}

const KEY = 'tandem.plans.pending';

export function rememberPurchase(purchase: PendingPurchase): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(purchase));
  } catch {
    // Storage refused (private mode, quota): the success page asks the server instead.
  }
}

export function pendingPurchase(): PendingPurchase | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<PendingPurchase> | null;
    if (!value || typeof value.level !== 'number' || typeof value.name !== 'string') return null;
    return { vipPackageId: String(value.vipPackageId ?? ''), level: value.level, name: value.name };
  } catch {
    return null;
  }
}

export function forgetPurchase(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing to forget.
  }
}
