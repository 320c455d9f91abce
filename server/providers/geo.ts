/**
 * Which country an address is in, from the local GeoLite2 Country copy that ships with
 * geoip-country (no network call, no key). Its data (about 18 MB in memory) is read on the first
 * look-up, not at start-up. Loopback, private and unknown addresses have no country.
 */
let geoip: Promise<typeof import('geoip-country')> | undefined;

export async function countryOfAddress(address: string): Promise<string | null> {
  geoip ??= import('geoip-country');
  const found = (await geoip).lookup(address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, ''));
  return found?.country ?? null;
}
