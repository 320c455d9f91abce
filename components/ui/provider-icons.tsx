import type { ProviderKind } from '../../shared/contracts/sign-in-providers.ts';
import { Icon, type IconProps } from './icons.tsx';

/** The providers' marks, drawn as line icons like the others (no brand assets in the bundle). */
const PATHS: Record<ProviderKind, string[]> = {
  // A "G": an open circle with its bar.
  google: ['M20 12a8 8 0 1 1-2.4-5.7', 'M12 12h8'],
  // A cat's head, GitHub's outline.
  github: ['M9 19c-4 1.5-4-2-6-2.5', 'M15 21v-3.5c0-1 .1-1.4-.5-2 2.8-.3 5.5-1.4 5.5-6a4.6 4.6 0 0 0-1.3-3.2 4.2 4.2 0 0 0-.1-3.2s-1.1-.3-3.5 1.3a12 12 0 0 0-6.2 0C6.5 2.8 5.4 3.1 5.4 3.1a4.2 4.2 0 0 0-.1 3.2A4.6 4.6 0 0 0 4 9.5c0 4.6 2.7 5.7 5.5 6-.6.6-.6 1.2-.5 2V21'],
  // Four panes.
  microsoft: ['M4 4h7v7H4z', 'M13 4h7v7h-7z', 'M4 13h7v7H4z', 'M13 13h7v7h-7z'],
  // A key: any OpenID provider.
  oidc: ['M15 9a4 4 0 1 0-3.5 4L4 20.5', 'M7 17.5l2 2', 'M9.5 15l2 2', 'M15.5 8.5h.01'],
};

export function ProviderIcon({ kind, ...rest }: IconProps & { kind: ProviderKind }) {
  return <Icon {...rest} paths={PATHS[kind]} />;
}
