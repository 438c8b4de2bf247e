/** Every zone Node knows, UTC first; a user's own zone is listed even when it is an alias. */
export function zonesFor(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC');
  return ['UTC', ...(current !== 'UTC' && !zones.includes(current) ? [current] : []), ...zones];
}
