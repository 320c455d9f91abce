import type { SVGProps } from 'react';

/** A few line icons drawn inline: the app needs only these, not an icon library in the bundle. */
type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number };

function Icon({ size = 18, paths, ...rest }: IconProps & { paths: string[] }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      {...rest}
    >
      {paths.map((path) => (
        <path key={path} d={path} />
      ))}
    </svg>
  );
}

export const IconPlus = (p: IconProps) => <Icon {...p} paths={['M12 5v14', 'M5 12h14']} />;
export const IconSearch = (p: IconProps) => <Icon {...p} paths={['M10 17a7 7 0 1 0 0-14 7 7 0 0 0 0 14z', 'M21 21l-6-6']} />;
export const IconDots = (p: IconProps) => (
  <Icon {...p} paths={['M5 12h.01', 'M12 12h.01', 'M19 12h.01']} strokeWidth={3} />
);
export const IconPencil = (p: IconProps) => <Icon {...p} paths={['M4 20h4L18.5 9.5a2.8 2.8 0 0 0-4-4L4 16v4', 'M13.5 6.5l4 4']} />;
export const IconTrash = (p: IconProps) => (
  <Icon {...p} paths={['M4 7h16', 'M10 11v6', 'M14 11v6', 'M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12', 'M9 7V4h6v3']} />
);
export const IconSidebar = (p: IconProps) => <Icon {...p} paths={['M4 4h16v16H4z', 'M9 4v16']} />;
export const IconCrown = (p: IconProps) => <Icon {...p} paths={['M12 6l4 6 5-4-2 10H5L3 8l5 4z']} />;
