import { Icon, type IconProps } from '../ui/icons.tsx';

/** The settings' own icons, drawn as components/ui/icons.tsx draws the others (kept in the settings' chunk). */
export const IconUser = (p: IconProps) => <Icon {...p} paths={['M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M4 20a8 8 0 0 1 16 0']} />;
export const IconShield = (p: IconProps) => <Icon {...p} paths={['M12 3l8 3v6c0 4.5-3.4 8.2-8 9-4.6-.8-8-4.5-8-9V6z', 'M9 12l2 2 4-4']} />;
/** A door with an arrow leaving it: signing out. */
export const IconLogout = (p: IconProps) => <Icon {...p} paths={['M14 4H5v16h9', 'M10 12h10', 'M17 9l3 3-3 3']} />;
/** A browser window: the extension that lives in it. */
export const IconBrowser = (p: IconProps) => <Icon {...p} paths={['M3 5h18v14H3z', 'M3 9h18', 'M6.5 7h.01', 'M9.5 7h.01']} />;
