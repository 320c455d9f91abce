/** The part of geoip-country (a local copy of GeoLite2 Country, no network) this server uses. */
declare module 'geoip-country' {
  export function lookup(address: string): { country: string } | null;
}
