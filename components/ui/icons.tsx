import type { SVGProps } from 'react';

/** A few line icons drawn inline: the app needs only these, not an icon library in the bundle. */
export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number };

export function Icon({ size = 18, paths, ...rest }: IconProps & { paths: string[] }) {
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

/** A quotation mark: an earlier answer attached to a new question. */
export const IconQuote = (p: IconProps) => <Icon {...p} paths={['M10 11H6a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1v4c0 3-1 5-4 6', 'M19 11h-4a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1v4c0 3-1 5-4 6']} />;
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
export const IconChevronDown = (p: IconProps) => <Icon {...p} paths={['M6 9l6 6 6-6']} />;
export const IconChevronLeft = (p: IconProps) => <Icon {...p} paths={['M15 6l-6 6 6 6']} />;
export const IconChevronRight = (p: IconProps) => <Icon {...p} paths={['M9 6l6 6-6 6']} />;
export const IconLock = (p: IconProps) => <Icon {...p} paths={['M6 11h12v10H6z', 'M8 11V7a4 4 0 0 1 8 0v4']} />;
export const IconSend = (p: IconProps) => <Icon {...p} paths={['M5 12h14', 'M13 6l6 6-6 6']} />;
export const IconStop = (p: IconProps) => <Icon {...p} paths={['M7 7h10v10H7z']} />;
export const IconGlobe = (p: IconProps) => (
  <Icon {...p} paths={['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M3 12h18', 'M12 3a14 14 0 0 1 0 18', 'M12 3a14 14 0 0 0 0 18']} />
);
/** Translation: a character and a letter A. */
export const IconLanguage = (p: IconProps) => <Icon {...p} paths={['M4 5h7', 'M9 3v2c0 4.4-2.2 8-5 8', 'M5 9c0 2.1 3 3.9 6.7 4', 'M12 20l4-9 4 9', 'M19.1 18h-6.2']} />;
export const IconCopy = (p: IconProps) => <Icon {...p} paths={['M9 9h11v11H9z', 'M5 15H4V4h11v1']} />;
export const IconRefresh = (p: IconProps) => <Icon {...p} paths={['M20 11a8 8 0 1 0-2.3 5.7', 'M20 4v7h-7']} />;
export const IconMenu = (p: IconProps) => <Icon {...p} paths={['M4 6h16', 'M4 12h16', 'M4 18h16']} />;
export const IconSettings = (p: IconProps) => (
  <Icon {...p} paths={['M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M19 12a7 7 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7 7 0 0 0-2-1.2L14 3h-4l-.5 2.6a7 7 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7 7 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7 7 0 0 0 2 1.2L10 21h4l.5-2.6a7 7 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z']} />
);
export const IconArrowDown = (p: IconProps) => <Icon {...p} paths={['M12 5v14', 'M6 13l6 6 6-6']} />;
export const IconLink = (p: IconProps) => (
  <Icon {...p} paths={['M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1', 'M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1']} />
);
export const IconX = (p: IconProps) => <Icon {...p} paths={['M6 6l12 12', 'M18 6L6 18']} />;
export const IconPaperclip = (p: IconProps) => (
  <Icon {...p} paths={['M20 11.5l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7L9.7 17.2a1.7 1.7 0 0 1-2.4-2.4L15 7.1']} />
);
export const IconAlert = (p: IconProps) => (
  <Icon {...p} paths={['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 8v4', 'M12 16h.01']} />
);
export const IconFileText = (p: IconProps) => (
  <Icon {...p} paths={['M14 3H6v18h12V7z', 'M14 3v4h4', 'M9 13h6', 'M9 17h6']} />
);
export const IconCamera = (p: IconProps) => (
  <Icon {...p} paths={['M4 8h3l2-3h6l2 3h3v11H4z', 'M12 16a3 3 0 1 0 0-6 3 3 0 0 0 0 6z']} />
);
export const IconPhoto = (p: IconProps) => (
  <Icon {...p} paths={['M4 5h16v14H4z', 'M15 9h.01', 'M4 16l5-5 4 4 2-2 5 5']} />
);
export const IconPuzzle = (p: IconProps) => (
  <Icon {...p} paths={['M4 7h3a2 2 0 1 0 4 0h3v3a2 2 0 1 1 0 4v3h-3a2 2 0 1 0-4 0H4v-3a2 2 0 1 0 0-4z']} />
);
export const IconCalendarCheck = (p: IconProps) => (
  <Icon {...p} paths={['M4 6h16v14H4z', 'M8 3v4', 'M16 3v4', 'M4 10h16', 'M9 15l2 2 4-4']} />
);
export const IconCoin = (p: IconProps) => (
  <Icon {...p} paths={['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M14.5 9.5c-.5-1-1.5-1.5-2.5-1.5-1.5 0-2.5.8-2.5 2s1 1.7 2.5 2 2.5.8 2.5 2-1 2-2.5 2c-1 0-2-.5-2.5-1.5', 'M12 6.5v1.5', 'M12 16v1.5']} />
);
export const IconGift = (p: IconProps) => (
  <Icon {...p} paths={['M4 11h16v9H4z', 'M3 7h18v4H3z', 'M12 7v13', 'M12 7c-1.5-3-5-3.5-5-1.5S10 7 12 7c2 0 5-.5 5-1.5S13.5 4 12 7']} />
);
export const IconBell = (p: IconProps) => (
  <Icon {...p} paths={['M6 16V11a6 6 0 0 1 12 0v5l2 2H4z', 'M10 21h4']} />
);
export const IconArrowLeft = (p: IconProps) => <Icon {...p} paths={['M19 12H5', 'M11 6l-6 6 6 6']} />;
export const IconCheck = (p: IconProps) => <Icon {...p} paths={['M5 12l5 5L20 7']} />;
export const IconArrowUp = (p: IconProps) => <Icon {...p} paths={['M12 19V5', 'M6 11l6-6 6 6']} />;
export const IconPin = (p: IconProps) => <Icon {...p} paths={['M9 4h6l-1 5 4 4H6l4-4z', 'M12 13v7']} />;
/** The pin struck through: unpin. */
export const IconPinOff = (p: IconProps) => <Icon {...p} paths={['M9 4h6l-1 5 4 4H6l4-4z', 'M12 13v7', 'M4 4l16 16']} />;
export const IconStar = (p: IconProps) => (
  <Icon {...p} paths={['M12 17.75l-6.17 3.25 1.18-6.88-5-4.87 6.9-1L12 2l3.09 6.25 6.9 1-5 4.87 1.18 6.88z']} />
);
export const IconPrompt = (p: IconProps) => <Icon {...p} paths={['M5 7l5 5-5 5', 'M13 17h6']} />;
export const IconGrip = (p: IconProps) => (
  <Icon {...p} paths={['M9 6h.01', 'M15 6h.01', 'M9 12h.01', 'M15 12h.01', 'M9 18h.01', 'M15 18h.01']} strokeWidth={3} />
);
export const IconDownload = (p: IconProps) => <Icon {...p} paths={['M12 4v11', 'M7 10l5 5 5-5', 'M5 20h14']} />;
export const IconUpload = (p: IconProps) => <Icon {...p} paths={['M12 15V4', 'M7 9l5-5 5 5', 'M5 20h14']} />;
export const IconFolder = (p: IconProps) => <Icon {...p} paths={['M3 6h6l2 2h10v11H3z']} />;
export const IconPlayerPlay = (p: IconProps) => <Icon {...p} paths={['M7 4v16l13-8z']} />;
